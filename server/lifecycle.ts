import type { RequestListener, Server } from 'node:http';
import type { Checked } from './config-error.js';
import { apiServer } from './http/client-errors.js';
import { createLogger, type Logger } from './logger.js';
import { logNotices, reportListenFailure, reportStartupProblems, type ListenSettings, type Notice } from './startup/checks.js';
import type { Store } from './store/types.js';

/** How long in-flight requests get to finish after SIGTERM/SIGINT before connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Graceful shutdown: stop accepting connections, let in-flight requests finish (bounded), then
 * close the store. The process then exits on its own, with status 0 when everything closed cleanly.
 */
export function installGracefulShutdown(server: Server, store: Pick<Store, 'close'>, logger: Logger, graceMs = SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: refusing new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn({ grace_ms: graceMs }, 'grace period over: closing the remaining connections');
      server.closeAllConnections();
    }, graceMs);
    force.unref();
    // Connections that finish their request during the grace period become idle: close them
    // as they do, instead of waiting for each client's keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.close((err) => {
      clearTimeout(force);
      clearInterval(sweep);
      store
        .close()
        .catch((closeErr: unknown) => {
          logger.error({ err: closeErr }, 'store did not close cleanly');
          process.exitCode = 1;
        })
        .finally(() => {
          if (err) process.exitCode = 1;
          logger.info('stopped');
        });
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * A server process's start: every problem of its start-up check reported at once, then exit 1;
 * otherwise its logger, at the checked level, with the check's notices logged.
 */
export function startedOrExit<T extends ListenSettings & { readonly notices: readonly Notice[] }>(checked: Checked<T>): { settings: T; logger: Logger } {
  if (!checked.ok) {
    reportStartupProblems(checked.problems);
    process.exit(1);
  }
  const logger = createLogger({ level: checked.value.logLevel });
  logNotices(logger, checked.value.notices);
  return { settings: checked.value, logger };
}

/** Serves `listener` where `at` says: `message` once listening, exit 1 when it cannot listen, a graceful shutdown. */
export function serve(listener: RequestListener, at: ListenSettings, logger: Logger, message: string, fields: Readonly<Record<string, unknown>>, store: Pick<Store, 'close'>): void {
  const server = apiServer(listener);
  server.listen({ port: at.port, ...(at.host ? { host: at.host } : {}) }, () => {
    logger.info({ address: server.address(), ...fields }, message);
  });
  server.on('error', (err) => {
    reportListenFailure(logger, err);
    process.exit(1);
  });
  installGracefulShutdown(server, store, logger);
}
