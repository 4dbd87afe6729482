import { GraphqlResponseError } from '@octokit/graphql';
import { RequestError } from '@octokit/request-error';
import { spentRateLimit } from '../github/api.js';
import { systemClock, type Clock } from '../clock.js';
import { AnswerTooLarge, callFailure, CallTimedOut, type CallFailed, type CallFailure } from '../http/outbound.js';

/**
 * A platform call that failed. `status` is the platform's HTTP status, or null when no answer came
 * (connection refused, timeout). The message is the platform's own text and never holds a credential.
 */
export class PlatformError extends Error implements CallFailed {
  override readonly name = 'PlatformError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly details: { readonly retryAfterSeconds?: number; readonly graphqlType?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get failure(): CallFailure {
    const { retryAfterSeconds } = this.details;
    return this.status === null ? { noAnswer: this.message, maybeSent: true } : { status: this.status, retryAfterMs: retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000 };
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
function retryAfter(asked: number | undefined, headers: Record<string, unknown>, nowMs: number): number | undefined {
  if (asked !== undefined) return Math.ceil(asked / 1000);
  const resetAtMs = spentRateLimit(headers)?.resetAtMs;
  return resetAtMs === undefined ? undefined : Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000));
}

/** The bound that cut a call off (its deadline, its size), if one did. */
function boundThatCut(err: unknown): Error | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof CallTimedOut || e instanceof AnswerTooLarge) return e;
  }
  return undefined;
}

/**
 * A failed platform call as a `PlatformError`, read with the one `callFailure`: an answer outside
 * 2xx keeps the platform's message, status and wait; no answer is `platform call failed: <the
 * bound>` when a bound cut it, else `platform unreachable`. GraphQL errors keep their type.
 */
export function toPlatformError(err: unknown, clock: Clock = systemClock): unknown {
  if (err instanceof PlatformError) return err;
  if (err instanceof GraphqlResponseError) {
    const first = err.errors?.[0] as { message?: string; type?: string } | undefined;
    return new PlatformError(first?.message ?? 'GraphQL error', 200, first?.type ? { graphqlType: first.type } : {}, { cause: err });
  }
  const failure = callFailure(err, clock);
  if (failure && 'noAnswer' in failure) {
    const bound = boundThatCut(err);
    return bound ? new PlatformError(`platform call failed: ${bound.message}`, null, {}, { cause: bound }) : new PlatformError('platform unreachable', null, {}, { cause: (err as Error).cause ?? err });
  }
  if (failure && err instanceof RequestError && err.response) {
    const data = err.response.data as { message?: unknown } | null;
    const seconds = retryAfter(failure.retryAfterMs, err.response.headers as Record<string, unknown>, clock.now());
    return new PlatformError(typeof data?.message === 'string' ? data.message : `HTTP ${failure.status}`, failure.status, seconds === undefined ? {} : { retryAfterSeconds: seconds });
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new PlatformError('platform timed out', null, {}, { cause: err });
  }
  return err;
}
