import type { createAppAuth } from '@octokit/auth-app';
import { Octokit, type OctokitOptions } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { boundedFetch, type CallBounds, type Fetch } from '../http/outbound.js';
import { GITHUB_API_VERSION, pathOf } from './api.js';

/** Not retried: answers that would be the same again, and rate limits (429; the caller's policy). */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];

/** Told of each failed attempt the retry plugin is about to make again, and of its wait. */
type OnRetry = (operation: string, error: Error, retry: number, delayMs: number) => void;

/**
 * Reports the retry plugin's retries. Registered before it, so its error hook sees every attempt;
 * the plugin waits `(retry + 1)² × base` (its `retryAfterBaseValue`) before attempt `retry + 1`.
 */
function retryReport(octokit: Octokit, options: OctokitOptions): void {
  const policy = (options as { retryReport?: { retries: number; baseDelayMs: number; onRetry: OnRetry } }).retryReport;
  if (!policy) return;
  octokit.hook.error('request', (error, request) => {
    const status = (error as { status?: number }).status ?? 500;
    const done = Number((request.request as { retryCount?: number } | undefined)?.retryCount ?? 0);
    if (status >= 400 && !DO_NOT_RETRY.includes(status) && done < policy.retries) {
      policy.onRetry(operationOf(request), error, done + 1, (done + 1) ** 2 * policy.baseDelayMs);
    }
    throw error;
  });
}

const GitHubOctokit = Octokit.plugin(paginateRest, retryReport, retry);
/** An Octokit made by `githubClient`: REST, GraphQL and pagination, with the policy it was given. */
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The app's JWT, signed by the caller (see `platform/app-jwt.ts` for why it is not auth-app's). */
export type CreateAppJwt = (appId: string, timeDifferenceSeconds?: number) => Promise<{ jwt: string; expiresAt: string }>;

/**
 * What a client does when a call fails.
 * - `answer-caller`: nothing. A call is made once; a refusal, a rate limit included, goes back to
 *   whoever asked (the brokers answer their own callers, who retry).
 * - `retry`: a call that got no answer or a 5xx is made again up to `retries` times, the retry
 *   plugin waiting `(n + 1)² × baseDelayMs` before retry n + 1. Rate limits are not retried here:
 *   the caller's own policy waits for them (`sync/github/client.ts`).
 */
export type GitHubPolicy =
  | { readonly kind: 'answer-caller' }
  | { readonly kind: 'retry'; readonly retries: number; readonly baseDelayMs: number; readonly onRetry?: OnRetry };

export interface GitHubClientOptions {
  /** `https://api.github.com`, or an Enterprise server's `https://HOST/api/v3`. */
  readonly baseUrl: string;
  readonly userAgent: string;
  /** Each call's connect and whole-exchange bounds; answers are read whole, at most `MAX_ANSWER_BYTES`. */
  readonly bounds: CallBounds;
  /** What carries the requests (tests); default the network. */
  readonly transport?: Fetch;
  /**
   * A token (installation, user, PAT), or the app itself: auth-app's strategy, passed in by the
   * app's own client (`platform/github-app.ts`) so that clients without it do not bundle it.
   */
  readonly auth?: { readonly token: string } | { readonly strategy: typeof createAppAuth; readonly appId: string; readonly createJwt: CreateAppJwt };
  readonly policy: GitHubPolicy;
}

/** The route without host or query: what a log line may name (never a cursor or a base). */
export function operationOf(options: { method?: string; url?: string }): string {
  return `${options.method ?? 'GET'} ${pathOf(options.url)}`;
}

/**
 * The one GitHub client factory: `@octokit/core` with the paginate and retry plugins over one
 * bounded fetch, every call sending `X-GitHub-Api-Version`. The app's own calls (installation
 * lookups, mints) authenticate through `@octokit/auth-app`'s request hook; an installation token
 * is minted by an explicit request, so nothing caches or shares one. (Why the throttling plugin
 * is not among the plugins: docs/development.md.)
 */
export function githubClient(options: GitHubClientOptions): GitHubClient {
  const { policy, auth } = options;
  const retrying = policy.kind === 'retry' ? policy : undefined;
  const octokit = new GitHubOctokit({
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    log: SILENT,
    // Read whole inside the bound: Octokit would turn a stalled or cut body into an empty answer.
    request: { fetch: boundedFetch(options.bounds, { ...(options.transport ? { transport: options.transport } : {}), buffer: { maxBytes: MAX_ANSWER_BYTES } }) },
    ...(auth && 'token' in auth ? { auth: auth.token } : {}),
    ...(auth && 'appId' in auth ? { authStrategy: auth.strategy, auth: { appId: auth.appId, createJwt: auth.createJwt } } : {}),
    retry: retrying ? { retries: retrying.retries, retryAfterBaseValue: retrying.baseDelayMs, doNotRetry: DO_NOT_RETRY } : { enabled: false },
    ...(retrying?.onRetry ? { retryReport: { retries: retrying.retries, baseDelayMs: retrying.baseDelayMs, onRetry: retrying.onRetry } } : {}),
  });
  // A `before` hook changes the options object every later hook and the request itself receive.
  octokit.hook.before('request', (request) => {
    request.headers['x-github-api-version'] = GITHUB_API_VERSION;
  });
  return octokit;
}
