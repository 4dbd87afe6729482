import { auditNewestFirst, matchesFilters, type TokenAuditEntry, type TokenAuditQuery, type TokenAuditStore } from './audit-types.js';
import { firstAtOrAfter } from './types.js';

/**
 * Most entries the in-memory audit keeps: refused requests are recorded too, and anyone can send
 * those, so without a bound a stranger could grow the process for the whole retention. Past it the
 * oldest entries go first (MongoDB keeps every entry for its retention).
 */
export const MEMORY_AUDIT_CAPACITY = 50_000;

/**
 * The token audit in this process: entries oldest first (appended in the usual case of a clock that
 * does not go back), read newest first with a binary search to the query's newest possible entry.
 * Entries before `start` are dropped (over capacity, or expired); the array is compacted only once
 * they are many, so a full store does not move 50,000 entries on every insert.
 */
export class MemoryTokenAuditStore implements TokenAuditStore {
  private readonly entries: TokenAuditEntry[] = [];
  private start = 0;

  constructor(private readonly capacity = MEMORY_AUDIT_CAPACITY) {}

  async insert(entry: TokenAuditEntry): Promise<void> {
    let i = this.entries.length;
    while (i > this.start && auditNewestFirst(this.entries[i - 1]!, entry) < 0) i--;
    this.entries.splice(i, 0, entry);
    this.drop(Math.max(this.start, this.entries.length - this.capacity));
  }

  async list(query: TokenAuditQuery): Promise<TokenAuditEntry[]> {
    const now = query.now.getTime();
    // Drops expired entries at the old end; reads skip any others (the retention may have changed).
    let live = this.start;
    while (live < this.entries.length && this.entries[live]!.expireAt.getTime() <= now) live++;
    this.drop(live);
    const since = query.since?.getTime() ?? -Infinity;
    const upper = Math.min(query.until?.getTime() ?? Infinity, query.after?.recordedAt.getTime() ?? Infinity);
    const out: TokenAuditEntry[] = [];
    for (let i = firstAtOrAfter(this.entries, upper + 1) - 1; i >= this.start && out.length < query.limit; i--) {
      const entry = this.entries[i]!;
      if (entry.recordedAt.getTime() < since) break;
      // Listed after the page's place: older, or as old with a smaller id.
      if (query.after && auditNewestFirst(entry, query.after) <= 0) continue;
      if (entry.expireAt.getTime() <= now) continue;
      if (matchesFilters(entry.record, query)) out.push(entry);
    }
    return out;
  }

  /** Drops the entries before `index`, compacting once the dropped ones are a tenth of the capacity. */
  private drop(index: number): void {
    this.start = index;
    if (this.start > this.capacity / 10) {
      this.entries.splice(0, this.start);
      this.start = 0;
    }
  }
}
