import type { ActionOctokit } from '../../shared/github.js';
import { writtenBy, type Identity } from './identity.js';
import { codePoints, type ReportLimit } from './summary.js';

/** Marks the gate's own comment, so each run updates it instead of adding another. */
export const COMMENT_MARKER = '<!-- gatehouse-gate -->';

/**
 * GitHub refuses a comment body over 65,536 characters, counted as Unicode code points (an
 * astral emoji is one); the marker and its newline are part of the body.
 */
const COMMENT_MAX_CHARACTERS = 65_536;

/** How long the report in the comment may be, in code points, and how many table rows it shows. */
export const COMMENT_LIMIT: ReportLimit = { maxRows: 100, maxSize: COMMENT_MAX_CHARACTERS - codePoints(`${COMMENT_MARKER}\n`), size: codePoints };

/**
 * Creates or updates the gate's one comment on a pull request (issue comments), paging through the
 * comments to find an earlier one: a comment is the gate's when it starts with the marker and was
 * written by the token's identity, so another user's comment that copies the marker is never
 * edited. Returns the comment's id. Each call is bounded (`pr-comment` in the bounds table); a
 * call without an answer rejects.
 */
export async function upsertComment(octokit: ActionOctokit, repository: { owner: string; repo: string }, pullNumber: number, body: string, identity: Identity): Promise<number> {
  const text = `${COMMENT_MARKER}\n${body}`;
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, { ...repository, issue_number: pullNumber, per_page: 100 })) {
    const mine = page.data.find((c) => c.body?.startsWith(COMMENT_MARKER) && writtenBy(identity, c.user));
    if (mine) {
      await octokit.rest.issues.updateComment({ ...repository, comment_id: mine.id, body: text });
      return mine.id;
    }
  }
  const created = await octokit.rest.issues.createComment({ ...repository, issue_number: pullNumber, body: text });
  return created.data.id;
}
