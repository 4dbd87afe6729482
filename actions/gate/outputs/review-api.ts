import { systemClock, type WaitingClock } from '../../../server/clock.js';
import type { ActionOctokit } from '../../shared/github.js';
import { writtenBy, type Identity } from './identity.js';

/** Starts every inline comment of the gate: the finding's fingerprint (`fingerprint.ts`). */
export const findingMarker = (fingerprint: string): string => `<!-- gatehouse-finding:${fingerprint} -->`;
const MARKER = /^<!-- gatehouse-finding:([0-9a-f]{24}(?:-\d+)?) -->/;

// GraphQL documents (exported for the check against GitHub's published schema).
export const REVIEW_THREADS = `query GatehouseReviewThreads($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 1) { nodes { databaseId } } }
      }
    }
  }
}`;
export const RESOLVE_THREAD = 'mutation GatehouseResolveThread($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id isResolved } } }';
export const UNRESOLVE_THREAD = 'mutation GatehouseUnresolveThread($id: ID!) { unresolveReviewThread(input: { threadId: $id }) { thread { id isResolved } } }';

/** One of the gate's inline comments, with the thread it started. */
export interface OwnComment {
  readonly id: number;
  readonly fingerprint: string;
  readonly body: string;
  readonly threadId: string | undefined;
  readonly resolved: boolean;
}

export interface PullRequestRef {
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

/** GitHub asks integrations to leave a second between requests that create or change content. */
const WRITE_SPACING_MS = 1000;

/**
 * The gate's inline comments on one pull request: found by marker and author (another user's
 * comment or thread is never touched), written one review per run, edited and resolved in place.
 * Writes are spaced a second apart. Every call is bounded by the Octokit it is given.
 */
export class ReviewApi {
  private lastWrite: number | undefined;

  constructor(
    private readonly octokit: ActionOctokit,
    private readonly pr: PullRequestRef,
    private readonly identity: Identity,
    private readonly clock: WaitingClock = systemClock,
  ) {}

  /** The gate's own top-level review comments, each with its thread (id, resolved). */
  async ownComments(): Promise<OwnComment[]> {
    const { owner, repo, number } = this.pr;
    const comments = await this.octokit.paginate(this.octokit.rest.pulls.listReviewComments, { owner, repo, pull_number: number, per_page: 100 });
    const mine = comments.filter((c) => !c.in_reply_to_id && MARKER.test(c.body) && writtenBy(this.identity, c.user));
    if (mine.length === 0) return [];
    const threads = new Map<number, { id: string; resolved: boolean }>();
    for (let after: string | null = null; ; ) {
      type Page = { repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { id: string; isResolved: boolean; comments: { nodes: { databaseId: number | null }[] } }[] } } | null } | null };
      const page: Page = await this.octokit.graphql<Page>(REVIEW_THREADS, { owner, repo, number, after });
      const connection = page.repository?.pullRequest?.reviewThreads;
      for (const thread of connection?.nodes ?? []) {
        const first = thread.comments.nodes[0]?.databaseId;
        if (typeof first === 'number') threads.set(first, { id: thread.id, resolved: thread.isResolved });
      }
      if (!connection?.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return mine.map((c) => ({ id: c.id, fingerprint: MARKER.exec(c.body)![1]!, body: c.body, threadId: threads.get(c.id)?.id, resolved: threads.get(c.id)?.resolved ?? false }));
  }

  /** One review (`event: COMMENT`) on the head commit with a comment on each finding's line. */
  postReview(commitId: string, comments: readonly { path: string; line: number; body: string }[]): Promise<unknown> {
    const { owner, repo, number } = this.pr;
    return this.write(() =>
      this.octokit.rest.pulls.createReview({ owner, repo, pull_number: number, commit_id: commitId, event: 'COMMENT', comments: comments.map((c) => ({ ...c, side: 'RIGHT' as const })) }),
    );
  }

  edit(commentId: number, body: string): Promise<unknown> {
    const { owner, repo } = this.pr;
    return this.write(() => this.octokit.rest.pulls.updateReviewComment({ owner, repo, comment_id: commentId, body }));
  }

  setResolved(threadId: string, resolved: boolean): Promise<unknown> {
    return this.write(() => this.octokit.graphql(resolved ? RESOLVE_THREAD : UNRESOLVE_THREAD, { id: threadId }));
  }

  private async write<T>(call: () => Promise<T>): Promise<T> {
    const wait = this.lastWrite === undefined ? 0 : this.lastWrite + WRITE_SPACING_MS - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
    try {
      return await call();
    } finally {
      this.lastWrite = this.clock.now();
    }
  }
}
