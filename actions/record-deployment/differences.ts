import { spaceControlCharacters } from '../../server/http/control-characters.js';
import { plainText } from '../../server/markdown.js';
import type { LedgerRecord } from './record.js';

/** The ledger's mode when a record names none. */
const DEFAULT_MODE = 'deploy';

/** The record's fields a step sets, each with the input that sets it. */
const INPUT_OF: Readonly<Record<Exclude<keyof LedgerRecord, 'delivery_id'>, string>> = {
  environment: 'environment',
  status: 'status',
  target: 'target',
  mode: 'mode',
  version: 'version',
  url: 'url',
  commit: 'commit',
  run_url: 'run-url',
  actor: 'actor',
  verified: 'verified',
  duration_ms: 'duration-ms',
  committed_at: 'committed-at',
};

export interface Difference {
  /** The input's name. */
  readonly input: string;
  readonly sent: unknown;
  readonly recorded: unknown;
}

/** Two values of one field the same? Instants compare as instants: the ledger answers them in UTC. */
function same(field: keyof LedgerRecord, a: unknown, b: unknown): boolean {
  if (field === 'committed_at' && typeof a === 'string' && typeof b === 'string') return new Date(a).getTime() === new Date(b).getTime();
  return a === b;
}

/**
 * Where what this step sent differs from the record the ledger holds under its delivery id (a
 * duplicate's original, made by this step's first attempt or by another run that used the same
 * id). The ledger fills `mode` when it is left out, so a step without one sent the default.
 */
export function differences(sent: LedgerRecord, recorded: LedgerRecord): Difference[] {
  const filled: LedgerRecord = { ...sent, mode: sent.mode ?? DEFAULT_MODE };
  const stored: LedgerRecord = { ...recorded, mode: recorded.mode ?? DEFAULT_MODE };
  return (Object.keys(INPUT_OF) as (keyof typeof INPUT_OF)[])
    .filter((field) => !same(field, filled[field], stored[field]))
    .map((field) => ({ input: INPUT_OF[field], sent: filled[field], recorded: stored[field] }));
}

/** A value for a one-line warning: quoted, no line breaks, cut to 100 characters, mentions inert. */
export function shown(value: unknown): string {
  if (value === undefined) return 'none';
  const text = spaceControlCharacters(String(value));
  const chars = [...text];
  return JSON.stringify(plainText(chars.length <= 100 ? text : `${chars.slice(0, 99).join('')}…`));
}

/**
 * The warning of a duplicate delivery whose inputs differ from the record: which inputs, this
 * step's value and the recorded one (no record field is a secret: they are all shown on the
 * run's page). The record stands; this step's values went nowhere.
 */
export function differencesWarning(deliveryId: string, deploymentId: string, found: readonly Difference[]): string {
  const list = found.map((d) => `${d.input} ${shown(d.sent)} (recorded: ${shown(d.recorded)})`).join('; ');
  return (
    `delivery-id ${shown(deliveryId)} was already recorded as ${deploymentId} with other values; the record stands and this step's ` +
    `${found.length === 1 ? 'input was' : 'inputs were'} neither recorded nor sent anywhere: ${list}`
  );
}
