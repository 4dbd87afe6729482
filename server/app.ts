import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import express from 'express';
import { KeySetRegistry } from './auth/key-sets.js';
import { OidcVerifier } from './auth/verifier.js';
import { systemClock, type Clock } from './clock.js';
import type { Env } from './config-error.js';
import { auditRoutes } from './audit/routes.js';
import { auditSettings } from './audit/settings.js';
import { TokenAudit } from './audit/token-audit.js';
import { KeySetSnapshots } from './broker/key-set-snapshots.js';
import { ReleasesService } from './broker/releases.js';
import { brokerRoutes } from './broker/routes.js';
import { brokerSettings } from './broker/settings.js';
import { UserGitHub } from './console/github-user.js';
import { GitHubOAuth } from './console/oauth.js';
import { consoleRoutes } from './console/routes.js';
import { ConsoleSessions } from './console/sessions.js';
import { consoleSettings, type ConsoleSettings } from './console/settings.js';
import { healthRoutes } from './health/routes.js';
import { apiHeaders } from './http/api-headers.js';
import { backendBounds, type BackendBounds } from './http/call-bounds.js';
import { errorHandler } from './http/error-handler.js';
import { settingsOrMisconfigured } from './errors.js';
import { notFound } from './http/errors.js';
import { requestLogging } from './http/request-logging.js';
import { createChatSink } from './ledger/chat-sink.js';
import { ledgerRoutes } from './ledger/routes.js';
import { ledgerSettings } from './ledger/settings.js';
import { BackendMetrics } from './metrics/backend-metrics.js';
import { metricsRoutes } from './metrics/routes.js';
import type { Fetch } from './http/outbound.js';
import type { Logger } from './logger.js';
import { AppClients } from './platform/clients.js';
import { InstallationDirectory } from './platform/installations.js';
import type { Store } from './store/types.js';

export interface AppDeps {
  /** The environment, read on every request (each part's settings memoised on its values), so a change applies to the next one. */
  readonly env: () => Env;
  readonly store: Store;
  readonly logger: Logger;
  readonly version: string;
  readonly clock?: Clock;
  /** What carries outbound calls (key sets, chat webhook, platform API); default: the network. */
  readonly transport?: Fetch;
  /** Bounds of outbound calls; defaults in `http/call-bounds.ts`. */
  readonly bounds?: Partial<BackendBounds>;
  /** Key-set cache; one per process so every request shares it. */
  readonly keySets?: KeySetRegistry;
  /** Installation-lookup cache; one per process. */
  readonly installations?: InstallationDirectory;
  /** Prometheus metrics; one per process. A given `keySets` reports its fetches only if made with `metrics.keySetFetched`. */
  readonly metrics?: BackendMetrics;
}

/** The backend: wires the parts; holds no logic of its own. */
export function createApp(deps: AppDeps): RequestListener {
  const clock = deps.clock ?? systemClock;
  const transport = deps.transport ? { transport: deps.transport } : {};
  const bounds = backendBounds(deps.bounds);
  const metrics = deps.metrics ?? new BackendMetrics();
  const keySets = deps.keySets ?? new KeySetRegistry({ ...transport, clock, onFetch: metrics.keySetFetched });
  const verifier = new OidcVerifier(keySets, clock);
  const clients = new AppClients({ ...transport, bounds: bounds.platform, commitBounds: bounds.commit, userAgent: `gatehouse/${deps.version}` });
  const installations = deps.installations ?? new InstallationDirectory();

  // Scrapes come every few seconds: their lines are debug-level.
  const logRequest = requestLogging(deps.logger, { probePaths: ['/metrics'] });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(logRequest, apiHeaders);

  const ledger = settingsOrMisconfigured(() => ledgerSettings(deps.env()));
  const ledgerRouter = ledgerRoutes({
    store: deps.store,
    clock,
    logger: deps.logger,
    verifier,
    chat: createChatSink({ ...transport, bounds: bounds.chat, logger: deps.logger }),
    settings: ledger,
    processCursorKey: randomBytes(32),
    deploymentAnswered: (record, duplicate) => metrics.deploymentAnswered(record, duplicate),
  });

  // The console's GitHub clients follow its settings (re-read per request): one per settings object.
  const userAgent = `gatehouse/${deps.version}`;
  const oauthClients = new WeakMap<ConsoleSettings, GitHubOAuth>();
  const oauth = (settings: ConsoleSettings): GitHubOAuth => {
    let client = oauthClients.get(settings);
    if (!client) oauthClients.set(settings, (client = new GitHubOAuth(settings, { bounds: bounds.platform, now: () => clock.now(), ...transport })));
    return client;
  };
  const consoleSessions = new ConsoleSessions({
    store: deps.store.sessions,
    clock,
    logger: deps.logger,
    oauth,
    github: (settings, token) => new UserGitHub(settings.apiBase, token, { bounds: bounds.platform, userAgent, ...transport }),
  });
  const consoleRouter = consoleRoutes({ settings: settingsOrMisconfigured(() => consoleSettings(deps.env())), ledgerSettings: ledger, store: deps.store, clock, logger: deps.logger, sessions: consoleSessions, oauth });
  const audited = settingsOrMisconfigured(() => auditSettings(deps.env()));
  const audit = new TokenAudit({ store: deps.store.tokenAudit, clock, settings: audited, writeFailed: metrics.auditWriteFailed });

  const broker = {
    settings: () => brokerSettings(deps.env()),
    audit,
    verifier,
    keySets,
    snapshots: new KeySetSnapshots(deps.store.keyValues, clock),
    clients,
    installations,
    clock,
    keyValues: deps.store.keyValues,
    releases: new ReleasesService({ clients, clock, keyValues: deps.store.keyValues, crawlMs: bounds.releasesCrawlMs }),
    tokenAnswered: metrics.tokenAnswered,
    authorizationRevoked: (userId: string) => consoleSessions.endForUser(userId),
  };
  // The broker first: each router entered costs a request some allocation that lives as long as
  // it does, and /token, the busiest route, waits on GitHub; it enters no other part's router.
  app.use(brokerRoutes(broker));
  app.use(healthRoutes(deps.version));
  app.use(metricsRoutes({ metrics, env: deps.env }));
  app.use(ledgerRouter);
  app.use(consoleRouter);
  app.use(auditRoutes({ store: deps.store.tokenAudit, clock, settings: audited }));

  app.use(() => {
    throw notFound();
  });
  app.use(errorHandler);
  return metrics.timed(app);
}
