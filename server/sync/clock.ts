import type { Clock } from '../clock.js';

/** Time and waiting (rate-limit resets, pacing, lock polls), injected so tests need not wait. */
export interface WaitingClock extends Clock {
  sleep(ms: number): Promise<void>;
}

export const realClock: WaitingClock = { now: () => Date.now(), sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
