import type { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { RequestError } from '@octokit/request-error';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { apiTransport } from '../http/api-transport.js';
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
  /** What carries the requests (tests); default the network, through `apiTransport`. */
  readonly transport?: Fetch;
  /**
   * A token (installation, user, PAT), or the app itself: auth-app's strategy, passed in by the
   * app's own client (`platform/github-app.ts`) so that clients without it do not bundle it.
   */
  readonly auth?: { readonly token: string } | { readonly strategy: typeof createAppAuth; readonly appId: string; readonly createJwt: CreateAppJwt };
  /**
   * Which of GitHub's redirects are followed. `none` (the brokers' app and installation calls): a
   * 3xx answer is a failure; a mint redirected elsewhere must not hand out what another host
   * answers. `same-origin` (the sync and issue push): a `GET` redirected within the API's own
   * origin is followed, at most 3 times, as GitHub answers a renamed or transferred repository
   * (`301` to `/repositories/{id}`); any other redirect is a failure. Either way no redirect
   * takes a request to another origin, nor re-sends a body.
   */
  readonly redirects: 'none' | 'same-origin';
}

/** The route without host or query: what a log line may name (never a cursor or a base). */
export function operationOf(options: { method?: string; url?: string }): string {
  return `${options.method ?? 'GET'} ${pathOf(options.url)}`;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_SAME_ORIGIN_REDIRECTS = 3;
const guarded = new WeakSet<Fetch>();

/**
 * `fetch` that never lets the transport follow a redirect (undici would re-send a `307`'s body to
 * any host, and drops only `Authorization` on the way); with `sameOrigin`, a `GET` redirected
 * within its own origin is followed here. Any other 3xx is handed back for the client to refuse.
 */
function withoutRedirects(fetch: Fetch, sameOrigin: boolean): Fetch {
  // A call made again (the sync's retries) passes through the hook again with the same options.
  if (guarded.has(fetch)) return fetch;
  const wrapped = (async (input: string | URL | Request, init: RequestInit = {}) => {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    for (let hop = 0; ; hop++) {
      const response = await fetch(url.href, { ...init, redirect: 'manual' });
      const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
      const next = location === null ? undefined : URL.parse(location, url.href);
      const method = (init.method ?? 'GET').toUpperCase();
      if (!sameOrigin || method !== 'GET' || !next || next.origin !== url.origin || hop === MAX_SAME_ORIGIN_REDIRECTS) return response;
      await response.body?.cancel().catch(() => undefined);
      url = next;
    }
  }) as Fetch;
  guarded.add(wrapped);
  return wrapped;
}

/**
 * The fetch of GitHub calls: over `apiTransport` (or a test's transport), each call bounded and its
 * answer read whole inside the bound, at most `MAX_ANSWER_BYTES` (Octokit would turn a stalled or
 * cut body into an empty answer). A call with a bound of its own (a commit's upload) passes one
 * of these as its `request.fetch`.
 */
export function githubFetch(bounds: CallBounds, transport?: Fetch): Fetch {
  return boundedFetch(bounds, { transport: transport ?? apiTransport(bounds.connectMs), maxBytes: MAX_ANSWER_BYTES });
}

/**
 * The one GitHub client factory: `@octokit/core` with the paginate plugin over one bounded fetch,
 * every call sending `X-GitHub-Api-Version` and following redirects only as `redirects` says
 * (any fetch a call brings, such as the commit's own bound, included). Each call is made once:
 * the brokers answer their callers, who retry; the sync wraps its calls in the one retry helper
 * (`http/retry.ts`). The app's own calls (installation lookups, mints) authenticate through
 * `@octokit/auth-app`'s request hook; an installation token is minted by an explicit request, so
 * nothing caches or shares one. (Why neither the retry nor the throttling plugin is used:
 * docs/development.md.)
 */
export function githubClient(options: GitHubClientOptions): GitHubClient {
  const { auth } = options;
  const sameOrigin = options.redirects === 'same-origin';
  const fetch = githubFetch(options.bounds, options.transport);
  const octokit = new GitHubOctokit({
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    log: SILENT,
    request: { fetch },
    ...(auth && 'token' in auth ? { auth: auth.token } : {}),
    ...(auth && 'appId' in auth ? { authStrategy: auth.strategy, auth: { appId: auth.appId, createJwt: auth.createJwt } } : {}),
  });
  // A `before` hook changes the options object every later hook and the request itself receive.
  octokit.hook.before('request', (request) => {
    request.headers['x-github-api-version'] = GITHUB_API_VERSION;
    request.request = { ...request.request, fetch: withoutRedirects((request.request?.fetch as Fetch | undefined) ?? fetch, sameOrigin) };
  });
  // Octokit takes a 3xx for a success (its body for the answer): a redirect not followed is a failure.
  octokit.hook.after('request', (response, request) => {
    if (response.status < 300 || response.status >= 400) return;
    const header = response.headers.location;
    const location = typeof header === 'string' && header !== '' ? URL.parse(header, response.url)?.origin : undefined;
    const message = `a redirect${location ? ` to ${location}` : ''}, not followed`;
    throw new RequestError(message, response.status, { request: octokit.request.endpoint.parse(request), response: { ...response, data: { message } } });
  });
  return octokit;
}
