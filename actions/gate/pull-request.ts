import { GraphqlResponseError } from '@octokit/graphql';
import { RequestError } from '@octokit/request-error';
import { actionOctokit, type ActionOctokit } from '../shared/github.js';
import { NO_EVENT } from '../shared/event.js';
import { integerInput, InputError, optionalInput } from '../shared/inputs.js';
import { callFailure, transportFailure } from '../../server/http/outbound.js';
import type { CiOutcome } from './ci.js';
import { CommitFiles } from './diff/commit-files.js';
import { IdentityUnknown, tokenIdentity, type Identity } from './outputs/identity.js';
import { upsertComment } from './outputs/pr-comment.js';
import { ReviewApi, type PullRequestRef } from './outputs/review-api.js';
import { reviewNotes, syncReviewComments } from './outputs/review-comments.js';
import type { Finding } from './rules/classify.js';
import type { GateCore, GateDeps } from './deps.js';

export const COMMENT_MODES = ['summary', 'review', 'both'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];

export interface PullRequestSettings {
  readonly token: string | undefined;
  readonly mode: CommentMode;
  readonly maxReviewComments: number;
}

/** `token`, `comment-mode` and `max-review-comments`; a value outside their words or range is an input error. */
export function pullRequestSettings(core: GateCore): PullRequestSettings {
  const mode = optionalInput(core, 'comment-mode') ?? 'summary';
  if (!(COMMENT_MODES as readonly string[]).includes(mode)) throw new InputError(`input "comment-mode" must be ${COMMENT_MODES.join(', ')}`);
  const max = integerInput(core, 'max-review-comments') ?? 10;
  if (max < 1 || max > 50) throw new InputError('input "max-review-comments" must be a whole number from 1 to 50');
  return { token: optionalInput(core, 'token'), mode: mode as CommentMode, maxReviewComments: max };
}

/** Why a write was refused for good: the token cannot write there (a fork's pull request, `pull-requests: read`). */
function cannotWrite(err: unknown): string | undefined {
  if (err instanceof RequestError && (err.status === 403 || err.status === 404)) return `HTTP ${err.status}`;
  if (err instanceof GraphqlResponseError) {
    const type = String(err.errors?.[0]?.type ?? '');
    if (type === 'FORBIDDEN' || type === 'NOT_FOUND') return `GraphQL ${type}`;
  }
  return undefined;
}

/**
 * What the gate writes on a pull request, with the token of the `token` input: the one summary
 * comment and, in `review` or `both` mode, inline review comments. None of it changes the gate's
 * answer: a failure is a warning (or, when the token cannot write reviews, a notice, and the
 * summary comment instead).
 */
export class PullRequestFeedback {
  /** Whether the summary comment is written: always but in `review` mode, and there too when inline comments could not be. */
  private summaryComment: boolean;

  private constructor(
    private readonly deps: GateDeps,
    private readonly settings: PullRequestSettings,
    private readonly octokit: ActionOctokit,
    private readonly pr: PullRequestRef,
    private readonly identity: Identity,
    /** `pull_request.head.sha` of the event. */
    private readonly headSha: string | undefined,
  ) {
    this.summaryComment = settings.mode !== 'review';
  }

  /** Undefined without a token or a pull-request event, or when the token's identity cannot be read (a warning says why). */
  static async open(deps: GateDeps, settings: PullRequestSettings): Promise<PullRequestFeedback | undefined> {
    const { env } = deps;
    const event = deps.event ?? NO_EVENT;
    const number = /^pull_request/.test(event.eventName ?? '') ? (event.payload.pull_request as { number?: unknown } | undefined)?.number : undefined;
    const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
    if (!settings.token || typeof number !== 'number' || !owner || !repo) return undefined;
    // GitHub answers a renamed repository's API calls with a redirect to its new address.
    const octokit = actionOctokit(deps.http, 'pr-comment', settings.token, env.GITHUB_API_URL || 'https://api.github.com', { followRedirects: true });
    try {
      const head = (event.payload.pull_request as { head?: { sha?: unknown } } | undefined)?.head?.sha;
      return new PullRequestFeedback(deps, settings, octokit, { owner, repo, number }, await tokenIdentity(octokit, settings.token), typeof head === 'string' && /^[0-9a-f]{40,64}$/.test(head) ? head : undefined);
    } catch (err) {
      warn(deps, 'pull-request comment', err);
      return undefined;
    }
  }

  /**
   * In `review` and `both` modes, brings the inline comments in line with the findings; returns the
   * summary's lines about findings without one.
   */
  async review(outcome: CiOutcome, ranked: readonly Finding[]): Promise<string[]> {
    if (this.settings.mode === 'summary' || !outcome.diff || !outcome.classification) return [];
    const { core } = this.deps;
    const max = this.settings.maxReviewComments;
    try {
      const api = new ReviewApi(this.octokit, this.pr, this.identity);
      const judged = outcome.diff.head;
      // The pull request's own head: the checkout may be its merge commit (actions/checkout's default).
      const commitId = this.headSha ?? judged;
      const files = new CommitFiles(this.deps.cwd);
      const result = await syncReviewComments(api, {
        findings: ranked,
        diff: outcome.diff,
        max,
        commitId,
        lineText: (path, line) => files.lines(judged, path)?.[line - 1],
        sameLines: (path) => commitId === judged || files.lines(judged, path)?.join('\n') === (files.lines(commitId, path)?.join('\n') ?? null),
      });
      core.info(`gate: inline comments: ${result.posted} posted, ${result.edited} edited, ${result.reopened} re-opened, ${result.resolved} resolved`);
      return reviewNotes(result, max);
    } catch (err) {
      this.summaryComment = true;
      const refused = cannotWrite(err);
      if (refused) {
        core.notice(
          `gate: inline review comments not written: the token cannot write pull-request reviews (${refused}), as on a pull request from a fork or with pull-requests: read; the summary comment is written instead. To comment on pull requests from forks, run the gate from a workflow_run workflow (docs/gate.md, "Inline review comments").`,
        );
      } else {
        warn(this.deps, 'inline review comments', err);
      }
      return [];
    }
  }

  /** The one summary comment, updated in place (when this mode writes it). */
  async summary(body: string): Promise<void> {
    if (!this.summaryComment) return;
    try {
      await upsertComment(this.octokit, { owner: this.pr.owner, repo: this.pr.repo }, this.pr.number, body, this.identity);
    } catch (err) {
      warn(this.deps, 'pull-request comment', err);
    }
  }
}

/** A failed write, as one warning line: the identity problem, GitHub's status, or why no answer came. */
function warn(deps: GateDeps, what: string, err: unknown): void {
  let reason: string;
  if (err instanceof IdentityUnknown) reason = `the token's identity is unknown: ${err.message}`;
  else if (err instanceof GraphqlResponseError) reason = `GraphQL ${String(err.errors?.[0]?.type ?? 'error')}`;
  else {
    const failure = callFailure(err);
    reason = !failure ? transportFailure(err) : 'noAnswer' in failure ? failure.noAnswer : `HTTP ${failure.status}`;
  }
  deps.core.warning(`gate: ${what} not written (${reason})`);
}
