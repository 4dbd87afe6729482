#!/usr/bin/env node
import { policyCommand } from './check.js';

process.exitCode = await policyCommand(process.argv.slice(2), process.env, process.cwd(), { out: console.log, err: console.error });
