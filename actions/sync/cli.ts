#!/usr/bin/env node
import { syncCommand, type Serve } from '../../server/sync/command.js';

// The service (HTTP server, metrics, MongoDB driver) loads only for `serve`, so the one-shot commands start fast.
const serve: Serve = async (...args) => (await import('../../server/sync/service/serve.js')).serveCommand(...args);

const argv = process.argv.slice(2);
const code = await syncCommand(argv, process.env, { out: console.log, err: console.error }, {}, serve);
// `serve` exits explicitly: a run cut off at the end of the shutdown grace would otherwise hold the process.
if (argv[0] === 'serve') process.exit(code);
process.exitCode = code;
