import type { ActionsCore } from '../shared/core.js';
import { git, gitText } from '../shared/git.js';
import { NO_EVENT, type EventContext } from '../shared/event.js';
import { InputError, optionalInput } from '../shared/inputs.js';

/** A date-time with seconds and an offset, as git's `%cI` and GitHub's event payloads write it. */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const GIT_TIMEOUT_MS = 10_000;
/** A commit named by its object id: anything else is not looked up (no option or revision syntax reaches git). */
const OBJECT_ID = /^[0-9a-f]{4,64}$/i;

/**
 * The instant of an ISO 8601 date-time with an offset, as UTC text the ledger accepts; undefined
 * for anything else, impossible dates included (`Date` would roll February 30 over into March).
 */
export function isoInstant(text: string): string | undefined {
  const match = ISO_WITH_OFFSET.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  if (calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  const instant = new Date(text.trim());
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
}

/** The committer date of `commit` in the checkout, or undefined (no checkout, a shallow clone without it, no git, past its bound). */
async function committerDate(workspace: string, commit: string): Promise<string | undefined> {
  try {
    const shown = await git(workspace, ['show', '--no-patch', '--format=%cI', `${commit}^{commit}`], { timeoutMs: GIT_TIMEOUT_MS });
    return shown.code === 0 ? isoInstant(gitText(shown)) : undefined;
  } catch {
    // GitUnavailable: not installed, or it did not finish within the bound.
    return undefined;
  }
}

/** The push event's head commit time, when that commit is the one recorded. */
function pushedHeadCommitTime(event: EventContext, commit: string): string | undefined {
  if (event.eventName !== 'push') return undefined;
  const head = event.payload.head_commit as { id?: unknown; timestamp?: unknown } | null | undefined;
  if (typeof head?.id !== 'string' || head.id.toLowerCase() !== commit.toLowerCase() || typeof head.timestamp !== 'string') return undefined;
  return isoInstant(head.timestamp);
}

/**
 * `committed_at` of the record: the `committed-at` input (a bad value fails the step, as other
 * inputs do), else the commit's committer date from the checkout, else the push event's head
 * commit timestamp (the same commit only), else nothing. A lookup that fails only leaves the field out.
 */
export async function committedAt(core: ActionsCore, env: NodeJS.ProcessEnv, commit: string | undefined, event: EventContext = NO_EVENT): Promise<string | undefined> {
  const input = optionalInput(core, 'committed-at');
  if (input !== undefined) {
    const instant = isoInstant(input);
    if (!instant) throw new InputError('input "committed-at" must be an ISO 8601 date-time with seconds and an offset (for example 2026-11-20T10:30:00+02:00)');
    return instant;
  }
  if (!commit || !OBJECT_ID.test(commit)) return undefined;
  const fromCheckout = env.GITHUB_WORKSPACE ? await committerDate(env.GITHUB_WORKSPACE, commit) : undefined;
  if (fromCheckout) return fromCheckout;
  const fromEvent = pushedHeadCommitTime(event, commit);
  if (!fromEvent) core.debug(`committed_at left out: commit ${commit} is neither in the checkout nor the push event's head commit`);
  return fromEvent;
}
