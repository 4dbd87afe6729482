#!/usr/bin/env node
import { gateCommand } from './command.js';

process.exitCode = await gateCommand(process.argv.slice(2), process.env, process.cwd(), { out: console.log, err: console.error });
