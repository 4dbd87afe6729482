import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id: the caller's `x-request-id` when it is a plain token, otherwise a new one. */
    id?: string;
    /** A child logger carrying `req: {id, method, path}`; routes may add bindings to it. */
    log: Logger;
  }
  interface ServerResponse {
    /** The error behind a 5xx, for the request's log line. */
    err?: Error;
    /** What a route adds to its request's one log line (`msg` replaces "request completed"). */
    logLine?: { readonly msg: string; readonly fields: Readonly<Record<string, unknown>> };
  }
}

/** Puts `fields` on the request's one log line, under `msg`: a route's outcome without a second line. */
export function noteLogLine(res: ServerResponse, msg: string, fields: Readonly<Record<string, unknown>>): void {
  res.logLine = { msg, fields };
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Reuses a caller's `x-request-id` when it is a plain token, otherwise makes one. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

const REDACTED = '[redacted]';

/** A path segment as the router reads it (percent-decoded); the raw text when it does not decode. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Where a path may carry a secret: after these decoded segments (`['hooks', 'dependency-track']`), every later segment. */
export type SecretPathPrefix = readonly string[];

/**
 * The path as logged: every segment that decodes to one of `secrets`, and every segment after a
 * `secretAfter` prefix, replaced whole by `[redacted]`. Segments are compared decoded, so
 * `%2F`, `%2f` or `%2B` spellings of a secret are caught as well as the raw value.
 */
function loggedPath(path: string, secrets: readonly string[], secretAfter: readonly SecretPathPrefix[]): string {
  if (secrets.length === 0 && secretAfter.length === 0) return path;
  const segments = path.split('/');
  const plain = segments.map(decoded);
  // The leading '' of an absolute path is skipped; empty segments (`//`) are not counted.
  const named = plain.map((s, i) => ({ s, i })).filter(({ s, i }) => i > 0 && s !== '');
  const hidden = new Set<number>();
  for (const prefix of secretAfter) {
    if (named.length > prefix.length && prefix.every((p, k) => named[k]!.s.toLowerCase() === p)) for (const { i } of named.slice(prefix.length)) hidden.add(i);
  }
  plain.forEach((s, i) => {
    if (s !== '' && secrets.includes(s)) hidden.add(i);
  });
  return hidden.size === 0 ? path : segments.map((s, i) => (hidden.has(i) ? REDACTED : s)).join('/');
}

/**
 * One log line per request, when it ends: the request id, method and path (no query string, no
 * headers, no body; secret segments redacted, see `loggedPath`), the status, the duration, and what the route added (`noteLogLine`:
 * `/token` puts its audit fields there instead of logging a second line). `probePaths` are logged
 * at debug level. `req.log` is a child logger that carries the request. Written here rather than
 * with pino-http for the one-line rule: a route's outcome (`/token`'s audit) joins the request's
 * line instead of adding a second one.
 */
export function requestLogging(
  logger: Logger,
  options: { probePaths?: readonly string[]; secrets?: readonly string[]; secretAfter?: readonly SecretPathPrefix[] } = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const probes = new Set(options.probePaths ?? []);
  const secrets = (options.secrets ?? []).filter((s) => s !== '');
  const secretAfter = (options.secretAfter ?? []).map((prefix) => prefix.map((s) => s.toLowerCase()));
  return (req, res, next) => {
    const started = performance.now();
    const id = requestId(req, res);
    const path = loggedPath((req.url ?? '').split('?')[0]!, secrets, secretAfter);
    req.id = id;
    req.log = logger.child({ req: { id, method: req.method, path } });
    // Node emits 'close' on every response: after 'finish', or when the connection ends first.
    res.once('close', () => {
      const responseTime = Math.round(performance.now() - started);
      const failed = res.err !== undefined || res.statusCode >= 500;
      const line = res.logLine;
      const fields = { res: { statusCode: res.statusCode }, responseTime, ...(failed ? { err: res.err ?? new Error(`failed with status code ${res.statusCode}`) } : {}), ...line?.fields };
      const level = probes.has(path) ? 'debug' : failed ? 'error' : 'info';
      const message = failed ? 'request errored' : res.writableFinished ? (line?.msg ?? 'request completed') : 'request aborted';
      req.log[level](fields, message);
    });
    next();
  };
}
