import { LRUCache } from 'lru-cache';
import type { AppClient, Installation } from './github-app.js';

export interface InstallationCacheOptions {
  /** Short: an uninstalled app is noticed within this long (a failed mint also evicts). */
  readonly ttlMs?: number;
  readonly maxEntries?: number;
}

/**
 * Installation lookups, cached per (API base, app, repository) so a warm `/token` makes one
 * platform call (the mint). Bounded in size and age; concurrent lookups of one key share one call;
 * "not installed" is never cached, so a fresh installation works at once.
 */
export class InstallationDirectory {
  private readonly cache: LRUCache<string, Installation, () => Promise<Installation | null>>;

  constructor(options: InstallationCacheOptions = {}) {
    this.cache = new LRUCache({
      max: options.maxEntries ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      fetchMethod: async (_key, _stale, { context }) => (await context()) ?? undefined,
    });
  }

  async forRepository(app: AppClient, owner: string, repo: string): Promise<Installation | null> {
    const key = this.key(app, `repo:${owner}/${repo}`.toLowerCase());
    return (await this.cache.fetch(key, { context: () => app.repositoryInstallation(owner, repo) })) ?? null;
  }

  async byId(app: AppClient, installationId: number): Promise<Installation | null> {
    const key = this.key(app, `id:${installationId}`);
    return (await this.cache.fetch(key, { context: () => app.installation(installationId) })) ?? null;
  }

  /** Drops a cached repository lookup (the installation refused a mint for it). */
  forget(app: AppClient, owner: string, repo: string): void {
    this.cache.delete(this.key(app, `repo:${owner}/${repo}`.toLowerCase()));
  }

  private key(app: AppClient, what: string): string {
    return `${app.apiBase}\n${app.credentials.appId}\n${what}`;
  }
}
