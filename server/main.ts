import { createApp } from './app.js';
import { serve, startedOrExit } from './lifecycle.js';
import { checkBackendStartup } from './startup/backend.js';
import { createStore } from './store/index.js';
import { packageVersion } from './version.js';

// Process entry: check the environment (every problem at once), wire the app, listen, shut down gracefully.
const env = process.env;
const { settings, logger } = startedOrExit(checkBackendStartup(env));
const version = packageVersion();
const store = createStore(env, logger);
serve(createApp({ env: () => process.env, store, logger, version }), settings, logger, 'gatehouse listening', { version, store: store.kind }, store);
