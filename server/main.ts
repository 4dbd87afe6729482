import { createApp } from './app.js';
import { apiServer } from './http/client-errors.js';
import { installGracefulShutdown } from './lifecycle.js';
import { createLogger } from './logger.js';
import { checkBackendStartup } from './startup/backend.js';
import { logNotices, reportListenFailure, reportStartupProblems } from './startup/checks.js';
import { createStore } from './store/index.js';
import { packageVersion } from './version.js';

// Process entry: check the environment (every problem at once), wire the app, listen, shut down gracefully.
const env = process.env;
const checked = checkBackendStartup(env);
if (!checked.ok) {
  reportStartupProblems(checked.problems);
  process.exit(1);
}
const { port, host, logLevel, notices } = checked.value;
const logger = createLogger({ level: logLevel });
logNotices(logger, notices);

const version = packageVersion();
const store = createStore(env, logger);
const app = createApp({ env: () => process.env, store, logger, version });
const server = apiServer(app);
server.listen({ port, ...(host ? { host } : {}) }, () => {
  logger.info({ address: server.address(), version, store: store.kind }, 'gatehouse listening');
});
server.on('error', (err) => {
  reportListenFailure(logger, err);
  process.exit(1);
});
installGracefulShutdown(server, store, logger);
