import { serve, startedOrExit } from '../lifecycle.js';
import { packageVersion } from '../version.js';
import { createMinimalApp } from './app.js';
import { checkMinimalStartup } from './startup.js';

// Process entry of the minimal broker: check the environment (every problem at once), wire the app, listen, shut down gracefully.
const { settings, logger } = startedOrExit(checkMinimalStartup(process.env));
// Broker settings are read per request; /readyz and /token answer 503 until they are usable.
const version = packageVersion();
serve(createMinimalApp({ env: () => process.env, logger, version }), settings, logger, 'gatehouse minimal broker listening', { version }, { close: async () => {} });
