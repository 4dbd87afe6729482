import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths whose values never reach a log line, whatever code logs them. Request logs carry no
 * headers or bodies in the first place; this is the second line of defence.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-hub-signature-256"]',
  '*.authorization',
  '*.token',
  '*.oidcToken',
  '*.privateKey',
  '*.secret',
  '*.password',
  '*.webhookUrl',
  '*.chatWebhookUrl',
  'token',
  'oidcToken',
  'privateKey',
  'secret',
  'webhookUrl',
];

/**
 * Structured JSON logs on stdout (or `destination`, which tests use to read the stream), written
 * synchronously: pino's default stdout stream is asynchronous and buffers without bound, and a
 * load run showed its backlog (retained 16 KB chunks of log lines) growing in memory for as long
 * as the load lasted. A blocking write is the back-pressure, and a crash loses no line.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream; service?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service ?? 'gatehouse' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
