import { HttpClient } from '@actions/http-client';
import { ACTION_CALLS, type ActionCall } from '../../server/http/call-bounds.js';
import { TransportError } from '../../server/http/call-errors.js';
import { boundedFetch, networkTransport, type CallBounds, type Fetch } from '../../server/http/outbound.js';

/** An answer, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export interface CallInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Default `error`: a token is never sent on to another address by a redirect. */
  readonly redirect?: 'error' | 'follow';
}

/**
 * How the actions talk HTTP: each call named, and bounded by that name's bounds. A call that got
 * no answer throws a `TransportError`; callers read it, and Octokit's failures, with `callFailure`.
 */
export interface ActionHttp {
  call(name: ActionCall, url: string, init?: CallInit): Promise<Answer>;
  /** The bounded, proxy-aware fetch of one call, for a client that makes its own requests (Octokit). */
  fetch(name: ActionCall): Fetch;
  /** The User-Agent the action's calls send. */
  readonly userAgent: string;
}

/** Answers the actions read are small JSON documents. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * The runner's proxy settings (`https_proxy`, `no_proxy`, loopback never proxied), read the way
 * @actions/http-client reads them, so self-hosted runners behind a proxy keep working.
 */
function runnerProxy(): (url: URL) => ReturnType<HttpClient['getAgentDispatcher']> {
  const client = new HttpClient('gatehouse');
  return (url) => client.getAgentDispatcher(url.href);
}

/**
 * The actions' HTTP client. Every call has a connection bound and a whole-exchange bound (headers
 * and body) from `ACTION_CALLS`; `bounds` overrides some (tests), `transport` replaces the network.
 */
export function actionHttp(options: { userAgent?: string; transport?: Fetch; bounds?: Partial<Record<ActionCall, CallBounds>> } = {}): ActionHttp {
  // GitHub's API refuses requests without a User-Agent.
  const userAgent = options.userAgent ?? 'gatehouse';
  const proxy = runnerProxy();
  const fetchFor = (name: ActionCall): Fetch => {
    const bounds = options.bounds?.[name] ?? ACTION_CALLS[name];
    const fetch = boundedFetch(bounds, { transport: options.transport ?? networkTransport(bounds.connectMs, proxy), maxBytes: MAX_ANSWER_BYTES });
    // A token is never sent on to another address by a redirect, unless the caller asks for it.
    return ((input, init = {}) => fetch(input, { ...init, redirect: init.redirect ?? 'error' })) as Fetch;
  };
  return {
    userAgent,
    fetch: fetchFor,
    async call(name, url, init = {}) {
      const fetch = fetchFor(name);
      let response: Response;
      try {
        response = await fetch(url, { method: init.method ?? 'GET', headers: { 'user-agent': userAgent, ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}), ...(init.redirect ? { redirect: init.redirect } : {}) });
      } catch (err) {
        throw TransportError.of(userAgent, name, err);
      }
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  };
}
