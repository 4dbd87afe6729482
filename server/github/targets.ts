import { jsonValue } from '../http/json.js';
import { isOwnerLogin } from './identifiers.js';
import { secureOrLoopback } from '../http/loopback.js';

/** One GitHub instance to read alerts from: the public platform or an enterprise server. */
export interface GithubTarget {
  /** The web address as configured, e.g. `https://github.com`. */
  readonly server: string;
  /** REST API base without a trailing slash. */
  readonly apiBase: string;
  readonly kind: 'public' | 'enterprise';
  readonly owners: readonly string[];
  readonly token: string;
}

/** The REST API base of a server address: api.github.com, api.<tenant>.ghe.com, or <server>/api/v3. */
export function apiBaseOf(server: URL): { apiBase: string; kind: 'public' | 'enterprise' } {
  const host = server.hostname.toLowerCase();
  if (host === 'github.com' || host === 'www.github.com' || host === 'api.github.com') return { apiBase: 'https://api.github.com', kind: 'public' };
  if (host.endsWith('.ghe.com')) return { apiBase: `https://${host.startsWith('api.') ? host : `api.${host}`}`, kind: 'enterprise' };
  const path = server.pathname.replace(/\/+$/, '');
  return { apiBase: `${server.origin}${path.endsWith('/api/v3') ? path : `${path}/api/v3`}`, kind: 'enterprise' };
}

/**
 * `GITHUB_TARGETS`: a JSON list of `{server, owners, token}`. Problems name the entry and field,
 * never a value (the setting holds tokens), and the JSON parser's own message is not used
 * because it quotes the input.
 */
export function parseGithubTargets(raw: string): { targets: GithubTarget[] } | { problems: string[] } {
  const value = jsonValue(raw);
  if (value === undefined) return { problems: ['GITHUB_TARGETS is not valid JSON'] };
  if (!Array.isArray(value) || value.length === 0) return { problems: ['GITHUB_TARGETS must be a non-empty JSON list of {"server","owners","token"}'] };
  const problems: string[] = [];
  const targets: GithubTarget[] = [];
  value.forEach((entry: unknown, i) => {
    const at = `GITHUB_TARGETS[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object with server, owners and token`);
      return;
    }
    const { server, owners, token, ...rest } = entry as Record<string, unknown>;
    for (const key of Object.keys(rest)) problems.push(`${at}.${key} is not a known field`);
    const url = typeof server === 'string' ? (URL.parse(server) ?? undefined) : undefined;
    if (!url || url.username || url.password || url.search || url.hash) problems.push(`${at}.server must be the instance's https URL, e.g. https://github.com`);
    else if (!secureOrLoopback(url)) problems.push(`${at}.server must use https (the token travels with every call)`);
    if (!Array.isArray(owners) || owners.length === 0 || !owners.every(isOwnerLogin)) {
      problems.push(`${at}.owners must be a non-empty list of organisation or user names`);
    }
    if (typeof token !== 'string' || token.trim() === '' || /\s/.test(token.trim())) problems.push(`${at}.token must be a non-empty token`);
    if (problems.length > 0 || !url) return;
    targets.push({ server: url.href.replace(/\/+$/, ''), ...apiBaseOf(url), owners: [...new Set(owners as string[])], token: (token as string).trim() });
  });
  if (problems.length > 0) return { problems };
  // The public platform first: issue push resolves repositories in this order.
  return { targets: [...targets.filter((t) => t.kind === 'public'), ...targets.filter((t) => t.kind === 'enterprise')] };
}

/** Whether the target lists the owner (GitHub compares logins without case). */
export function listsOwner(target: Pick<GithubTarget, 'owners'>, owner: string): boolean {
  return target.owners.some((o) => o.toLowerCase() === owner.toLowerCase());
}
