import type { ActionsCore } from './core.js';

/** Appends markdown to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) it is skipped. */
export async function appendSummary(core: ActionsCore, markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (err) {
    core.debug(`job summary not written: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Escapes text for a markdown table cell. */
export const cell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

/**
 * Text a report chose (a linter's message, a rule id), shown in a pull-request comment or summary:
 * a zero-width space after `@` and `#` keeps it from mentioning anyone or cross-referencing an issue.
 */
export const inert = (text: string): string => text.replace(/([@#])/g, '$1\u200b');
