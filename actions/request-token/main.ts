import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';
import { run } from './run.js';

await run({ core, env: process.env, http: new HttpClient('gatehouse-request-token', [], { socketTimeout: 10_000 }) });
