import pRetry, { AbortError } from 'p-retry';

export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First back-off; each next one doubles, with jitter. */
  readonly minTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, minTimeoutMs: 1000 };

/** A failure that will not go away by retrying (a 4xx answer, bad input). */
export class PermanentError extends Error {
  override readonly name = 'PermanentError';
}

/**
 * Runs `attempt` until it succeeds, retrying transient failures (anything but a
 * `PermanentError`) with exponential back-off and jitter.
 */
export function withRetry<T>(attempt: () => Promise<T>, policy: RetryPolicy, onRetry?: (error: Error, attemptNumber: number) => void): Promise<T> {
  return pRetry(
    async () => {
      try {
        return await attempt();
      } catch (err) {
        if (err instanceof PermanentError) throw new AbortError(err);
        // p-retry would not retry a TypeError; a transient failure of any class is retried here.
        throw err instanceof TypeError ? new Error(err.message, { cause: err }) : err;
      }
    },
    {
      retries: policy.retries,
      minTimeout: policy.minTimeoutMs,
      factor: 2,
      randomize: true,
      onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
        if (retriesLeft > 0) onRetry?.(error, attemptNumber);
      },
    },
  );
}
