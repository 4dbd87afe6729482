import * as core from '@actions/core';
import { actionHttp } from '../shared/http.js';
import { revoke } from './revoke.js';

await revoke({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-request-token' }) });
