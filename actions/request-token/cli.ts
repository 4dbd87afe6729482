#!/usr/bin/env node
import { refreshCommand } from './refresh/command.js';
import { actionHttp } from '../shared/http.js';

const mask = (secret: string) => void process.stderr.write(`::add-mask::${secret}\n`);
const http = actionHttp({ userAgent: 'gatehouse-request-token' });
process.exitCode = await refreshCommand(process.argv.slice(2), process, { http, env: process.env, mask });
