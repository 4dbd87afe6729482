import { apiServer } from '../http/client-errors.js';
import { installGracefulShutdown } from '../lifecycle.js';
import { createLogger } from '../logger.js';
import { logNotices, reportListenFailure, reportStartupProblems } from '../startup/checks.js';
import { packageVersion } from '../version.js';
import { createMinimalApp } from './app.js';
import { checkMinimalStartup } from './startup.js';

// Process entry of the minimal broker: check the environment (every problem at once), wire the app, listen, shut down gracefully.
const env = process.env;
const checked = checkMinimalStartup(env);
if (!checked.ok) {
  reportStartupProblems(checked.problems);
  process.exit(1);
}
const { port, host, logLevel, notices } = checked.value;
const logger = createLogger({ level: logLevel });
// Broker settings are read per request; /readyz and /token answer 503 until they are usable.
logNotices(logger, notices);

const version = packageVersion();
const server = apiServer(createMinimalApp({ env: () => process.env, logger, version }));
server.listen({ port, ...(host ? { host } : {}) }, () => {
  logger.info({ address: server.address(), version }, 'gatehouse minimal broker listening');
});
server.on('error', (err) => {
  reportListenFailure(logger, err);
  process.exit(1);
});
installGracefulShutdown(server, { close: async () => {} }, logger);
