import { Router, type Request } from 'express';
import { presentsBearer } from '../auth/bearer.js';
import type { Clock } from '../clock.js';
import { refuse } from '../errors.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/routes.js';
import { validate } from '../http/validation.js';
import type { TokenAuditStore } from '../store/audit-types.js';
import { auditCsv } from './csv.js';
import { listAuditRecords } from './list-records.js';
import { auditQuery } from './query.js';
import type { AuditSettings } from './settings.js';

export const AUDIT_PATH = '/v1/audit/tokens';

export interface AuditRouteDeps {
  readonly store: TokenAuditStore;
  readonly clock: Clock;
  readonly settings: () => AuditSettings;
}

/**
 * `GET /v1/audit/tokens`: the token audit for operators, newest first, in JSON or (`Accept:
 * text/csv`) CSV. Its own bearer, `AUDIT_TOKEN`, read per request and compared in constant time as
 * `/metrics`' is; while it is unset the route does not exist (`404 not_found`, whatever the method),
 * and without it nothing about the query is checked (`401 unauthorized` first).
 */
export function auditRoutes(deps: AuditRouteDeps): Router {
  const router = Router();
  router.use(AUDIT_PATH, (req, res, next) => {
    const settings = deps.settings();
    if (!settings.token || !settings.cursorKey) throw notFound();
    if (!presentsBearer(req.headers, settings.token)) throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
    res.locals.auditCursorKey = settings.cursorKey;
    next();
  });
  route(router, AUDIT_PATH, {
    get: [
      async (req, res) => {
        const query = validate(auditQuery, req.query);
        const page = await listAuditRecords(deps, query, res.locals.auditCursorKey as Uint8Array);
        if (page.next !== null) res.set('Link', `<${nextUrl(req, page.next)}>; rel="next"`);
        if (req.accepts(['application/json', 'text/csv']) === 'text/csv') {
          res.type('text/csv; charset=utf-8; header=present').send(auditCsv(page.records));
          return;
        }
        res.json(page);
      },
    ],
  });
  return router;
}

/** This request's path and query with `cursor` set to the next page's (RFC 8288 `Link`, relative to the request). */
function nextUrl(req: Request, cursor: string): string {
  const params = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  params.set('cursor', cursor);
  return `${AUDIT_PATH}?${params.toString()}`;
}
