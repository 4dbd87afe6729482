import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Reuses a caller's `x-request-id` when it is a plain token, otherwise makes one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/**
 * One log line per request, with the request id, method, path (no query string, no headers,
 * no body), status and duration. `probePaths` are logged at debug level. `req.log` is a child logger that carries the request id.
 */
export function requestLogging(logger: Logger, options: { probePaths?: readonly string[] } = {}) {
  const probes = new Set(options.probePaths ?? []);
  return pinoHttp({
    logger,
    genReqId: requestId,
    // Probes and scrapes come every few seconds and say nothing new: debug, whatever they answer.
    customLogLevel: (req, res, err) =>
      probes.has((req.url ?? '').split('?')[0]!) ? 'debug' : err || res.statusCode >= 500 ? 'error' : 'info',
    serializers: {
      req: (req: { id: unknown; method: unknown; url?: unknown }) => ({
        id: req.id,
        method: req.method,
        path: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
      }),
      res: (res: { statusCode: unknown }) => ({ statusCode: res.statusCode }),
    },
  });
}
