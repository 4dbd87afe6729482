import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';
import { revoke } from './revoke.js';

await revoke({ core, env: process.env, http: new HttpClient('gatehouse-request-token', [], { socketTimeout: 10_000 }) });
