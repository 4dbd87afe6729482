import * as core from '@actions/core';
import { actionHttp } from '../shared/http.js';
import { run } from './run.js';

await run({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-record-deployment' }) });
