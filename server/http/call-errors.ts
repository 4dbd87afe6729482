import { callFailure, neverSent, transportFailure, type CallFailed, type CallFailure } from './outbound.js';
import { retrying, type RetryPolicy } from './retry.js';

/** An HTTP answer outside 2xx. The message names the service and operation, never a credential. */
export class HttpError extends Error implements CallFailed {
  override readonly name = 'HttpError';
  constructor(
    readonly service: string,
    readonly operation: string,
    readonly status: number,
    readonly detail: string | undefined,
    /** From `Retry-After`, when the server sent one. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(`${service} ${operation} answered ${status}${detail ? `: ${detail}` : ''}`);
  }

  get failure(): CallFailure {
    return { status: this.status, retryAfterMs: this.retryAfterMs };
  }
}

/** No HTTP answer: connection refused or reset, DNS failure, timeout. */
export class TransportError extends Error implements CallFailed {
  override readonly name = 'TransportError';
  readonly failure: CallFailure;
  constructor(
    service: string,
    operation: string,
    /** Why, safe to print (`transportFailure`). */
    reason: string,
    /** The request may have reached the peer: false only when no connection carried it (`neverSent`). */
    maybeSent = true,
    options?: { cause?: unknown },
  ) {
    super(`${service} ${operation} failed: ${reason}`, options);
    this.failure = { noAnswer: reason, maybeSent };
  }

  /** The error a call that got no answer threw, as a `TransportError` (its cause). */
  static of(service: string, operation: string, err: unknown): TransportError {
    return new TransportError(service, operation, transportFailure(err), !neverSent(err), { cause: err });
  }
}

/** An answer that is not what the API documents (not JSON, wrong shape). */
export class UnexpectedAnswerError extends Error {
  override readonly name = 'UnexpectedAnswerError';
  constructor(service: string, operation: string, problem: string) {
    super(`${service} ${operation}: ${problem}`);
  }
}

/** Failures that may pass: no answer at all, a server error, 429 (and 408). A 4xx is final. */
export function isTransient(err: unknown): boolean {
  const failure = callFailure(err);
  return failure !== undefined && ('noAnswer' in failure || failure.status >= 500 || failure.status === 429 || failure.status === 408);
}

/**
 * Whether the peer may have acted on a call that failed: no answer once the request may have
 * been sent (a timeout, a reset), or a server error (a 502 from a proxy says nothing of what
 * happened behind it). A refusal (4xx, a rate limit) or a connection never made says it did not.
 */
export function mayHaveActed(err: unknown): boolean {
  const failure = callFailure(err);
  return failure !== undefined && ('noAnswer' in failure ? failure.maybeSent : failure.status >= 500);
}

/** Methods whose repetition changes nothing more than their first success did (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a failed call may be made again, given the failure is worth another attempt: an
 * idempotent one always; a POST or PATCH (an issue, a comment) only when the peer cannot have
 * acted on it, or a repeat could open the issue twice.
 */
export function mayRepeat(method: string, err: unknown): boolean {
  return IDEMPOTENT.has(method.toUpperCase()) || !mayHaveActed(err);
}

/** The sync's calls: retried with the one retry helper while their failure `isTransient`. */
export function retryTransient<T>(attempt: (attemptNumber: number) => Promise<T>, policy: RetryPolicy, onRetry?: (error: Error, retry: number, delayMs: number) => void): Promise<T> {
  return retrying(attempt, policy, { shouldRetry: isTransient, ...(onRetry ? { onRetry } : {}) });
}
