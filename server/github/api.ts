/**
 * GitHub's REST API as every part of Gatehouse speaks it: the version sent on every call, and
 * how an answer says a rate limit is spent (`Retry-After` itself is read by `http/retry.ts`).
 */

/** The REST API version Gatehouse is written against; sent on every call. */
export const GITHUB_API_VERSION = '2022-11-28';

type Headers = Readonly<Record<string, unknown>> | undefined;

function header(headers: Headers, name: string): string | undefined {
  const value = headers?.[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** The budget a primary rate limit counts (`x-ratelimit-resource`: core, search, graphql, …). */
export type RateLimitResource = 'core' | 'search' | 'graphql' | (string & {});

/** A call's path without host or query: what may be logged (never a cursor or a base), and what names its budget. */
export function pathOf(url: string | undefined): string {
  return (url ?? '').replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
}

/** The budget a call draws on, from its URL, before its answer names it. */
export function resourceOf(url: string | undefined): RateLimitResource {
  const path = pathOf(url);
  // Enterprise servers serve REST under /api/v3 and GraphQL at /api/graphql.
  if (/^(?:\/api\/v3)?\/search\//.test(path)) return 'search';
  if (/^(?:\/api)?\/graphql$/.test(path)) return 'graphql';
  return 'core';
}

/** A spent primary rate limit an answer reports: its budget and when it resets (epoch ms). */
export function spentRateLimit(headers: Headers): { readonly resource?: RateLimitResource; readonly resetAtMs?: number } | undefined {
  if (header(headers, 'x-ratelimit-remaining') !== '0') return undefined;
  const reset = Number(header(headers, 'x-ratelimit-reset'));
  const resource = header(headers, 'x-ratelimit-resource');
  return { ...(resource ? { resource } : {}), ...(Number.isFinite(reset) && reset > 0 ? { resetAtMs: reset * 1000 } : {}) };
}
