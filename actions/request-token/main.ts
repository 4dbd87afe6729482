import * as core from '@actions/core';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionHttp } from '../shared/http.js';
import { run as requestToken } from './run.js';

/** The request-token action as the runner runs it (index.ts calls this; `@github/local-action` imports it). */
export async function run(): Promise<void> {
  // Bundled, this file is dist/request-token/index.js, beside the command-line bundle the refresh runs.
  const cli = { node: process.execPath, script: join(dirname(fileURLToPath(import.meta.url)), 'cli', 'index.js') };
  await requestToken({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-request-token' }), cli });
}
