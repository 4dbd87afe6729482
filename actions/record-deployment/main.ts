import * as core from '@actions/core';
import { context } from '@actions/github';
import { actionHttp } from '../shared/http.js';
import { run as recordDeployment } from './run.js';

/** The record-deployment action as the runner runs it (index.ts calls this; `@github/local-action` imports it). */
export async function run(): Promise<void> {
  await recordDeployment({ core, env: process.env, http: actionHttp({ userAgent: 'gatehouse-record-deployment' }), event: context });
}
