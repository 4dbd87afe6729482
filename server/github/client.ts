import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { boundedFetch, type CallBounds, type Fetch } from '../http/outbound.js';
import { GITHUB_API_VERSION, resourceOf, type RateLimitResource } from './api.js';

const GitHubOctokit = Octokit.plugin(paginateRest, retry, throttling);
/** An Octokit made by `githubClient`: REST, GraphQL and pagination, with the policy it was given. */
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The app's JWT, signed by the caller (see `platform/app-jwt.ts` for why it is not auth-app's). */
export type CreateAppJwt = (appId: string, timeDifferenceSeconds?: number) => Promise<{ jwt: string; expiresAt: string }>;

/**
 * What a client does about failures and rate limits.
 * - `answer-caller`: nothing. A call is made once; a refusal, a rate limit included, goes back to
 *   whoever asked (the brokers answer their own callers, who retry).
 * - `wait`: a call that got no answer or a 5xx is made again up to `retries` times (1, 4, 9, 16 s
 *   apart); a primary or secondary rate limit is waited out when its wait is within
 *   `maxWaitMs(resource)` and retries are left, and fails otherwise.
 */
export type GitHubPolicy =
  | { readonly kind: 'answer-caller' }
  | {
      readonly kind: 'wait';
      readonly retries: number;
      readonly maxWaitMs: (resource: RateLimitResource) => number;
      /** Told before a rate limit is waited out. */
      readonly onWait?: (resource: RateLimitResource, waitMs: number, operation: string) => void;
    };

export interface GitHubClientOptions {
  /** `https://api.github.com`, or an Enterprise server's `https://HOST/api/v3`. */
  readonly baseUrl: string;
  readonly userAgent: string;
  /** Each call's connect and whole-exchange bounds; answers are read whole, at most `MAX_ANSWER_BYTES`. */
  readonly bounds: CallBounds;
  /** What carries the requests (tests); default the network. */
  readonly transport?: Fetch;
  /** A token (installation, user, PAT), or the app itself (app JWT; installation tokens minted by the caller). */
  readonly auth?: { readonly token: string } | { readonly appId: string; readonly createJwt: CreateAppJwt };
  readonly policy: GitHubPolicy;
}

/** The route without host or query: what a log line may name (never a cursor or a base). */
export function operationOf(options: { method?: string; url?: string }): string {
  return `${options.method ?? 'GET'} ${(options.url ?? '').replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '')}`;
}

/**
 * The one GitHub client factory: `@octokit/core` with the paginate, retry and throttling
 * plugins over one bounded fetch, every call sending `X-GitHub-Api-Version`. The app's own calls
 * (installation lookups, mints) authenticate through `@octokit/auth-app`'s request hook; an
 * installation token is minted by an explicit request, so nothing caches or shares one.
 */
export function githubClient(options: GitHubClientOptions): GitHubClient {
  const { policy } = options;
  const waiting = policy.kind === 'wait' ? policy : undefined;
  const rateLimited = (retryAfterSeconds: number, request: { method?: string; url?: string }, _octokit: unknown, retryCount: number): boolean => {
    if (!waiting || retryCount >= waiting.retries) return false;
    const resource = resourceOf(request.url);
    const waitMs = retryAfterSeconds * 1000;
    if (waitMs > waiting.maxWaitMs(resource)) return false;
    waiting.onWait?.(resource, waitMs, operationOf(request));
    return true;
  };
  const auth = options.auth;
  const octokit = new GitHubOctokit({
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    log: SILENT,
    // Read whole inside the bound: Octokit would turn a stalled or cut body into an empty answer.
    request: { fetch: boundedFetch(options.bounds, { ...(options.transport ? { transport: options.transport } : {}), buffer: { maxBytes: MAX_ANSWER_BYTES } }) },
    ...(auth && 'token' in auth ? { auth: auth.token } : {}),
    ...(auth && 'appId' in auth ? { authStrategy: createAppAuth, auth: { appId: auth.appId, createJwt: auth.createJwt } } : {}),
    // 429 and rate-limited 403s are the throttling plugin's; the retry plugin takes the rest.
    retry: waiting ? { retries: waiting.retries, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] } : { enabled: false },
    throttle: waiting ? { onRateLimit: rateLimited, onSecondaryRateLimit: rateLimited } : { enabled: false },
  });
  // A `before` hook changes the options object every later hook and the request itself receive.
  octokit.hook.before('request', (request) => {
    request.headers['x-github-api-version'] = GITHUB_API_VERSION;
  });
  return octokit;
}
