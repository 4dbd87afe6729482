import * as core from '@actions/core';
import { context } from '@actions/github';
import { actionHttp } from '../shared/http.js';
import { runGate } from './run.js';

/** The gate action as the runner runs it (index.ts calls this; `@github/local-action` imports it). */
export async function run(): Promise<void> {
  await runGate({ core, env: process.env, cwd: process.env.GITHUB_WORKSPACE || process.cwd(), http: actionHttp({ userAgent: 'gatehouse-gate' }), event: context });
}
