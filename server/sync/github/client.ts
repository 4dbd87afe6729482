import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { RequestError } from '@octokit/request-error';
import { MAX_ANSWER_BYTES, syncCall } from '../../http/call-bounds.js';
import { boundedFetch, transportFailure, type Fetch } from '../../http/outbound.js';
import { realClock, type WaitingClock } from '../clock.js';
import { HttpError, TransportError } from '../http/request.js';
import { isTransient, retrying, type RetryPolicy } from '../http/retry.js';
import { ConditionalAnswers } from './conditional.js';
import type { GithubTarget } from './targets.js';

const AlertsOctokit = Octokit.plugin(paginateRest);
export type GithubClient = InstanceType<typeof AlertsOctokit>;

const SERVICE = 'GitHub';
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };
/** GitHub's advice when a secondary limit comes without `Retry-After`: wait at least a minute. */
const SECONDARY_DEFAULT_WAIT_MS = 60_000;
/**
 * How long a spent primary limit is waited for by default: the search budget (reset every
 * minute) always, the core budget (hourly) only near its reset; a target further from it fails.
 */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 5 * 60_000;
/** GitHub's reset is whole seconds by its clock: a little slack so the first call after it is not refused again. */
const RESET_SLACK_MS = 1000;

/** A rate-limit budget of GitHub's (`x-ratelimit-resource`); each is counted apart. */
export type RateLimitResource = 'core' | 'search' | 'graphql' | (string & {});

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

/** The REST API version the sync is written against; sent on every call. */
export const API_VERSION = '2022-11-28';

export interface GithubClientOptions {
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

/** The budget a call draws on, before its answer names it (`x-ratelimit-resource`). */
export function resourceOf(url: string | undefined): RateLimitResource {
  const path = (url ?? '').replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
  // Enterprise servers serve REST under /api/v3 and GraphQL at /api/graphql.
  if (/^(?:\/api\/v3)?\/search\//.test(path)) return 'search';
  if (/^(?:\/api)?\/graphql$/.test(path)) return 'graphql';
  return 'core';
}

function header(headers: Record<string, unknown> | undefined, name: string): string | null {
  const value = headers?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** The route without host or query, so messages name the call but never its cursor or base. */
function operationOf(options: { method?: string; url?: string }): string {
  const url = (options.url ?? '').replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
  return `${options.method ?? 'GET'} ${url}`;
}

/**
 * An Octokit for one target whose every request (pages included) is bounded in time and honours
 * GitHub's rate limits, each resource's budget apart (`x-ratelimit-resource`: a spent search
 * budget never holds back issue creation): once a primary limit is spent (`x-ratelimit-remaining:
 * 0`, or a 403/429 saying so) calls on that resource wait for `x-ratelimit-reset` when it is within
 * `maxRateLimitWaitMs`, and fail at once with `RateLimitExhausted` when it is further; a secondary
 * limit is waited out (`Retry-After`, else a minute) and retried, as are 5xx answers and lost
 * connections. Every call sends `X-GitHub-Api-Version`.
 *
 * The bound lives in the transport (Octokit's `request.fetch`), not in a hook: before-after-hook
 * binds one options object to every hook, so a hook that passes a modified copy on is ignored by
 * the hooks inside it (a signal or header added that way was lost). Hooks here change the options
 * object in place or pass it on untouched.
 */
export function githubClient(target: GithubTarget, options: GithubClientOptions): GithubClient {
  const clock = options.clock ?? realClock;
  const maxWaitMsOf = (resource: RateLimitResource): number => options.maxRateLimitWaitMsFor?.[resource] ?? options.maxRateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
  /** Per resource: until when its primary limit is spent (epoch ms). */
  const exhaustedUntil = new Map<RateLimitResource, number>();
  /** Records a spent budget from an answer's headers; true when the answer says it is spent. */
  const exhausted = (headers: Record<string, unknown> | undefined, requested: RateLimitResource): boolean => {
    if (header(headers, 'x-ratelimit-remaining') !== '0') return false;
    const resource = header(headers, 'x-ratelimit-resource') ?? requested;
    const reset = Number(header(headers, 'x-ratelimit-reset'));
    exhaustedUntil.set(resource, Number.isFinite(reset) && reset > 0 ? reset * 1000 : clock.now() + 60_000);
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
  const octokit = new AlertsOctokit({
    baseUrl: target.apiBase,
    auth: target.token,
    userAgent: 'gatehouse-sync',
    log: SILENT,
    // Read whole inside the bound: Octokit would turn a stalled or cut body into an empty list.
    request: { fetch: boundedFetch(bounds, { ...(options.transport ? { transport: options.transport } : {}), buffer: { maxBytes: MAX_ANSWER_BYTES } }) },
  });
  octokit.hook.before('request', (requestOptions) => {
    requestOptions.headers['x-github-api-version'] = API_VERSION;
  });
  octokit.hook.wrap('request', async (request, requestOptions) => {
    const operation = operationOf(requestOptions);
    const resource = resourceOf(requestOptions.url);
    const conditional = options.conditional;
    const method = (requestOptions.method ?? 'GET').toUpperCase();
    const key = conditional && method === 'GET' ? ConditionalAnswers.key(target.token, octokit.request.endpoint.parse(requestOptions).url) : undefined;
    const kept = key ? conditional!.get(key) : undefined;
    if (kept) requestOptions.headers['if-none-match'] = kept.etag;
    return retrying(
      async () => {
        // A 403/429 for a spent budget is not a failure of the call: it is made again after the reset, once.
        for (let waited = false; ; waited = true) {
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
            if (!(err instanceof RequestError) || !err.response) throw new TransportError(SERVICE, operation, transportFailure(err, bounds));
            const headers = err.response.headers as Record<string, unknown>;
            // Not modified: the kept answer, as it came (a 304 does not count against the primary limit).
            if (err.status === 304 && kept) {
              exhausted(headers, resource);
              conditional!.notModified++;
              return { status: kept.status, url: kept.url, headers: kept.headers, data: kept.data } as Awaited<ReturnType<typeof request>>;
            }
            const data = err.response.data as { message?: unknown } | undefined;
            const detail = typeof data?.message === 'string' ? data.message.slice(0, 300) : undefined;
            const retryAfter = header(headers, 'retry-after');
            const waitMs = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : undefined;
            if ((err.status === 403 || err.status === 429) && exhausted(headers, resource)) {
              if (!waited) continue;
              throw new RateLimitExhausted(target.server, new Date(exhaustedUntil.get(header(headers, 'x-ratelimit-resource') ?? resource)!), resource);
            }
            if ((err.status === 403 || err.status === 429) && (waitMs !== undefined || /secondary rate limit/i.test(detail ?? ''))) {
              throw new SecondaryRateLimit(SERVICE, operation, err.status, detail, waitMs ?? SECONDARY_DEFAULT_WAIT_MS);
            }
            throw new HttpError(SERVICE, operation, err.status, detail, waitMs);
          }
        }
      },
      options.retry,
      (error, retry, delayMs) => options.onRetry?.(operation, error, retry, delayMs),
      (error) => error instanceof SecondaryRateLimit || isTransient(error),
    );
  });
  return octokit;
}
