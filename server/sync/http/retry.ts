import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError, TransportError } from './request.js';

export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First back-off; doubled on each retry, capped at `maxDelayMs`, with jitter. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the attempt fails instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, minDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

/** Failures that may pass: no answer at all, a server error, 429 (and 408). A 4xx is final. */
export function isTransient(err: unknown): boolean {
  if (err instanceof TransportError) return true;
  return err instanceof HttpError && (err.status >= 500 || err.status === 429 || err.status === 408);
}

/** Exponential back-off with jitter (half to full of the capped exponential), never shorter than `Retry-After`. */
export function delayBefore(retry: number, policy: RetryPolicy, retryAfter: number | undefined, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (retry - 1));
  return Math.max(retryAfter ?? 0, Math.round(exponential * (0.5 + random() / 2)));
}

/**
 * Runs `attempt` until it succeeds or fails for good. `shouldRetry` (default `isTransient`)
 * decides which failures are worth another attempt. p-retry is not used here because it cannot
 * wait for a server's `Retry-After`.
 */
export async function retrying<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  onRetry?: (error: Error, retry: number, delayMs: number) => void,
  shouldRetry: (error: unknown) => boolean = isTransient,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      const retryAfter = err instanceof HttpError ? err.retryAfterMs : undefined;
      if (n > policy.retries || !shouldRetry(err) || (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs)) throw err;
      const delay = delayBefore(n, policy, retryAfter);
      onRetry?.(err as Error, n, delay);
      await sleep(delay);
    }
  }
}
