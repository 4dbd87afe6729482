import { readFileSync } from 'node:fs';
import type { EventContext } from '../shared/event.js';

/**
 * The workflow's event for the `gate` command line, read from the runner's event file the way
 * `@actions/github`'s `context` reads it (an absent or unreadable file is no payload). The command
 * line does not import `@actions/github`: that would make its bundle eight times larger (and
 * slower to start) for two fields.
 */
export function runnerEvent(env: NodeJS.ProcessEnv): EventContext {
  let payload: Record<string, unknown> = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
    } catch {
      // No readable event: no default base.
    }
  }
  return { eventName: env.GITHUB_EVENT_NAME, payload };
}
