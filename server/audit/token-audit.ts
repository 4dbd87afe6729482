import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { TokenAuditStore } from '../store/audit-types.js';
import type { TokenAuditFields } from './record.js';
import type { AuditSettings } from './settings.js';

const DAY_MS = 86_400_000;
/**
 * After a failed write, records are not tried for this long (each is counted and logged at once):
 * a store that is down would otherwise hold every answer for the driver's whole server-selection
 * bound. Then the next record tries again.
 */
export const AUDIT_RETRY_AFTER_MS = 10_000;

export interface TokenAuditDeps {
  readonly store: TokenAuditStore;
  readonly clock: Clock;
  readonly settings: () => AuditSettings;
  /** Counts a record that could not be written (the backend's metrics). */
  readonly writeFailed?: (route: TokenAuditFields['route']) => void;
}

/**
 * The main broker's audit trail: one stored record per `/token` and `/sign` answer, written before
 * the answer is sent, kept `AUDIT_RETENTION_DAYS`. A record that cannot be written is counted and
 * logged at error level with its fields (so what it says reaches the log at least); whether the
 * answer then changes is the route's decision (`AUDIT_WRITE`).
 */
export class TokenAudit {
  /** Until when the store is taken as down (after a failed write); 0 while writes succeed. */
  private downUntil = 0;

  constructor(private readonly deps: TokenAuditDeps) {}

  /** Whether a failed write must fail the mint (`AUDIT_WRITE=required`). */
  get required(): boolean {
    return this.deps.settings().write === 'required';
  }

  /** Writes the record; true when it was stored. Never throws. */
  async record(fields: TokenAuditFields, log: Logger): Promise<boolean> {
    const now = this.deps.clock.now();
    if (now < this.downUntil) return this.failed(fields, now, log, { skipped: `the store failed a write less than ${AUDIT_RETRY_AFTER_MS / 1000} s ago` });
    try {
      const { retentionDays } = this.deps.settings();
      await this.deps.store.insert({ id: uuidv7(), recordedAt: new Date(now), expireAt: new Date(now + retentionDays * DAY_MS), record: fields });
      this.downUntil = 0;
      return true;
    } catch (err) {
      this.downUntil = this.deps.clock.now() + AUDIT_RETRY_AFTER_MS;
      return this.failed(fields, now, log, { err });
    }
  }

  private failed(fields: TokenAuditFields, now: number, log: Logger, why: Readonly<Record<string, unknown>>): false {
    this.deps.writeFailed?.(fields.route);
    log.error({ ...why, audit: { recorded_at: new Date(now).toISOString(), ...fields } }, 'token audit record not written');
    return false;
  }
}
