import { isIP } from 'node:net';
import { pino, type DestinationStream } from 'pino';
import { collect, ConfigError, type Env } from '../config-error.js';
import { createLogger, type Logger } from '../logger.js';

/** pino's levels, quietest last, and `silent`. Names are matched case-insensitively (`DEBUG` is `debug`). */
export const LOG_LEVELS: readonly string[] = [
  ...Object.entries(pino.levels.values)
    .sort(([, a], [, b]) => a - b)
    .map(([name]) => name),
  'silent',
];

/** A line for the operator once the logger exists (a setting that leaves part of the service refusing callers). */
export interface Notice {
  readonly level: 'warn' | 'info';
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Where and how a server listens and logs. */
export interface ListenSettings {
  readonly port: number;
  readonly host?: string;
  readonly logLevel: string;
}

export function listenPort(env: Env): number {
  const raw = env.PORT?.trim() || '8080';
  if (!/^[0-9]+$/.test(raw) || Number(raw) > 65535) throw new ConfigError('PORT', 'must be a port number (0-65535)');
  return Number(raw);
}

// Labels of letters, digits, `-` and `_` (container service names use `_`; the resolver accepts it).
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** Unset: every interface. A mistake such as `0.0.0.0:8080` or `http://…` is caught here, not by a failed listen. */
export function listenHost(env: Env): string | undefined {
  const raw = env.HOST?.trim();
  if (!raw) return undefined;
  if (isIP(raw) === 0 && !HOST_NAME.test(raw)) throw new ConfigError('HOST', 'must be an IP address or a host name (no scheme, port or brackets)');
  return raw;
}

/** Unset: `info`. Any case is accepted, so `DEBUG` from an environment convention works. */
export function logLevel(env: Env): string {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return 'info';
  if (!LOG_LEVELS.includes(raw)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return raw;
}

/** PORT, HOST and LOG_LEVEL, each problem added to `problems`; undefined when any was unusable. */
export function checkListenSettings(env: Env, problems: ConfigError[]): ListenSettings | undefined {
  const before = problems.length;
  const port = collect(problems, () => listenPort(env));
  const host = collect(problems, () => listenHost(env));
  const level = collect(problems, () => logLevel(env));
  if (port === undefined || level === undefined || problems.length > before) return undefined;
  return { port, logLevel: level, ...(host ? { host } : {}) };
}

/**
 * One fatal JSON line per problem, naming the setting and what is wrong (a `ConfigError` never
 * holds the value). Written whatever LOG_LEVEL says (it may itself be the problem, and a silent
 * exit would hide why the process stopped).
 */
export function reportStartupProblems(problems: readonly ConfigError[], options: { service?: string; destination?: DestinationStream } = {}): void {
  const logger = createLogger({ level: 'info', ...options });
  for (const problem of problems) logger.fatal({ setting: problem.setting }, `invalid configuration: ${problem.message}`);
}

export function logNotices(logger: Logger, notices: readonly Notice[]): void {
  for (const notice of notices) logger[notice.level]({ ...notice.fields }, notice.message);
}

/** A failed listen (port in use, address not on this host) in one line: its code and message, no stack. */
export function reportListenFailure(logger: Logger, err: NodeJS.ErrnoException): void {
  logger.fatal({ code: err.code }, `cannot listen: ${err.message}`);
}
