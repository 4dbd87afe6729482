import { LRUCache } from 'lru-cache';
import type { AppClient, Installation } from './github-app.js';
import { parseFullName } from '../github/identifiers.js';

export interface InstallationCacheOptions {
  /** Short: an uninstalled app is noticed within this long (a failed mint also evicts). */
  readonly ttlMs?: number;
  /**
   * A lookup asked for with less than this left of its life is answered from the cache and
   * looked up again in the background (one lookup in flight), so a repository in steady use never
   * waits for its lookup when the entry would expire.
   */
  readonly refreshAheadMs?: number;
  /** How long "not installed" is remembered for a repository. */
  readonly notInstalledTtlMs?: number;
  /** The cache's time source (tests); default `performance`. */
  readonly perf?: { now(): number };
}

/** The cached answer "the app is not installed on this repository". */
const NOT_INSTALLED = Object.freeze({ notInstalled: true as const });
type Entry = Installation | typeof NOT_INSTALLED;

/**
 * Installation lookups, cached per (API base, app, repository) so a warm `/token` makes one
 * platform call (the mint). Bounded in size and age; concurrent lookups of one key share one call.
 * "Not installed" is remembered for a short while too: a token of a repository without the app,
 * replayed, would otherwise make a platform lookup per request and spend the app's API budget.
 * An installation webhook event forgets the repositories it names, so a fresh installation
 * works at once when the app receives its events.
 */
export class InstallationDirectory {
  private readonly cache: LRUCache<string, Entry, () => Promise<Installation | null>>;
  private readonly notInstalledTtlMs: number;
  private readonly refreshAheadMs: number;

  constructor(options: InstallationCacheOptions = {}) {
    this.notInstalledTtlMs = options.notInstalledTtlMs ?? 30_000;
    const ttl = options.ttlMs ?? 60_000;
    this.refreshAheadMs = Math.min(options.refreshAheadMs ?? 15_000, ttl / 2);
    this.cache = new LRUCache({
      max: 10_000,
      ttl,
      ...(options.perf ? { perf: options.perf } : {}),
      fetchMethod: async (_key, _stale, { context, options: entry }) => {
        const found = await context();
        if (found) return found;
        entry.ttl = this.notInstalledTtlMs;
        return NOT_INSTALLED;
      },
    });
  }

  forRepository(app: AppClient, owner: string, repo: string): Promise<Installation | null> | Installation | null {
    return this.lookup(repositoryKey(app.apiBase, app.credentials.appId, owner, repo), () => app.repositoryInstallation(owner, repo));
  }

  byId(app: AppClient, installationId: number): Promise<Installation | null> | Installation | null {
    return this.lookup(installationKey(app.apiBase, app.credentials.appId, installationId), () => app.installation(installationId));
  }

  /**
   * A cached answer at once (refreshed in the background when it nears its end); a lookup shared
   * by every caller waiting for it otherwise.
   */
  private lookup(key: string, call: () => Promise<Installation | null>): Promise<Installation | null> | Installation | null {
    const cached = this.cache.get(key);
    if (cached) {
      // lru-cache keeps one fetch per key in flight, and answers `get` from the old entry meanwhile;
      // a refresh that fails leaves that entry to serve out its life (the next request tries again).
      if (this.cache.getRemainingTTL(key) < this.refreshAheadMs) this.cache.fetch(key, { context: call, forceRefresh: true, noDeleteOnFetchRejection: true }).catch(() => undefined);
      return installed(cached);
    }
    return this.cache.fetch(key, { context: call }).then(installed);
  }

  /** Drops a cached repository lookup (the installation refused a mint for it, or changed). */
  forget(app: AppClient, owner: string, repo: string): void {
    this.cache.delete(repositoryKey(app.apiBase, app.credentials.appId, owner, repo));
  }

  /**
   * Drops what is cached for an installation and the `owner/name` repositories an event named.
   * Takes the API base and app id, not a client: the webhook has no use for one, and building it
   * would parse the app key (and fail when it is unusable) only to name cache entries.
   */
  forgetInstallation(apiBase: string, appId: string, installationId: number | undefined, repositories: readonly string[]): void {
    if (installationId !== undefined) this.cache.delete(installationKey(apiBase, appId, installationId));
    for (const fullName of repositories) {
      const pair = parseFullName(fullName);
      if (pair) this.cache.delete(repositoryKey(apiBase, appId, pair.owner, pair.name));
    }
  }
}

/** Cache keys: per API base and app, so two platforms or apps never share an answer. */
function repositoryKey(apiBase: string, appId: string, owner: string, repo: string): string {
  return `${apiBase}\n${appId}\n${`repo:${owner}/${repo}`.toLowerCase()}`;
}

function installationKey(apiBase: string, appId: string, installationId: number): string {
  return `${apiBase}\n${appId}\nid:${installationId}`;
}

function installed(entry: Entry | undefined): Installation | null {
  return !entry || 'notInstalled' in entry ? null : entry;
}
