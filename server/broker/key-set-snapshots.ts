import type { JSONWebKeySet } from 'jose';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { KeyValueStore } from '../store/types.js';

const NAMESPACE = 'jwks-snapshot';
/** A snapshot older than this is not trusted any more (a key the issuer dropped stops working). */
export const SNAPSHOT_LIFETIME_MS = 7 * 86_400_000;
/** An unchanged key set is rewritten at most this often (to renew its lifetime), not per request. */
const REWRITE_AFTER_MS = 3_600_000;
/** After a failed write, the next attempt waits this long (a store outage is not hit per request). */
const RETRY_AFTER_FAILURE_MS = 60_000;

/**
 * The last key set of each issuer that verified a token, kept in the store so that a replica whose
 * issuer's key endpoint is unreachable can still verify tokens signed with those keys.
 */
export class KeySetSnapshots {
  private readonly written = new Map<string, { json: string; jwks: JSONWebKeySet; at: number }>();
  /** Per issuer: a write under way, or the time a failed one may be tried again. */
  private readonly busy = new Map<string, { until: number }>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
  ) {}

  async load(issuer: string, log: Logger): Promise<JSONWebKeySet | undefined> {
    try {
      const value = (await this.store.get(NAMESPACE, issuer, new Date(this.clock.now()))) as { keys?: unknown } | undefined;
      return value && Array.isArray(value.keys) && value.keys.length > 0 ? (value as JSONWebKeySet) : undefined;
    } catch (err) {
      log.warn({ err, issuer }, 'key-set snapshot unreadable');
      return undefined;
    }
  }

  /**
   * Called after each successful verification; writes only a changed set or a stale write, one
   * write per issuer at a time, and after a failure not again for a minute. Never throws.
   */
  async save(issuer: string, jwks: JSONWebKeySet, log: Logger): Promise<void> {
    const now = this.clock.now();
    const last = this.written.get(issuer);
    const recent = last !== undefined && now - last.at < REWRITE_AFTER_MS;
    // The set object the cache handed out last time: nothing was fetched since (every verification passes here).
    if (recent && last.jwks === jwks) return;
    const json = JSON.stringify(jwks);
    if (recent && last.json === json) return;
    if ((this.busy.get(issuer)?.until ?? -Infinity) > now) return;
    this.busy.set(issuer, { until: Infinity });
    try {
      await this.store.put(NAMESPACE, issuer, jwks, new Date(now + SNAPSHOT_LIFETIME_MS));
      this.written.set(issuer, { json, jwks, at: now });
      this.busy.delete(issuer);
    } catch (err) {
      // The token verified; a missed snapshot only weakens the next outage's fallback.
      this.busy.set(issuer, { until: this.clock.now() + RETRY_AFTER_FAILURE_MS });
      log.warn({ err, issuer }, 'key-set snapshot not written; next attempt in a minute');
    }
  }
}
