import { Router } from 'express';
import { presentsBearer } from '../auth/bearer.js';
import { memoOnEnv, type Env } from '../config-error.js';
import { route } from '../http/routes.js';
import type { BackendMetrics } from './backend-metrics.js';
import { refuse } from '../errors.js';

/** `METRICS_TOKEN`, read as every backend setting is (start-up and requests alike); unset: none. */
export const metricsToken = memoOnEnv((env) => env.METRICS_TOKEN?.trim() || undefined);

/**
 * `GET /metrics`: Prometheus text. With `METRICS_TOKEN` set (read per request, like every backend
 * setting) it needs `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time.
 */
export function metricsRoutes(deps: { readonly metrics: BackendMetrics; readonly env: () => Env }): Router {
  const router = Router();
  route(router, '/metrics', {
    get: [
      async (req, res) => {
        const token = metricsToken(deps.env());
        if (token && !presentsBearer(req.headers, token)) throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
        const text = await deps.metrics.text();
        res.set('Content-Type', deps.metrics.contentType).send(text);
      },
    ],
  });
  return router;
}
