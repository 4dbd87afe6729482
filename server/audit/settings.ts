import { hkdfSync } from 'node:crypto';
import { collect, ConfigError, memoOnEnv, type Checked, type Env } from '../config-error.js';

/** What happens when a mint's audit record cannot be written. */
export type AuditWriteMode = 'best-effort' | 'required';

export interface AuditSettings {
  /** `AUDIT_TOKEN`: the bearer of `GET /v1/audit/tokens`; unset, the route answers 404. Secret. */
  readonly token?: string;
  /**
   * The key of the route's paging cursors, derived from `AUDIT_TOKEN`: every replica has the same
   * token, so a cursor made by one is accepted by another, and a new token ends the old cursors.
   */
  readonly cursorKey?: Uint8Array;
  readonly retentionDays: number;
  readonly write: AuditWriteMode;
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
const MAX_RETENTION_DAYS = 36_500;
const MODES: readonly AuditWriteMode[] = ['best-effort', 'required'];

function retentionDays(env: Env): number {
  const raw = env.AUDIT_RETENTION_DAYS?.trim();
  if (!raw) return DEFAULT_AUDIT_RETENTION_DAYS;
  const days = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) throw new ConfigError('AUDIT_RETENTION_DAYS', `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}`);
  return days;
}

function writeMode(env: Env): AuditWriteMode {
  const raw = env.AUDIT_WRITE?.trim().toLowerCase();
  if (!raw) return 'best-effort';
  // A mistyped value is refused rather than read as the default: `requird` was meant to be strict.
  if (!MODES.includes(raw as AuditWriteMode)) throw new ConfigError('AUDIT_WRITE', `must be ${MODES.join(' or ')}`);
  return raw as AuditWriteMode;
}

/** Pure: the audit's settings, or every unusable one (each a `ConfigError` naming it, never its value). */
export function checkAuditSettings(env: Env): Checked<AuditSettings> {
  const problems: ConfigError[] = [];
  const days = collect(problems, () => retentionDays(env));
  const write = collect(problems, () => writeMode(env));
  if (days === undefined || write === undefined) return { ok: false, problems };
  const token = env.AUDIT_TOKEN?.trim();
  return {
    ok: true,
    value: {
      retentionDays: days,
      write,
      ...(token ? { token, cursorKey: new Uint8Array(hkdfSync('sha256', token, '', 'gatehouse token-audit cursors', 32)) } : {}),
    },
  };
}

/** The audit's settings of an environment, checked once per set of values (start-up and requests alike). */
export const auditSettings = memoOnEnv(checkAuditSettings);
