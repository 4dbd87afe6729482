import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { RequestError } from '@octokit/request-error';
import { MAX_ANSWER_BYTES, syncCall } from '../../http/call-bounds.js';
import { boundedFetch, transportFailure, type Fetch } from '../../http/outbound.js';
import { HttpError, TransportError } from '../http/request.js';
import { isTransient, retrying, type RetryPolicy } from '../http/retry.js';
import type { GithubTarget } from './targets.js';

const AlertsOctokit = Octokit.plugin(paginateRest);
export type GithubClient = InstanceType<typeof AlertsOctokit>;

const SERVICE = 'GitHub';
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };
/** GitHub's advice when a secondary limit comes without `Retry-After`: wait at least a minute. */
const SECONDARY_DEFAULT_WAIT_MS = 60_000;

/** The primary rate limit is spent: no call is made until it resets. */
export class RateLimitExhausted extends Error {
  override readonly name = 'RateLimitExhausted';
  constructor(
    server: string,
    readonly resetAt: Date,
  ) {
    super(`${server} rate limit exhausted until ${resetAt.toISOString()}; not attempted`);
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
 * GitHub's rate limits: once the primary limit is spent (`x-ratelimit-remaining: 0`) it makes no
 * further call until the reset and fails fast instead; a secondary limit is waited out
 * (`Retry-After`, else a minute) and retried, as are 5xx answers and lost connections.
 *
 * The bound lives in the transport (Octokit's `request.fetch`), not in a hook: before-after-hook
 * binds one options object to every hook, so a hook that passes a modified copy on is ignored by
 * the hooks inside it (a signal or header added that way was lost). Hooks here change the options
 * object in place or pass it on untouched.
 */
export function githubClient(target: GithubTarget, options: GithubClientOptions): GithubClient {
  let exhaustedUntil = 0;
  const exhausted = (headers: Record<string, unknown> | undefined): boolean => {
    if (header(headers, 'x-ratelimit-remaining') !== '0') return false;
    const reset = Number(header(headers, 'x-ratelimit-reset'));
    exhaustedUntil = Number.isFinite(reset) && reset > 0 ? reset * 1000 : Date.now() + 60_000;
    return true;
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
    return retrying(
      async () => {
        if (Date.now() < exhaustedUntil) throw new RateLimitExhausted(target.server, new Date(exhaustedUntil));
        try {
          const response = await request(requestOptions);
          exhausted(response.headers as Record<string, unknown>);
          return response;
        } catch (err) {
          if (!(err instanceof RequestError) || !err.response) throw new TransportError(SERVICE, operation, transportFailure(err, bounds));
          const headers = err.response.headers as Record<string, unknown>;
          const data = err.response.data as { message?: unknown } | undefined;
          const detail = typeof data?.message === 'string' ? data.message.slice(0, 300) : undefined;
          const retryAfter = header(headers, 'retry-after');
          const waitMs = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : undefined;
          if ((err.status === 403 || err.status === 429) && exhausted(headers)) throw new RateLimitExhausted(target.server, new Date(exhaustedUntil));
          if ((err.status === 403 || err.status === 429) && (waitMs !== undefined || /secondary rate limit/i.test(detail ?? ''))) {
            throw new SecondaryRateLimit(SERVICE, operation, err.status, detail, waitMs ?? SECONDARY_DEFAULT_WAIT_MS);
          }
          throw new HttpError(SERVICE, operation, err.status, detail, waitMs);
        }
      },
      options.retry,
      (error, retry, delayMs) => options.onRetry?.(operation, error, retry, delayMs),
      (error) => error instanceof SecondaryRateLimit || isTransient(error),
    );
  });
  return octokit;
}
