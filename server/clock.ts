/**
 * Time, injected everywhere it matters, so tests move a clock instead of waiting: expiry,
 * retention and timestamps read `now`; retries, rate-limit resets, pacing and lock polls `sleep`;
 * the sync service's scheduler sets timers. `systemClock` is all three, on the real time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A clock that can also wait. */
export interface WaitingClock extends Clock {
  sleep(ms: number): Promise<void>;
}

/** A clock with timers (the scheduler's). */
export interface Timers extends Clock {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: WaitingClock & Timers = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
