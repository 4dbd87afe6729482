import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Names whose values never reach a log line, whatever code logs them. */
const SECRET_NAMES = ['authorization', 'cookie', 'x-hub-signature-256', 'token', 'oidcToken', 'privateKey', 'secret', 'password', 'webhookUrl', 'chatWebhookUrl'];
const SECRETS = new Set(SECRET_NAMES);

/**
 * The same names anywhere in the first levels of a log object (`settings.privateKey`,
 * `req.headers.authorization`), censored in one pass over its keys rather than with pino's
 * wildcard paths (`*.token`), which cost more than the rest of a request's logging
 * (docs/benchmarks.md).
 */
function censored(object: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    const value = object[key];
    let replaced: unknown = value;
    if (SECRETS.has(key)) replaced = '[redacted]';
    else if (depth < 2 && value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)) {
      replaced = censored(value as Record<string, unknown>, depth + 1);
    }
    if (replaced !== value) {
      if (out === object) out = { ...object };
      out[key] = replaced;
    }
  }
  return out;
}

/**
 * Structured JSON logs on stdout (or `destination`, which tests use to read the stream), written
 * synchronously: pino's default stdout stream is asynchronous and buffers without bound, so under
 * load its backlog grows in memory for as long as the load lasts. A blocking write is the
 * back-pressure, and a crash loses no line.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream; service?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service ?? 'gatehouse' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // pino's redaction covers child-logger bindings, which the `log` formatter never sees: the
      // names at the top level, and a `req` binding through its serializer (cheaper than nested
      // redact paths such as `req.headers.authorization` on every line).
      redact: { paths: SECRET_NAMES, censor: '[redacted]' },
      serializers: { req: (req: Record<string, unknown>) => censored(req) },
      formatters: { level: (label) => ({ level: label }), log: (object) => censored(object) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
