#!/usr/bin/env node
import { syncCommand } from '../../server/sync/command.js';

process.exitCode = await syncCommand(process.argv.slice(2), process.env, { out: console.log, err: console.error });
