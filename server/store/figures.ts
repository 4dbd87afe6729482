import type { DeploymentFigures, DeploymentRecord, DeploymentStatus, Distribution, FiguresGroup, FigureTotals } from './types.js';

const DAY_MS = 86_400_000;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order of grouped figures, whichever store computed them: repository id, environment, week. */
export function groupOrder(a: Omit<FiguresGroup, 'figures'>, b: Omit<FiguresGroup, 'figures'>): number {
  return compare(a.repositoryId, b.repositoryId) || compare(a.environment, b.environment) || compare(a.week ?? '', b.week ?? '');
}

/** The UTC day number (days since 1970-01-01) of the Monday starting the ISO week of `ms`. */
export function isoWeekStartDay(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is the days since the week's Monday.
  return day - (((day + 3) % 7) + 7) % 7;
}

/** The Monday of the ISO week of `ms`, as `YYYY-MM-DD` (UTC). */
export const isoWeekOf = (ms: number): string => new Date(isoWeekStartDay(ms) * DAY_MS).toISOString().slice(0, 10);

export const zeroCounts = (): Record<DeploymentStatus, number> => ({ success: 0, failure: 0, 'rolled-back': 0, skipped: 0 });

/** The two statuses that open or extend a failure streak. */
const FAILING: ReadonlySet<DeploymentStatus> = new Set(['failure', 'rolled-back']);

/**
 * The 1-based nearest rank of percentile `p` (an integer 1–100) among `n` values: ⌈p·n/100⌉.
 * `p·n` is an integer and the quotient is computed once, so there is no 0.9·30 = 27.000000000000004.
 */
const nearestRank = (p: number, n: number): number => Math.ceil((p * n) / 100);

/** Median and p90 (nearest rank) of values sorted ascending; null when there are none. */
function distributionOf(sorted: readonly number[]): Distribution | null {
  const n = sorted.length;
  if (n === 0) return null;
  return { median: sorted[nearestRank(50, n) - 1]!, p90: sorted[nearestRank(90, n) - 1]!, count: n };
}

/**
 * The figures of records fed oldest first, in (recordedAt, deploymentId) order: one pass, with
 * per-environment streak state. The in-memory store's counterpart of the MongoDB pipeline.
 */
export class FiguresAccumulator {
  private readonly counts: Record<DeploymentStatus, number> = zeroCounts();
  /** UTC dates as day numbers since the epoch (cheaper than formatting each record's date). */
  private readonly successDates = new Set<number>();
  /** Environment → start (ms) of its open failure streak; absent: no streak open. */
  private readonly openStreaks = new Map<string, number>();
  private readonly recoveries: number[] = [];
  private readonly leadTimes: number[] = [];
  private readonly byDay = new Map<string, Record<DeploymentStatus, number>>();

  /** `daily: false`: no per-day counts (a grouped query's totals), which saves formatting each record's date. */
  constructor(private readonly daily = true) {}

  add(record: DeploymentRecord): void {
    this.counts[record.status]++;
    const at = record.recordedAt.getTime();
    if (this.daily) {
      const date = record.recordedAt.toISOString().slice(0, 10);
      let day = this.byDay.get(date);
      if (!day) this.byDay.set(date, (day = zeroCounts()));
      day[record.status]++;
    }
    if (FAILING.has(record.status)) {
      if (!this.openStreaks.has(record.environment)) this.openStreaks.set(record.environment, at);
    } else if (record.status === 'success') {
      this.successDates.add(Math.floor(at / DAY_MS));
      const start = this.openStreaks.get(record.environment);
      if (start !== undefined) {
        this.recoveries.push(at - start);
        this.openStreaks.delete(record.environment);
      }
      if (record.committedAt) this.leadTimes.push(at - record.committedAt.getTime());
    }
    // skipped: counted, and neither starts nor ends a streak.
  }

  totals(): FigureTotals {
    const ascending = (a: number, b: number): number => a - b;
    return {
      counts: { ...this.counts },
      successDays: this.successDates.size,
      recovery: distributionOf(this.recoveries.sort(ascending)),
      leadTime: distributionOf(this.leadTimes.sort(ascending)),
    };
  }

  result(): DeploymentFigures {
    return { ...this.totals(), byDay: this.byDay };
  }
}
