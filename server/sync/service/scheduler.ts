import type { Schedule } from './schedule.js';
import type { Timers } from '../../clock.js';

/** Node's timers hold at most 2^31-1 ms (about 24.8 days); a later run is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  readonly schedule: Schedule;
  readonly fire: () => void;
  handle?: unknown;
  nextAt: Date | null;
}

/**
 * One timer per source, armed for its next run. Runs missed while the process was busy or
 * asleep are not caught up: the next one is computed from the later of the planned time and now.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private stopped = false;

  constructor(private readonly timers: Timers) {}

  add(name: string, schedule: Schedule, fire: () => void): void {
    if (this.entries.has(name)) throw new Error(`${name} is already scheduled`);
    const entry: Entry = { schedule, fire, nextAt: null };
    this.entries.set(name, entry);
    this.arm(entry, new Date(this.timers.now()));
  }

  /** The next planned run of each source (null when its expression has no future date). */
  nextRuns(): Record<string, Date | null> {
    return Object.fromEntries([...this.entries].map(([name, e]) => [name, e.nextAt]));
  }

  /** Disarms every timer; a run already started is not affected. */
  stop(): void {
    this.stopped = true;
    for (const entry of this.entries.values()) this.timers.clearTimeout(entry.handle);
  }

  private arm(entry: Entry, after: Date): void {
    const at = entry.schedule.next(after);
    entry.nextAt = at;
    if (!at || this.stopped) return;
    const wait = () => {
      if (this.stopped) return;
      const delay = at.getTime() - this.timers.now();
      if (delay > MAX_TIMER_MS) {
        entry.handle = this.timers.setTimeout(wait, MAX_TIMER_MS);
        return;
      }
      entry.handle = this.timers.setTimeout(
        () => {
          if (this.stopped) return;
          this.arm(entry, new Date(Math.max(at.getTime(), this.timers.now())));
          entry.fire();
        },
        Math.max(0, delay),
      );
    };
    wait();
  }
}
