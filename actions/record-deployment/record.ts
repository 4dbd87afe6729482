import { createHash } from 'node:crypto';
import type { ActionsCore } from '../shared/core.js';
import { booleanInput, InputError, integerInput, optionalInput, requiredInput } from '../shared/inputs.js';

/** The body of `POST /v1/deployments` (the ledger spec's deployment record). */
export interface LedgerRecord {
  delivery_id: string;
  environment: string;
  status: string;
  target?: string;
  mode?: string;
  version?: string;
  url?: string;
  commit?: string;
  run_url?: string;
  actor?: string;
  verified?: boolean;
  duration_ms?: number;
  committed_at?: string;
}

const MAX_DELIVERY_ID = 200;

/**
 * The default idempotency key: one value per run attempt, job and environment. A retried step in
 * the same attempt repeats it (and is reported as a duplicate); a re-run is a new attempt.
 */
export function defaultDeliveryId(env: NodeJS.ProcessEnv, environment: string): string {
  const { GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: attempt, GITHUB_JOB: job } = env;
  if (!runId || !attempt) throw new InputError('input "delivery-id" is required outside a GitHub Actions run');
  const id = `${runId}-${attempt}-${job ?? 'job'}-${environment}`;
  if (id.length <= MAX_DELIVERY_ID) return id;
  return `${runId}-${attempt}-${createHash('sha256').update(`${job}\n${environment}`).digest('hex')}`;
}

/** The run's own page, for `run-url` when the input is empty. */
export function defaultRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId, GITHUB_RUN_ATTEMPT: attempt } = env;
  if (!server || !repo || !runId) return undefined;
  return `${server}/${repo}/actions/runs/${runId}${attempt ? `/attempts/${attempt}` : ''}`;
}

/** Reads the record from the step's inputs, filling the run's defaults. Empty inputs are omitted. */
export function recordFromInputs(core: ActionsCore, env: NodeJS.ProcessEnv): LedgerRecord {
  const environment = requiredInput(core, 'environment');
  const fields: Record<string, unknown> = {
    delivery_id: optionalInput(core, 'delivery-id') ?? defaultDeliveryId(env, environment),
    environment,
    status: requiredInput(core, 'status'),
    target: optionalInput(core, 'target'),
    mode: optionalInput(core, 'mode'),
    version: optionalInput(core, 'version'),
    url: optionalInput(core, 'url'),
    commit: optionalInput(core, 'commit') ?? env.GITHUB_SHA,
    run_url: optionalInput(core, 'run-url') ?? defaultRunUrl(env),
    actor: optionalInput(core, 'actor') ?? env.GITHUB_ACTOR,
    verified: booleanInput(core, 'verified'),
    duration_ms: integerInput(core, 'duration-ms'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== '')) as unknown as LedgerRecord;
}
