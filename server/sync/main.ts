#!/usr/bin/env node
import { syncCommand } from './command.js';
import { serveCommand } from './service/serve.js';

// Process entry of the sync service (`npm run start:sync -- --config <file>`): `gatehouse-sync serve`.
// It exits explicitly: a run cut off at the end of the shutdown grace would otherwise hold the process.
process.exit(await syncCommand(['serve', ...process.argv.slice(2)], process.env, { out: console.log, err: console.error }, {}, serveCommand));
