import { GraphqlResponseError } from '@octokit/graphql';
import { RequestError } from '@octokit/request-error';
import { spentRateLimit } from '../github/api.js';
import { retryAfterMs } from '../http/retry.js';
import { AnswerTooLarge, CallTimedOut } from '../http/outbound.js';

/**
 * A platform call that failed. `status` is the platform's HTTP status, or null when no answer came
 * (connection refused, timeout). The message is the platform's own text and never holds a credential.
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly details: { readonly retryAfterSeconds?: number; readonly graphqlType?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** A primary or secondary rate limit (403/429 with a limit signal). */
  get rateLimited(): boolean {
    return this.details.retryAfterSeconds !== undefined || /rate limit/i.test(this.message);
  }
}

/** The platform's own `Retry-After` (seconds) somewhere in an error's cause chain, if it sent one. */
export function platformRetryAfter(err: unknown): number | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof PlatformError && e.details.retryAfterSeconds !== undefined) return e.details.retryAfterSeconds;
  }
  return undefined;
}

/**
 * How long the platform asks callers to wait, in whole seconds: its `Retry-After` (a secondary
 * limit), or, when the primary limit is spent, the time until it resets (at least 1 s).
 */
function retryAfter(headers: Record<string, unknown> | undefined, nowMs = Date.now()): number | undefined {
  const value = headers?.['retry-after'];
  const asked = retryAfterMs(typeof value === 'string' ? value : undefined, nowMs);
  if (asked !== undefined) return Math.ceil(asked / 1000);
  const resetAtMs = spentRateLimit(headers)?.resetAtMs;
  return resetAtMs === undefined ? undefined : Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}

/** A platform answer outside 2xx as a `PlatformError`: the platform's message, status and wait. */
function answerError(status: number, headers: Record<string, unknown>, data: unknown): PlatformError {
  const message = typeof (data as { message?: unknown } | null)?.message === 'string' ? (data as { message: string }).message : `HTTP ${status}`;
  const seconds = retryAfter(headers);
  return new PlatformError(message, status, seconds === undefined ? {} : { retryAfterSeconds: seconds });
}

export function toPlatformError(err: unknown): unknown {
  if (err instanceof PlatformError) return err;
  if (err instanceof GraphqlResponseError) {
    const first = err.errors?.[0] as { message?: string; type?: string } | undefined;
    return new PlatformError(first?.message ?? 'GraphQL error', 200, first?.type ? { graphqlType: first.type } : {}, { cause: err });
  }
  if (err instanceof CallTimedOut || err instanceof AnswerTooLarge) return new PlatformError(`platform call failed: ${err.message}`, null, {}, { cause: err });
  if (err instanceof RequestError) {
    const bounded = err.cause instanceof CallTimedOut || err.cause instanceof AnswerTooLarge ? err.cause : undefined;
    if (!err.response && bounded) return new PlatformError(`platform call failed: ${bounded.message}`, null, {}, { cause: bounded });
    if (!err.response) return new PlatformError('platform unreachable', null, {}, { cause: err.cause ?? err });
    return answerError(err.status, err.response.headers as Record<string, unknown>, err.response.data);
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new PlatformError('platform timed out', null, {}, { cause: err });
  }
  return err;
}
