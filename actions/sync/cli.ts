#!/usr/bin/env node
import { syncCommand } from '../../server/sync/command.js';
import { serveCommand } from '../../server/sync/service/serve.js';

const argv = process.argv.slice(2);
const code = await syncCommand(argv, process.env, { out: console.log, err: console.error }, {}, serveCommand);
// `serve` exits explicitly: a run cut off at the end of the shutdown grace would otherwise hold the process.
if (argv[0] === 'serve') process.exit(code);
process.exitCode = code;
