import { createServer } from 'node:http';
import { createApp } from './app.js';
import { parseBrokerSettings } from './broker/settings.js';
import { brokerNotices } from './broker/status.js';
import { ConfigError } from './config-error.js';
import { answerClientErrors } from './http/client-errors.js';
import { parseLedgerSettings } from './ledger/settings.js';
import { installGracefulShutdown } from './lifecycle.js';
import { createLogger } from './logger.js';
import { createStore } from './store/index.js';
import { packageVersion } from './version.js';

// Process entry: read the environment, check it, wire the app, listen, shut down gracefully.
const env = process.env;
const logger = createLogger({ level: env.LOG_LEVEL?.trim() || 'info' });

function listenPort(): number {
  const raw = env.PORT?.trim() || '8080';
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port > 65535) throw new ConfigError('PORT', 'must be a port number (0-65535)');
  return port;
}

let port: number;
try {
  port = listenPort();
  const ledger = parseLedgerSettings(env);
  if (ledger.audiences.length === 0) logger.warn('LEDGER_AUDIENCE is not set: the ledger refuses every token');
  if (ledger.allowedOwners.size === 0) logger.warn('LEDGER_ALLOWED_OWNERS is empty: the ledger denies every caller');
  // The broker's settings never stop the process: each one only disables the routes that need it.
  for (const notice of brokerNotices(parseBrokerSettings(env))) logger[notice.level](notice.message);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  logger.fatal({ setting: err.setting }, `invalid configuration: ${err.message}`);
  process.exit(1);
}

const version = packageVersion();
const store = createStore(env, logger);
const app = createApp({ env: () => process.env, store, logger, version });
const host = env.HOST?.trim() || undefined;
const server = createServer(app);
answerClientErrors(server);
server.listen({ port, ...(host ? { host } : {}) }, () => {
  logger.info({ address: server.address(), version, store: store.kind }, 'gatehouse listening');
});
server.on('error', (err) => {
  logger.fatal({ err }, 'cannot listen');
  process.exit(1);
});
installGracefulShutdown(server, store, logger);
