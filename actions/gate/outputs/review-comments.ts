import { codeSpan, inlineText, scannerMessage } from '../../../server/markdown.js';
import type { PullRequestDiff } from '../diff/git-diff.js';
import { messageOf, type Finding } from '../rules/classify.js';
import { SEVERITIES } from '../rules/severity.js';
import { byPlace, fingerprints } from './fingerprint.js';
import { findingMarker, type OwnComment, type ReviewApi } from './review-api.js';

/** What a run did with inline comments, for the step's log and the summary's lines. */
export interface ReviewResult {
  readonly posted: number;
  readonly edited: number;
  readonly reopened: number;
  readonly resolved: number;
  /** Net-new findings on lines of the diff with no inline comment: past `max-review-comments`. */
  readonly leftOut: number;
  /** Net-new findings not on a line of the pull request's diff (or in a file whose lines the merge commit moved): GitHub takes review comments only there. */
  readonly notOnDiff: number;
}

export interface ReviewInput {
  /** The net-new findings, worst first. */
  readonly findings: readonly Finding[];
  readonly diff: PullRequestDiff;
  /** At most this many of the gate's inline comments are open at once. */
  readonly max: number;
  /** A line of the head commit (for the fingerprints). */
  readonly lineText: (path: string, line: number) => string | undefined;
  /** The pull request's head commit, which review comments are put on. */
  readonly commitId: string;
  /**
   * Whether a file's lines are the same in the pull request's head as in the commit judged (a
   * merge commit when the checkout is the pull request's merge ref): only then can a finding's
   * line be given to GitHub as it is.
   */
  readonly sameLines: (path: string) => boolean;
}

const onDiff = (input: ReviewInput, f: Finding): boolean => {
  const added = input.diff.files.get(f.path);
  return f.startLine !== undefined && (added === 'all' || (added !== undefined && added.has(f.startLine))) && input.sameLines(f.path);
};

/** Worst first: severity, then path, then line. */
const worstFirst = (a: Finding, b: Finding): number => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || byPlace(a, b);

/** The comment on a finding: the same text on every run while the finding is the same, so it is edited only when that changes. */
export function commentBody(finding: Finding, fingerprint: string): string {
  const rule = finding.ruleId ? ` · ${codeSpan(finding.ruleId)}` : '';
  const message = messageOf(finding).slice(0, 500);
  return `${findingMarker(fingerprint)}\n**Gatehouse gate** · net-new **${finding.severity}** finding${finding.blocking ? ' (blocking)' : ''} · ${inlineText(finding.tool)}${rule}${message ? `\n\n${scannerMessage(message)}` : ''}`;
}

const CLOSED_NOTE = '\n\n✅ No longer reported';

/** The comment once its finding is no longer reported: its text, and why its thread was resolved. */
const closedBody = (comment: OwnComment, head: string): string => `${comment.body}${CLOSED_NOTE} as of ${head.slice(0, 12)} (fixed, or no longer net-new).`;

/**
 * Brings the gate's inline comments in line with this run's findings, one comment per finding for
 * the life of the pull request:
 * - a finding on a line of the diff without a comment gets one (all of this run's new comments in
 *   one review), while fewer than `max` of the gate's comments are open, worst first;
 * - a finding that keeps its comment is left alone, its text edited only when it changed; one
 *   that moved keeps its comment where it was (the fingerprint has no line number);
 * - a comment whose finding is no longer reported has its thread resolved and says so; a finding
 *   that comes back re-opens its thread instead of getting a second comment.
 * Open comments of findings still reported are never resolved to make room: `max` limits the new ones.
 */
export async function syncReviewComments(api: ReviewApi, input: ReviewInput): Promise<ReviewResult> {
  const head = input.commitId;
  // Every net-new finding is still reported, whether or not its line can take a comment this run
  // (a merge commit whose base changed the file, a finding off the diff): its comment stays open,
  // and the ordinals of twin findings (`-2`, `-3`) are counted among all of them, so they do not
  // shift when one twin leaves the diff.
  const prints = fingerprints(input.findings, input.lineText);
  const reported = [...input.findings].sort(worstFirst);
  const own = await api.ownComments();
  const byPrint = new Map(own.map((c) => [c.fingerprint, c]));
  const current = new Set(prints.values());

  let open = own.filter((c) => !c.resolved && current.has(c.fingerprint)).length;
  let edited = 0;
  let reopened = 0;
  let leftOut = 0;
  let notOnDiff = 0;
  const fresh: { path: string; line: number; body: string }[] = [];
  for (const finding of reported) {
    const print = prints.get(finding)!;
    const body = commentBody(finding, print);
    const existing = byPrint.get(print);
    // A thread someone resolved by hand (not the gate, whose note says so) is their call: left as it is.
    if (existing?.resolved && !existing.body.includes(CLOSED_NOTE)) continue;
    if (!existing && !onDiff(input, finding)) {
      notOnDiff++;
      continue;
    }
    if (existing && !existing.resolved) {
      if (existing.body !== body) {
        await api.edit(existing.id, body);
        edited++;
      }
    } else if (open >= input.max) {
      leftOut++;
    } else if (existing) {
      if (existing.threadId) await api.setResolved(existing.threadId, false);
      if (existing.body !== body) await api.edit(existing.id, body);
      reopened++;
      open++;
    } else {
      fresh.push({ path: finding.path, line: finding.startLine!, body });
      open++;
    }
  }
  if (fresh.length > 0) await api.postReview(head, fresh);

  let resolved = 0;
  for (const comment of own) {
    if (comment.resolved || current.has(comment.fingerprint)) continue;
    if (comment.threadId) await api.setResolved(comment.threadId, true);
    await api.edit(comment.id, closedBody(comment, head));
    resolved++;
  }
  return { posted: fresh.length, edited, reopened, resolved, leftOut, notOnDiff };
}

/** The summary's lines about what has no inline comment. */
export function reviewNotes(result: ReviewResult, max: number): string[] {
  const notes: string[] = [];
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (result.leftOut > 0) notes.push(`${plural(result.leftOut, 'net-new finding on a line of the diff has', 'net-new findings on lines of the diff have')} no inline comment: at most ${max} of the gate's inline comments are open at once (\`max-review-comments\`).`);
  if (result.notOnDiff > 0) notes.push(`${plural(result.notOnDiff, 'net-new finding is', 'net-new findings are')} not on a line of the pull request's diff, where GitHub takes review comments: listed here only.`);
  return notes;
}
