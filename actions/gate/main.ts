import * as core from '@actions/core';
import { actionHttp } from '../shared/http.js';
import { runGate } from './run.js';

await runGate({ core, env: process.env, cwd: process.env.GITHUB_WORKSPACE || process.cwd(), http: actionHttp({ userAgent: 'gatehouse-gate' }) });
