import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { READINESS_PROBE } from '../../http/call-bounds.js';
import { apiServer } from '../../http/client-errors.js';
import type { Logger } from '../../logger.js';
import type { Timers, WaitingClock } from '../../clock.js';
import type { SyncOptions } from '../options.js';
import type { Connector } from '../connector.js';
import { CONNECTORS } from '../connectors.js';
import { DefectDojoClient } from '../defectdojo/client.js';
import { rateLimitedClient } from '../../github/rate-limited-client.js';
import type { GitHubClient } from '../../github/client.js';
import { ConditionalAnswers } from '../../github/conditional.js';
import type { GithubTarget } from '../../github/targets.js';
import { SYNC_RETRY, type RetryPolicy } from '../../http/retry.js';
import { PacerRegistry } from '../../issues/pacer.js';
import { DEFAULT_PUSH_LOCK_WAIT } from '../../issues/push-locks.js';
import { pushIssues } from '../../issues/push.js';
import { leveledProgress } from '../report.js';
import { missingDefectDojo, SyncConfigError, type LoadedConfig, type SyncConfig } from '../config.js';
import { defectDojoClientFor, runConnector } from '../run.js';
import { createSyncApp } from './app.js';
import type { SourceLocks } from './locks.js';
import { SyncMetrics } from './metrics.js';
import { Readiness } from './readiness.js';
import { parseSchedule } from './schedule.js';
import { Scheduler } from './scheduler.js';
import { SyncService, type SyncServiceDeps } from './service.js';

/** The configuration as loaded, or every problem that keeps it from running. */
export type ServiceConfig =
  | { readonly loaded: LoadedConfig; readonly problems: readonly []; readonly mode: SyncConfig['mode'] }
  | { readonly loaded?: undefined; readonly problems: readonly string[]; readonly mode?: SyncConfig['mode'] };

/** Loads and checks everything the enabled sources need; never throws for a configuration problem. */
export function checkServiceConfig(load: () => LoadedConfig): ServiceConfig {
  let loaded: LoadedConfig;
  try {
    loaded = load();
  } catch (err) {
    if (err instanceof SyncConfigError) return { problems: err.problems, ...(err.mode ? { mode: err.mode } : {}) };
    throw err;
  }
  const enabled = enabledConnectors(loaded);
  const problems = [
    ...missingDefectDojo(loaded),
    ...enabled.flatMap((c) => c.missing(loaded)),
    ...(enabled.length === 0 ? ['no source is enabled (sources.<name>.enabled)'] : []),
  ];
  return problems.length > 0 ? { problems, mode: loaded.config.mode } : { loaded, problems: [], mode: loaded.config.mode };
}

export function enabledConnectors({ config }: LoadedConfig): Connector[] {
  return CONNECTORS.filter((c) => config.sources[c.source].enabled);
}

export interface SyncServiceParts {
  readonly config: ServiceConfig;
  readonly options: SyncOptions;
  readonly locks: SourceLocks;
  /** `serviceLogger` (serve.ts): it scrubs the secrets from every line, progress lines included. */
  readonly logger: Logger;
  readonly timers: Timers;
  /** Waits for GitHub (pacing between writes, rate-limit resets); tests pass a clock that does not wait. */
  readonly pacerClock: WaitingClock;
  readonly version: string;
  readonly triggerToken?: string;
  readonly retry?: Partial<RetryPolicy>;
  readonly metrics?: SyncMetrics;
}

export interface Assembled {
  readonly service?: SyncService;
  readonly readiness: Readiness;
  readonly metrics: SyncMetrics;
  readonly scheduler: Scheduler;
  /** Whether issue push runs after each run (GITHUB_TARGETS set and github.maxIssuesPerRun above 0). */
  readonly issuePush: boolean;
  /** Arms one timer per enabled source (mode deployment). */
  schedule(): void;
}

/**
 * Issue push after a run, for the products it synced; undefined when it is off (no
 * `GITHUB_TARGETS`, or `github.maxIssuesPerRun` 0). The pacers and GitHub clients live as long as
 * the service, so GitHub's budgets (content creation, and each rate-limit resource) span runs and
 * sources; pushes exclude each other per product and repository through the runs' locks.
 */
function issuePushFor(loaded: LoadedConfig, defectDojo: DefectDojoClient, parts: SyncServiceParts, retry: RetryPolicy, conditional: ConditionalAnswers): SyncServiceDeps['issuePush'] {
  const { config, secrets } = loaded;
  const targets = secrets.githubTargets;
  if (targets === undefined || config.github.maxIssuesPerRun === 0) return undefined;
  const pacers = new PacerRegistry(parts.pacerClock);
  const clients = new Map<GithubTarget, GitHubClient>();
  const clientFor = (target: GithubTarget): GitHubClient => {
    // A spent search budget is not waited for: the push lists the repository's issues instead.
    if (!clients.has(target)) clients.set(target, rateLimitedClient(target, { timeoutMs: parts.options.timeoutMs, retry, maxRateLimitWaitMsFor: { search: 0 }, conditional, clock: parts.pacerClock }));
    return clients.get(target)!;
  };
  // The service's own timers, not the real clock: whatever time the service was given.
  const lockClock: WaitingClock = { now: () => parts.timers.now(), sleep: (ms) => new Promise<void>((resolve) => void parts.timers.setTimeout(resolve, ms)) };
  return async (report, log) => {
    const products = report.items.filter((i) => i.status === 'synced').map((i) => i.product);
    const outcome = await pushIssues(products, {
      defectDojo,
      defectDojoUrl: config.defectdojo.url!,
      targets,
      clientFor,
      pacersFor: (target) => pacers.for(target),
      locks: parts.locks,
      lockWait: { clock: lockClock, ...DEFAULT_PUSH_LOCK_WAIT },
      minSeverity: config.github.minSeverity,
      maxIssuesPerRun: config.github.maxIssuesPerRun,
      retry,
      log,
    });
    log[outcome.failed > 0 ? 'warn' : 'info'](
      { issues: outcome },
      `issue push: ${outcome.opened} opened, ${outcome.relinked} relinked, ${outcome.closed} closed, ${outcome.reopened} reopened, ${outcome.keptClosed} kept closed (closed by hand), ${outcome.failed} failed, ${outcome.deferred} deferred, ${outcome.unresolved} without a repository, ${outcome.outOfScope} out of scope (skipped)`,
    );
    return outcome;
  };
}

/** Builds the service from its parts: clients, issue push, runs, readiness, metrics, scheduler. */
export function assemble(parts: SyncServiceParts): Assembled {
  const metrics = parts.metrics ?? new SyncMetrics();
  const scheduler = new Scheduler(parts.timers);
  const { loaded } = parts.config;
  if (!loaded) {
    const readiness = new Readiness({ configProblems: parts.config.problems, timers: parts.timers });
    return { readiness, metrics, scheduler, issuePush: false, schedule: () => undefined };
  }
  const { config } = loaded;
  const retry: RetryPolicy = { ...SYNC_RETRY, ...parts.retry, retries: parts.options.retries };
  const defectDojo = defectDojoClientFor(loaded, parts.options);
  const readiness = new Readiness({ configProblems: [], probe: () => defectDojo.ping(READINESS_PROBE.totalMs), timers: parts.timers });
  // GitHub answers with ETags, for every run and push of the process: an unchanged list costs no rate limit.
  const conditional = new ConditionalAnswers();
  const issuePush = issuePushFor(loaded, defectDojo, parts, retry, conditional);
  const connectors = enabledConnectors(loaded);
  metrics.sourcesEnabled(
    connectors.map((c) => c.source),
    new Date(parts.timers.now()),
  );
  const service = new SyncService({
    connectors,
    locks: parts.locks,
    metrics,
    logger: parts.logger,
    timers: parts.timers,
    onDefectDojoAnswer: () => readiness.defectDojoAnswered(),
    runSource: (connector, log, scope) =>
      runConnector(
        connector,
        loaded,
        parts.options,
        leveledProgress(connector.source, connector.noun, { info: (line) => log.info(line), warn: (line) => log.warn(line) }),
        retry,
        { conditional, ...(scope ? { scope: scope.items } : {}) },
      ),
    ...(issuePush ? { issuePush } : {}),
  });
  const schedule = () => {
    for (const source of service.sources) {
      scheduler.add(source, parseSchedule(config.schedule[source]), () => {
        service.start(source, 'schedule').then(
          (answer) => {
            if (answer.outcome === 'busy') parts.logger.warn({ source }, 'scheduled run skipped: the previous run of this source is still in progress');
          },
          (err: unknown) => {
            metrics.errorsSeen(1);
            parts.logger.error({ source, err: err instanceof Error ? err.message : String(err) }, 'scheduled run could not start');
          },
        );
      });
    }
  };
  return { service, readiness, metrics, scheduler, issuePush: issuePush !== undefined, schedule };
}

export interface Listening {
  readonly server: Server;
  readonly port: number;
}

/** Serves the HTTP surface of an assembled service. */
export async function listenSyncApp(
  assembled: Assembled,
  parts: Pick<SyncServiceParts, 'logger' | 'version' | 'triggerToken'> & { readonly webhookSecret?: string },
  port: number,
  host?: string,
): Promise<Listening> {
  const app = createSyncApp({
    ...(assembled.service ? { service: assembled.service } : {}),
    readiness: assembled.readiness,
    metrics: assembled.metrics,
    logger: parts.logger,
    version: parts.version,
    ...(parts.triggerToken ? { triggerToken: parts.triggerToken } : {}),
    ...(parts.webhookSecret ? { webhookSecret: parts.webhookSecret } : {}),
  });
  const server = apiServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, ...(host ? { host } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}
