import { Router } from 'express';
import { route } from '../http/routes.js';

const SERVICE_NAME = 'gatehouse';

/** `GET /healthz`: no authentication and no store read, so a throttled store cannot make it fail. */
export function healthRoutes(version: string): Router {
  const router = Router();
  const body = { status: 'ok', service: SERVICE_NAME, version };
  route(router, '/healthz', { get: [(_req, res) => void res.json(body)] });
  return router;
}
