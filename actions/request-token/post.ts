import * as core from '@actions/core';
import { actionHttp } from '../shared/http.js';
import { revoke } from './revoke.js';

/** request-token's post step (post-index.ts calls this; `@github/local-action --post` imports it). */
export async function run(): Promise<void> {
  await revoke({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-request-token' }) });
}
