import { RequestError } from '@octokit/request-error';
import { resourceOf, spentRateLimit, type RateLimitResource } from './api.js';
import { retryAfterMs, retrying, type RetryPolicy } from '../http/retry.js';
import { githubClient, operationOf, type GitHubClient } from './client.js';
import { syncCall } from '../http/call-bounds.js';
import type { Fetch } from '../http/outbound.js';
import { systemClock, type WaitingClock } from '../clock.js';
import { HttpError, isTransient, mayRepeat, TransportError } from '../http/call-errors.js';
import { ConditionalAnswers } from './conditional.js';
import type { GithubTarget } from './targets.js';

const SERVICE = 'GitHub';
/** GitHub's advice when a secondary limit comes without `Retry-After`: wait at least a minute. */
const SECONDARY_DEFAULT_WAIT_MS = 60_000;
/**
 * How long a spent primary limit is waited for by default: the search budget (reset every
 * minute) always, the core budget (hourly) only near its reset; a target further from it fails.
 */
const DEFAULT_RATE_LIMIT_WAIT_MS = 5 * 60_000;
/** GitHub's reset is whole seconds by its clock: a little slack so the first call after it is not refused again. */
const RESET_SLACK_MS = 1000;

/** The primary rate limit of one resource is spent, and its reset is further away than the sync waits. */
export class RateLimitExhausted extends Error {
  override readonly name = 'RateLimitExhausted';
  constructor(
    server: string,
    readonly resetAt: Date,
    readonly resource: RateLimitResource = 'core',
    maxWaitMs?: number,
  ) {
    super(
      `${server} rate limit${resource === 'core' ? '' : ` (${resource})`} exhausted until ${resetAt.toISOString()}` +
        `${maxWaitMs === undefined ? '' : `, later than the ${Math.round(maxWaitMs / 1000)} s the sync waits for a reset`}; not attempted`,
    );
  }
}

/** A secondary (abuse) rate limit: back off and try again. */
export class SecondaryRateLimit extends HttpError {}

export interface RateLimitedClientOptions {
  /** Bound on one call, body included (`--timeout`). */
  readonly timeoutMs: number;
  /** What carries the requests (default: the network). */
  readonly transport?: Fetch;
  readonly retry: RetryPolicy;
  readonly onRetry?: (operation: string, error: Error, retry: number, delayMs: number) => void;
  /** The longest wait for a spent primary limit to reset; beyond it the call fails (default 5 minutes). */
  readonly maxRateLimitWaitMs?: number;
  /** The same per resource, where a caller has a better use of the time (issue push lists instead of searching). */
  readonly maxRateLimitWaitMsFor?: Partial<Record<RateLimitResource, number>>;
  /** Time and waiting for rate-limit resets; tests pass a clock that does not wait. */
  readonly clock?: WaitingClock;
  /** Told before a spent primary limit is waited out. */
  readonly onRateLimitWait?: (resource: RateLimitResource, waitMs: number) => void;
  /**
   * GET answers with ETags, shared by the clients of the process: each GET is made with
   * `If-None-Match`, and a `304` is answered with the kept answer (pages included, so Octokit's
   * paging follows the kept `Link`).
   */
  readonly conditional?: ConditionalAnswers;
}

/**
 * An Octokit for one target (the one factory, `server/github/client.ts`): every call bounded in
 * time, a call that got no answer, a 5xx or a 429 made again within the retry policy (the one
 * retry helper, on the injected clock) — a POST or PATCH only when GitHub cannot have acted on
 * it (never sent, or refused), so an issue or comment is never written twice — and GitHub's rate
 * limits honoured, each resource's budget apart (`x-ratelimit-resource`: a spent search budget
 * never holds back issue creation). Once a primary limit is spent (`x-ratelimit-remaining: 0`, or a
 * 403/429 saying so) calls on that resource wait for `x-ratelimit-reset` when it is within
 * `maxRateLimitWaitMs`, and fail at once with `RateLimitExhausted` when it is further; a secondary
 * limit is waited out (`Retry-After`, else a minute) and tried again within the retry policy.
 * GET answers are kept with their ETags when `conditional` is given.
 *
 * The rate-limit waiting is this project's own, not the throttling plugin's (docs/development.md):
 * it holds every call to a spent budget before it is refused, not each call after its refusal,
 * and it waits on the injected clock.
 */
export function rateLimitedClient(target: GithubTarget, options: RateLimitedClientOptions): GitHubClient {
  const clock = options.clock ?? systemClock;
  const maxWaitMsOf = (resource: RateLimitResource): number => options.maxRateLimitWaitMsFor?.[resource] ?? options.maxRateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
  /** Per resource: until when its primary limit is spent (epoch ms). */
  const exhaustedUntil = new Map<RateLimitResource, number>();
  /** Records a spent budget from an answer's headers; true when the answer says it is spent. */
  const exhausted = (headers: Record<string, unknown> | undefined, requested: RateLimitResource): boolean => {
    const spent = spentRateLimit(headers);
    if (!spent) return false;
    exhaustedUntil.set(spent.resource ?? requested, spent.resetAtMs ?? clock.now() + 60_000);
    return true;
  };
  /** Waits for the resource's reset when it is near enough; throws when it is not. */
  const awaitBudget = async (resource: RateLimitResource): Promise<void> => {
    const until = exhaustedUntil.get(resource);
    if (until === undefined) return;
    const waitMs = until - clock.now();
    if (waitMs <= 0) {
      exhaustedUntil.delete(resource);
      return;
    }
    const maxWaitMs = maxWaitMsOf(resource);
    if (waitMs + RESET_SLACK_MS > maxWaitMs) throw new RateLimitExhausted(target.server, new Date(until), resource, maxWaitMs);
    options.onRateLimitWait?.(resource, waitMs + RESET_SLACK_MS);
    await clock.sleep(waitMs + RESET_SLACK_MS);
    if (exhaustedUntil.get(resource) === until) exhaustedUntil.delete(resource);
  };
  const bounds = syncCall(options.timeoutMs);
  const { retry } = options;
  const octokit = githubClient({
    baseUrl: target.apiBase,
    userAgent: 'gatehouse-sync',
    bounds,
    ...(options.transport ? { transport: options.transport } : {}),
    auth: { token: target.token },
    redirects: 'same-origin',
  });
  octokit.hook.wrap('request', async (request, requestOptions) => {
    const operation = operationOf(requestOptions);
    const resource = resourceOf(requestOptions.url);
    const conditional = options.conditional;
    const method = (requestOptions.method ?? 'GET').toUpperCase();
    const key = conditional && method === 'GET' ? ConditionalAnswers.key(target.token, octokit.request.endpoint.parse(requestOptions).url) : undefined;
    const kept = key ? conditional!.get(key) : undefined;
    if (kept) requestOptions.headers['if-none-match'] = kept.etag;
    // A 403/429 for a spent budget is made again after the reset, once.
    let waitedForReset = false;
    const attempt = async (): Promise<Awaited<ReturnType<typeof request>>> => {
      for (;;) {
        await awaitBudget(resource);
        try {
          const response = await request(requestOptions);
          exhausted(response.headers as Record<string, unknown>, resource);
          if (key) {
            conditional!.full++;
            conditional!.keep(key, { status: response.status, url: response.url, headers: response.headers as Record<string, unknown>, data: response.data });
          }
          return response;
        } catch (err) {
          if (!(err instanceof RequestError) || !err.response) throw TransportError.of(SERVICE, operation, err);
          const headers = err.response.headers as Record<string, unknown>;
          // Not modified: the kept answer, as it came (a 304 does not count against the primary limit).
          if (err.status === 304 && kept) {
            exhausted(headers, resource);
            conditional!.notModified++;
            return { status: kept.status, url: kept.url, headers: kept.headers, data: kept.data } as Awaited<ReturnType<typeof request>>;
          }
          const data = err.response.data as { message?: unknown } | undefined;
          const detail = typeof data?.message === 'string' ? data.message.slice(0, 300) : undefined;
          const asked = retryAfterMs(typeof headers['retry-after'] === 'string' ? headers['retry-after'] : undefined, clock.now());
          if ((err.status === 403 || err.status === 429) && exhausted(headers, resource)) {
            if (!waitedForReset) {
              waitedForReset = true;
              continue;
            }
            const spent = spentRateLimit(headers)?.resource ?? resource;
            throw new RateLimitExhausted(target.server, new Date(exhaustedUntil.get(spent)!), resource);
          }
          if ((err.status === 403 || err.status === 429) && (asked !== undefined || /secondary rate limit/i.test(detail ?? ''))) {
            throw new SecondaryRateLimit(SERVICE, operation, err.status, detail, asked ?? SECONDARY_DEFAULT_WAIT_MS);
          }
          throw new HttpError(SERVICE, operation, err.status, detail, asked);
        }
      }
    };
    // No answer, a 5xx or a secondary limit: made again within the retry policy, never sooner than
    // `Retry-After`; a POST or PATCH only when GitHub cannot have acted on it (`mayRepeat`).
    return retrying(attempt, retry, {
      shouldRetry: (error) => (error instanceof SecondaryRateLimit || isTransient(error)) && mayRepeat(method, error),
      ...(options.onRetry ? { onRetry: (error: Error, n: number, delayMs: number) => options.onRetry!(operation, error, n, delayMs) } : {}),
      clock,
    });
  });
  return octokit;
}
