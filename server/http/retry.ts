import pRetry from 'p-retry';
import { systemClock, type WaitingClock } from '../clock.js';

/** How a call that may fail for a while is retried (the sync's calls, the actions' ledger post). */
export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First back-off; doubled on each retry, capped at `maxDelayMs`, with jitter. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the attempt fails instead. */
  readonly maxRetryAfterMs: number;
}

/** The sync's calls: 5 attempts, 1 s doubling to 30 s. */
export const SYNC_RETRY: RetryPolicy = { retries: 4, minDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };
/** The actions' ledger post: 4 attempts within a job step. */
export const ACTION_RETRY: RetryPolicy = { retries: 3, minDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 30_000 };

/**
 * Milliseconds a `Retry-After` value asks to wait: whole seconds or an HTTP date (RFC 9110
 * §10.2.3); undefined when absent or unreadable. A date in the past is 0.
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/** A failure that says how long to wait before trying again (`HttpError.retryAfterMs`, from `Retry-After`). */
function retryAfterOf(err: unknown): number | undefined {
  const value = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Exponential back-off with jitter (half to full of the capped exponential), never shorter than `Retry-After`. */
export function delayBefore(retry: number, policy: RetryPolicy, retryAfter: number | undefined, random = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (retry - 1));
  return Math.max(retryAfter ?? 0, Math.round(exponential * (0.5 + random() / 2)));
}

export interface RetryingOptions {
  /** Which failures are worth another attempt (default: all). */
  readonly shouldRetry?: (error: Error) => boolean;
  /** Told before each wait: the failure, the retry about to be made (1, 2, …) and the wait. */
  readonly onRetry?: (error: Error, retry: number, delayMs: number) => void;
  /** Waits on this clock (tests pass one that does not wait). */
  readonly clock?: WaitingClock;
}

/**
 * Runs `attempt` until it succeeds or fails for good, with p-retry: up to `policy.retries` more
 * attempts of a failure `shouldRetry` accepts, each after `delayBefore` on the injected clock, so
 * never sooner than a `Retry-After` the failure carries; one longer than `maxRetryAfterMs` ends it.
 * (The wait is made where p-retry decides to retry, so its own back-off is zero.)
 */
export function retrying<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy, options: RetryingOptions = {}): Promise<T> {
  const clock = options.clock ?? systemClock;
  return pRetry(attempt, {
    retries: policy.retries,
    minTimeout: 0,
    randomize: false,
    shouldRetry: async ({ error, attemptNumber }) => {
      const retryAfter = retryAfterOf(error);
      if (!(options.shouldRetry?.(error) ?? true) || (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs)) return false;
      const delayMs = delayBefore(attemptNumber, policy, retryAfter);
      options.onRetry?.(error, attemptNumber, delayMs);
      await clock.sleep(delayMs);
      return true;
    },
  });
}
