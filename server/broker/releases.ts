import pLimit from 'p-limit';
import type { Clock } from '../clock.js';
import { RELEASES_CRAWL_MS } from '../http/call-bounds.js';
import { sharedDeadline } from '../http/outbound.js';
import type { Logger } from '../logger.js';
import type { AppClients } from '../platform/clients.js';
import { PlatformError } from '../platform/errors.js';
import type { AppClient, InstallationClient, Release, Repository } from '../platform/github-app.js';
import { nonEmpty, withinGrant } from '../platform/permissions.js';
import type { KeyValueStore } from '../store/types.js';
import { appClientFor } from './platform.js';
import type { BrokerSettings } from './settings.js';
import { refuse } from '../errors.js';

/** How long an aggregate is served from the store before the next call crawls again. */
const RELEASES_CACHE_MS = 300_000;
const NAMESPACE = 'releases';
/** Latest-release calls in flight at once: fast enough, and far below the platform's secondary limits. */
const CONCURRENCY = 8;

export interface ReleaseView {
  readonly tag: string;
  readonly name: string;
  readonly published_at: string;
  readonly url: string;
  readonly draft: boolean;
  readonly prerelease: boolean;
}

export interface ReleasesAggregate {
  readonly generated_at: string;
  readonly repos: readonly { readonly repo: string; readonly latest: ReleaseView | null }[];
  readonly truncated: boolean;
  readonly cached: boolean;
}

export interface ReleasesDeps {
  readonly clients: AppClients;
  readonly clock: Clock;
  readonly keyValues: KeyValueStore;
  /** The whole crawl ends within this (default `RELEASES_CRAWL_MS`); each call has its own bound too. */
  readonly crawlMs?: number;
}

/** A repository, with the client of the installation token that reads it. */
type Target = Repository & { readonly client: InstallationClient };

const view = (r: Release): ReleaseView => ({
  tag: r.tag,
  name: r.name,
  published_at: r.publishedAt,
  url: r.url,
  draft: r.draft,
  prerelease: r.prerelease,
});

/**
 * `GET /releases`: the latest release of every repository of every installation of the app,
 * served from the store's cache when fresh. Concurrent cold calls share one crawl.
 */
export class ReleasesService {
  private readonly inflight = new Map<string, Promise<ReleasesAggregate>>();

  constructor(private readonly deps: ReleasesDeps) {}

  async aggregate(settings: BrokerSettings, log: Logger): Promise<ReleasesAggregate> {
    if (!settings.primary.ok) throw refuse('misconfigured', {}, { cause: settings.primary.error });
    if (!settings.releasesMaxRepos.ok) throw refuse('misconfigured', {}, { cause: settings.releasesMaxRepos.error });
    const app = appClientFor(this.deps.clients, settings.primary.value);
    const maxRepos = settings.releasesMaxRepos.value;
    const key = `${app.apiBase}|${app.credentials.appId}|${maxRepos}`;

    const cached = await this.cached(key, log);
    if (cached) return { ...cached, cached: true };

    let crawl = this.inflight.get(key);
    if (!crawl) {
      crawl = this.crawl(app, maxRepos, log).finally(() => this.inflight.delete(key));
      this.inflight.set(key, crawl);
    }
    const fresh = await crawl;
    await this.deps.keyValues
      .put(NAMESPACE, key, fresh, new Date(this.deps.clock.now() + RELEASES_CACHE_MS))
      .catch((err: unknown) => log.warn({ err }, 'releases aggregate not cached'));
    return fresh;
  }

  /** The cache is an optimisation: a store outage means a crawl, not a failure. */
  private async cached(key: string, log: Logger): Promise<ReleasesAggregate | undefined> {
    try {
      return (await this.deps.keyValues.get(NAMESPACE, key, new Date(this.deps.clock.now()))) as ReleasesAggregate | undefined;
    } catch (err) {
      log.warn({ err }, 'releases cache unreadable');
      return undefined;
    }
  }

  private async crawl(app: AppClient, maxRepos: number, log: Logger): Promise<ReleasesAggregate> {
    const clients: InstallationClient[] = [];
    const deadline = sharedDeadline(this.deps.crawlMs ?? RELEASES_CRAWL_MS);
    try {
      const { targets, truncated } = await this.repositories(app, maxRepos, clients, log, deadline.signal);
      const limit = pLimit(CONCURRENCY);
      const latest = await Promise.all(targets.map((t) => limit(() => t.client.latestRelease(t.owner, t.name, deadline.signal))));
      const repos = targets
        .map((t, i) => ({ repo: t.fullName, latest: latest[i] ? view(latest[i]) : null }))
        .sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
      log.info({ repositories: repos.length, truncated }, 'releases aggregated');
      return { generated_at: new Date(this.deps.clock.now()).toISOString(), repos, truncated, cached: false };
    } catch (err) {
      if (err instanceof PlatformError) throw refuse('releases_failed', { message: err.message }, { cause: err });
      throw err;
    } finally {
      deadline.clear();
      // Not awaited: the answer does not wait on clean-up (each revoke has its own bound, and an unrevoked token expires within the hour).
      void Promise.all(clients.map((c) => c.revoke().catch(() => {})));
    }
  }

  /** Every installation's repositories, up to the cap; one more repository beyond it means `truncated`. */
  private async repositories(
    app: AppClient,
    maxRepos: number,
    clients: InstallationClient[],
    log: Logger,
    signal: AbortSignal,
  ): Promise<{ targets: Target[]; truncated: boolean }> {
    const targets: Target[] = [];
    for await (const installation of app.installations(signal)) {
      if (installation.suspended) {
        log.info({ installation_id: installation.id }, 'suspended installation skipped');
        continue;
      }
      const { token } = await app.mint(installation.id, { permissions: nonEmpty(withinGrant({ contents: 'read' }, installation.permissions)) }, signal);
      const client = app.withToken(token);
      clients.push(client);
      for await (const repository of client.repositories(signal)) {
        if (targets.length >= maxRepos) return { targets, truncated: true };
        targets.push({ ...repository, client });
      }
    }
    return { targets, truncated: false };
  }
}
