export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const HOUR_MS = 3_600_000;

/**
 * Spaces requests out under GitHub's limits: at least `minIntervalMs` between two, and at most
 * `perHour` in any rolling hour. One pacer per token lives as long as the service, so the hourly
 * budget spans runs and sources.
 */
export class Pacer {
  private readonly stamps: number[] = [];

  constructor(
    private readonly clock: PacerClock,
    private readonly minIntervalMs: number,
    private readonly perHour = Number.POSITIVE_INFINITY,
  ) {}

  /** Waits for the next slot; false when the hourly budget is spent (the caller defers the work). */
  async slot(): Promise<boolean> {
    const now = this.clock.now();
    while (this.stamps.length > 0 && this.stamps[0]! <= now - HOUR_MS) this.stamps.shift();
    if (this.stamps.length >= this.perHour) return false;
    const last = this.stamps[this.stamps.length - 1];
    if (last !== undefined && now - last < this.minIntervalMs) await this.clock.sleep(this.minIntervalMs - (now - last));
    this.stamps.push(this.clock.now());
    return true;
  }
}

/**
 * GitHub's documented limits: at most 80 content-creating requests a minute and 500 an hour,
 * with at least a second between writes; search allows 30 requests a minute. The budgets leave
 * room for other users of the same token.
 */
export const GITHUB_PACE = {
  create: { minIntervalMs: 1000, perHour: 400 },
  search: { minIntervalMs: 2000 },
} as const;
