import { createHash } from 'node:crypto';
import type { WaitingClock } from '../clock.js';

/** At most `max` requests in any rolling `ms`; when full, `wait` for a slot or `defer` (the caller leaves the work for later). */
export interface PaceWindow {
  readonly ms: number;
  readonly max: number;
  readonly whenFull: 'wait' | 'defer';
}

/**
 * Spaces requests out under GitHub's limits: at least `minIntervalMs` between two, and within
 * every window. Callers queue: concurrent pushes sharing a pacer take their slots one after
 * another (two that looked at the same last stamp used to go out in the same millisecond).
 */
export class Pacer {
  /** Slots taken within the longest window. */
  private readonly stamps: number[] = [];
  private last: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly longest: number;

  constructor(
    private readonly clock: WaitingClock,
    private readonly minIntervalMs: number,
    private readonly windows: readonly PaceWindow[] = [],
  ) {
    this.longest = Math.max(0, ...windows.map((w) => w.ms));
  }

  /** Waits for the next slot; false when a `defer` window is full (the caller defers the work). */
  slot(): Promise<boolean> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Runs alone (queued): after the computed wait the slot is free, as no other taker ran meanwhile. */
  private async take(): Promise<boolean> {
    const now = this.clock.now();
    while (this.stamps.length > 0 && this.stamps[0]! <= now - this.longest) this.stamps.shift();
    let waitMs = 0;
    for (const w of this.windows) {
      const inWindow = this.stamps.filter((t) => t > now - w.ms);
      if (inWindow.length < w.max) continue;
      if (w.whenFull === 'defer') return false;
      // The slot frees when the oldest stamp that keeps the window full leaves it.
      waitMs = Math.max(waitMs, inWindow[inWindow.length - w.max]! + w.ms - now);
    }
    if (this.last !== undefined) waitMs = Math.max(waitMs, this.minIntervalMs - (now - this.last));
    if (waitMs > 0) await this.clock.sleep(waitMs);
    this.last = this.clock.now();
    if (this.windows.length > 0) this.stamps.push(this.last);
    return true;
  }
}

/**
 * GitHub's documented limits for content creation: at most 80 requests a minute and 500 an hour,
 * with at least a second between writes; search allows 30 requests a minute. A full minute is
 * waited for; a full hour defers the rest of the push to a later run.
 */
export const GITHUB_PACE = {
  create: {
    minIntervalMs: 1000,
    windows: [
      { ms: 60_000, max: 80, whenFull: 'wait' },
      { ms: 3_600_000, max: 500, whenFull: 'defer' },
    ],
  },
  search: { minIntervalMs: 2000, windows: [{ ms: 60_000, max: 30, whenFull: 'wait' }] },
} as const satisfies Record<string, { minIntervalMs: number; windows: readonly PaceWindow[] }>;

export interface GithubPacers {
  readonly create: Pacer;
  readonly search: Pacer;
}

/**
 * The pacers of one GitHub account: GitHub counts content creation per user (per token), so
 * everything in the process that creates issues with one token on one server shares them, across
 * runs and sources. Keyed by server and a hash of the token, so the map keeps no token.
 */
export class PacerRegistry {
  private readonly pacers = new Map<string, GithubPacers>();

  constructor(private readonly clock: WaitingClock) {}

  for(target: { readonly server: string; readonly token: string }): GithubPacers {
    const key = `${target.server.toLowerCase()}\n${createHash('sha256').update(target.token).digest('hex')}`;
    let pacers = this.pacers.get(key);
    if (!pacers) {
      pacers = {
        create: new Pacer(this.clock, GITHUB_PACE.create.minIntervalMs, GITHUB_PACE.create.windows),
        search: new Pacer(this.clock, GITHUB_PACE.search.minIntervalMs, GITHUB_PACE.search.windows),
      };
      this.pacers.set(key, pacers);
    }
    return pacers;
  }
}
