import * as core from '@actions/core';
import { actionHttp } from '../shared/http.js';
import { run as requestToken } from './run.js';

/** The request-token action as the runner runs it (index.ts calls this; `@github/local-action` imports it). */
export async function run(): Promise<void> {
  await requestToken({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-request-token' }) });
}
