import type { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { boundedFetch, type CallBounds, type Fetch } from '../http/outbound.js';
import { GITHUB_API_VERSION, pathOf } from './api.js';

const GitHubOctokit = Octokit.plugin(paginateRest);
/** An Octokit made by `githubClient`: REST, GraphQL and pagination. */
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The app's JWT, signed by the caller (see `platform/app-jwt.ts` for why it is not auth-app's). */
export type CreateAppJwt = (appId: string, timeDifferenceSeconds?: number) => Promise<{ jwt: string; expiresAt: string }>;

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
}

/** The route without host or query: what a log line may name (never a cursor or a base). */
export function operationOf(options: { method?: string; url?: string }): string {
  return `${options.method ?? 'GET'} ${pathOf(options.url)}`;
}

/**
 * The one GitHub client factory: `@octokit/core` with the paginate plugin over one bounded fetch,
 * every call sending `X-GitHub-Api-Version`. Each call is made once: the brokers answer their
 * callers, who retry; the sync wraps its calls in the one retry helper (`http/retry.ts`). The
 * app's own calls (installation lookups, mints) authenticate through `@octokit/auth-app`'s
 * request hook; an installation token is minted by an explicit request, so nothing caches or
 * shares one. (Why neither the retry nor the throttling plugin is used: docs/development.md.)
 */
export function githubClient(options: GitHubClientOptions): GitHubClient {
  const { auth } = options;
  const octokit = new GitHubOctokit({
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    log: SILENT,
    // Read whole inside the bound: Octokit would turn a stalled or cut body into an empty answer.
    request: { fetch: boundedFetch(options.bounds, { ...(options.transport ? { transport: options.transport } : {}), buffer: { maxBytes: MAX_ANSWER_BYTES } }) },
    ...(auth && 'token' in auth ? { auth: auth.token } : {}),
    ...(auth && 'appId' in auth ? { authStrategy: auth.strategy, auth: { appId: auth.appId, createJwt: auth.createJwt } } : {}),
  });
  // A `before` hook changes the options object every later hook and the request itself receive.
  octokit.hook.before('request', (request) => {
    request.headers['x-github-api-version'] = GITHUB_API_VERSION;
  });
  return octokit;
}
