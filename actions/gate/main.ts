import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';
import { runGate } from './run.js';

await runGate({ core, env: process.env, cwd: process.env.GITHUB_WORKSPACE || process.cwd(), http: new HttpClient('gatehouse-gate', [], { socketTimeout: 10_000 }) });
