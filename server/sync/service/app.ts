import express, { Router, type Express, type RequestHandler } from 'express';
import { presentsBearer } from '../../auth/bearer.js';
import { apiHeaders } from '../../http/api-headers.js';
import { errorHandler } from '../../http/error-handler.js';
import { AppError, notFound } from '../../http/errors.js';
import { requestLogging } from '../../http/request-logging.js';
import { route } from '../../http/routes.js';
import type { Logger } from '../../logger.js';
import type { SyncMetrics } from './metrics.js';
import type { Readiness } from './readiness.js';
import type { SyncService } from './service.js';

export const SYNC_SERVICE_NAME = 'gatehouse-sync';

export interface SyncAppDeps {
  /** Absent when the configuration is invalid: nothing can run, `/readyz` says why. */
  readonly service?: SyncService;
  readonly readiness: Readiness;
  readonly metrics: SyncMetrics;
  readonly logger: Logger;
  readonly version: string;
  /** `SYNC_TRIGGER_TOKEN`: when set, `POST /sync/{source}` and `/metrics` need it as a bearer. */
  readonly triggerToken?: string;
}

/** Open when no token is configured (the service warns at start); otherwise a constant-time bearer check. */
function bearer(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) return next();
    if (!presentsBearer(req.headers, token)) throw new AppError(401, 'unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    next();
  };
}

/** The sync service's HTTP surface: probes, metrics and on-demand runs. Wiring only. */
export function createSyncApp(deps: SyncAppDeps): Express {
  const router = Router();
  const auth = bearer(deps.triggerToken);
  const health = { status: 'ok', service: SYNC_SERVICE_NAME, version: deps.version };

  route(router, '/healthz', { get: [(_req, res) => void res.json(health)] });

  route(router, '/readyz', {
    get: [
      async (_req, res) => {
        const answer = await deps.readiness.check();
        if (answer.ready) res.json({ status: 'ready' });
        else res.status(503).json({ error: 'not_ready', reason: answer.reason, ...(answer.problems?.length ? { problems: answer.problems } : {}) });
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

  // No body is read: the source in the path is the whole request.
  route(router, '/sync/:source', {
    post: [
      auth,
      async (req, res) => {
        if (!deps.service) throw new AppError(503, 'configuration_invalid');
        const answer = await deps.service.start(String(req.params.source), 'trigger');
        switch (answer.outcome) {
          case 'started':
            req.log?.info({ run_id: answer.runId, source: req.params.source }, 'run triggered');
            res.status(202).json({ accepted: true, run_id: answer.runId });
            return;
          case 'busy':
            throw new AppError(409, 'run_in_progress');
          case 'unknown_source':
            throw new AppError(404, 'unknown_source');
          case 'stopping':
            throw new AppError(503, 'shutting_down', {}, { headers: { 'Retry-After': '30' } });
        }
      },
    ],
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLogging(deps.logger, { probePaths: ['/healthz', '/readyz', '/metrics'] }), apiHeaders, router);
  app.use(() => {
    throw notFound();
  });
  app.use(errorHandler);
  return app;
}
