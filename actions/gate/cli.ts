#!/usr/bin/env node
import { CliOutput } from './outputs/cli-output.js';
import { gateCommand } from './command.js';
import { runnerEvent } from './runner-event.js';

const io = new CliOutput(process.stdout, process.stderr);
try {
  process.exitCode = await gateCommand(process.argv.slice(2), process.env, process.cwd(), io, runnerEvent(process.env));
} finally {
  io.flush();
}
