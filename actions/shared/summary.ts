import type { ActionsCore } from './core.js';

/** Appends markdown to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) it is skipped. */
export async function appendSummary(core: ActionsCore, markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (err) {
    core.debug(`job summary not written: ${err instanceof Error ? err.message : String(err)}`);
  }
}
