import * as core from '@actions/core';
import { runSyncAction } from './run.js';

/** The sync action as the runner runs it (index.ts calls this; `@github/local-action` imports it). */
export async function run(): Promise<void> {
  await runSyncAction({ core, env: process.env });
}
