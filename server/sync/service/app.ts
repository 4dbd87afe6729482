import express, { Router, type Express, type Request, type RequestHandler } from 'express';
import { presentsBearer } from '../../auth/bearer.js';
import { secretsEqual } from '../../auth/secrets.js';
import { validationFailed } from '../../http/validation.js';
import { readNotification } from './dependency-track-hook.js';
import { apiHeaders } from '../../http/api-headers.js';
import { errorHandler } from '../../http/error-handler.js';
import { notFound } from '../../http/errors.js';
import { refuse, SYNC_SERVICE_ERRORS } from './errors.js';
import { ReadinessLog } from '../../readiness-log.js';
import { requestLogging } from '../../http/request-logging.js';
import { route } from '../../http/routes.js';
import type { Logger } from '../../logger.js';
import type { SyncMetrics } from './metrics.js';
import type { Readiness } from './readiness.js';
import type { SyncService } from './service.js';

const SYNC_SERVICE_NAME = 'gatehouse-sync';

export interface SyncAppDeps {
  /** Absent when the configuration is invalid: nothing can run, `/readyz` says why. */
  readonly service?: SyncService;
  readonly readiness: Readiness;
  readonly metrics: SyncMetrics;
  readonly logger: Logger;
  readonly version: string;
  /** `SYNC_TRIGGER_TOKEN`: when set, `POST /sync/{source}` and `/metrics` need it as a bearer. */
  readonly triggerToken?: string;
  /** `SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET`: `POST /hooks/dependency-track` needs it; unset, the route is off. */
  readonly webhookSecret?: string;
}

/** The largest notification read (a BOM_PROCESSED notification carries the whole BOM, base64). */
const HOOK_BODY_LIMIT = '32mb';

/** The one scope parameter of a run (`?project=` / `?repository=`), checked; undefined without a query. */
function scopeOf(req: Request, service: SyncService, source: string): { items: string[] } | undefined {
  const names = Object.keys(req.query);
  if (names.length === 0) return undefined;
  const scope = service.scopeOf(source);
  if (!scope) {
    if (!service.sources.includes(source as never)) throw refuse('unknown_source');
    throw validationFailed(names.map((name) => ({ path: name, message: `${source} runs whole: it takes no query parameter` })));
  }
  const unknown = names.filter((n) => n !== scope.parameter);
  if (unknown.length > 0) throw validationFailed(unknown.map((name) => ({ path: name, message: `unknown parameter (${source} takes ${scope.parameter})` })));
  const value = req.query[scope.parameter];
  if (typeof value !== 'string' || !scope.accepts(value)) throw validationFailed([{ path: scope.parameter, message: `must be ${scope.form}, once` }]);
  return { items: [value] };
}

/**
 * Dependency-Track's webhook publisher signs nothing: the secret comes as a bearer header or as
 * the last path segment, compared in constant time (the path is scrubbed from every log line).
 */
function hookSecret(secret: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (secret === undefined) throw refuse('not_found');
    const inPath = typeof req.params.secret === 'string' ? req.params.secret : undefined;
    const ok = inPath !== undefined ? secretsEqual(inPath, secret) : presentsBearer(req.headers, secret);
    if (!ok) throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    next();
  };
}

/** Open when no token is configured (the service warns at start); otherwise a constant-time bearer check. */
function bearer(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) return next();
    if (!presentsBearer(req.headers, token)) throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    next();
  };
}

/** The sync service's HTTP surface: probes, metrics and on-demand runs. Wiring only. */
export function createSyncApp(deps: SyncAppDeps): Express {
  const router = Router();
  const auth = bearer(deps.triggerToken);
  const health = { status: 'ok', service: SYNC_SERVICE_NAME, version: deps.version };

  route(router, '/healthz', { get: [(_req, res) => void res.json(health)] });

  const readinessLog = new ReadinessLog(deps.logger);
  route(router, '/readyz', {
    get: [
      async (_req, res) => {
        const answer = await deps.readiness.check();
        if (answer.ready) {
          readinessLog.ready();
          res.json({ status: 'ready' });
          return;
        }
        readinessLog.notReady(answer.reason, answer.problems);
        // Answered here, not thrown: a probe's not-ready is not a failed request for the log.
        res.status(SYNC_SERVICE_ERRORS.not_ready).json({ error: 'not_ready', reason: answer.reason, ...(answer.problems?.length ? { problems: answer.problems } : {}) });
      },
    ],
  });

  route(router, '/metrics', {
    get: [
      auth,
      async (_req, res) => {
        const text = await deps.metrics.text();
        res.set('Content-Type', deps.metrics.contentType).send(text);
      },
    ],
  });

  // No body is read: the source in the path (and a project or repository in the query) is the whole request.
  route(router, '/sync/:source', {
    post: [
      auth,
      async (req, res) => {
        if (!deps.service) throw refuse('configuration_invalid');
        const source = String(req.params.source);
        const scope = scopeOf(req, deps.service, source);
        const answer = await deps.service.start(source, 'trigger', scope);
        switch (answer.outcome) {
          case 'started':
            req.log?.info({ run_id: answer.runId, source: req.params.source, ...(scope ? { items: scope.items } : {}) }, 'run triggered');
            res.status(202).json({ accepted: true, run_id: answer.runId });
            return;
          case 'busy':
            throw refuse('run_in_progress');
          case 'unknown_source':
            throw refuse('unknown_source');
          case 'stopping':
            throw refuse('shutting_down', {}, { headers: { 'Retry-After': '30' } });
        }
      },
    ],
  });

  // Dependency-Track's notifications: the projects they name are synced (queued behind a run in progress).
  const hook: RequestHandler[] = [
    hookSecret(deps.webhookSecret),
    express.json({ limit: HOOK_BODY_LIMIT, type: () => true }),
    async (req, res) => {
      if (!deps.service) throw refuse('configuration_invalid');
      if (!deps.service.sources.includes('dependencytrack')) throw refuse('unknown_source');
      const reading = readNotification(req.body);
      if (reading.kind === 'invalid') throw validationFailed([{ path: 'notification', message: reading.message }]);
      if (reading.kind === 'ignored') {
        res.status(200).json({ accepted: false, group: reading.group, reason: 'group_not_synced' });
        return;
      }
      const outcome = await deps.service.enqueue('dependencytrack', reading.projects);
      if (outcome === 'stopping') throw refuse('shutting_down', {}, { headers: { 'Retry-After': '30' } });
      req.log?.info({ group: reading.group, projects: reading.projects, outcome }, 'Dependency-Track notification');
      res.status(202).json({ accepted: true, group: reading.group, projects: reading.projects, queued: outcome === 'queued' });
    },
  ];
  route(router, '/hooks/dependency-track', { post: hook });
  route(router, '/hooks/dependency-track/:secret', { post: hook });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The webhook secret may travel as a path segment: that segment is never logged, whatever it holds.
  const secrets = [deps.webhookSecret, deps.triggerToken].filter((s): s is string => s !== undefined);
  app.use(requestLogging(deps.logger, { probePaths: ['/healthz', '/readyz', '/metrics'], secrets, secretAfter: [['hooks', 'dependency-track']] }), apiHeaders, router);
  app.use(() => {
    throw notFound();
  });
  app.use(errorHandler);
  return app;
}
