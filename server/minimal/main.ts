import { createServer } from 'node:http';
import { parseBrokerSettings } from '../broker/settings.js';
import { ConfigError } from '../config-error.js';
import { answerClientErrors } from '../http/client-errors.js';
import { installGracefulShutdown } from '../lifecycle.js';
import { createLogger } from '../logger.js';
import { packageVersion } from '../version.js';
import { createMinimalApp } from './app.js';
import { configurationProblems } from './token.js';

// Process entry of the minimal broker: check the port, wire the app, listen, shut down gracefully.
const env = process.env;
const logger = createLogger({ level: env.LOG_LEVEL?.trim() || 'info' });

const rawPort = env.PORT?.trim() || '8080';
if (!/^[0-9]+$/.test(rawPort) || Number(rawPort) > 65535) {
  const err = new ConfigError('PORT', 'must be a port number (0-65535)');
  logger.fatal({ setting: err.setting }, `invalid configuration: ${err.message}`);
  process.exit(1);
}
// Settings are read per request; /readyz and /token answer 503 until they are usable.
const problems = configurationProblems(parseBrokerSettings(env));
if (problems.length > 0) logger.warn({ problems }, 'configuration unusable: /readyz and /token answer 503 config_unavailable');

const version = packageVersion();
const server = createServer(createMinimalApp({ env: () => process.env, logger, version }));
answerClientErrors(server);
const host = env.HOST?.trim() || undefined;
server.listen({ port: Number(rawPort), ...(host ? { host } : {}) }, () => {
  logger.info({ address: server.address(), version }, 'gatehouse minimal broker listening');
});
server.on('error', (err) => {
  logger.fatal({ err }, 'cannot listen');
  process.exit(1);
});
installGracefulShutdown(server, { close: async () => {} }, logger);
