import type { HttpClient } from '@actions/http-client';

/** Marks the gate's own comment, so each run updates it instead of adding another. */
export const COMMENT_MARKER = '<!-- gatehouse-gate -->';

export type CommentHttp = Pick<HttpClient, 'getJson' | 'postJson' | 'patchJson'>;

interface Comment {
  id: number;
  body?: string;
}

/**
 * Creates or updates the gate's one comment on a pull request (GitHub REST, issue comments),
 * following `Link` pagination to find an earlier one. Returns the comment's id.
 */
export async function upsertComment(
  http: CommentHttp,
  api: string,
  repository: string,
  pullNumber: number,
  token: string,
  body: string,
): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };
  const text = `${COMMENT_MARKER}\n${body}`;
  let url: string | undefined = `${api}/repos/${repository}/issues/${pullNumber}/comments?per_page=100`;
  while (url) {
    const page = await http.getJson<Comment[]>(url, headers);
    if (page.statusCode !== 200 || !Array.isArray(page.result)) throw new Error(`listing comments answered HTTP ${page.statusCode}`);
    const mine = page.result.find((c) => c.body?.startsWith(COMMENT_MARKER));
    if (mine) {
      const updated = await http.patchJson<Comment>(`${api}/repos/${repository}/issues/comments/${mine.id}`, { body: text }, headers);
      if (updated.statusCode !== 200) throw new Error(`updating the comment answered HTTP ${updated.statusCode}`);
      return mine.id;
    }
    url = nextLink(page.headers.link);
  }
  const created = await http.postJson<Comment>(`${api}/repos/${repository}/issues/${pullNumber}/comments`, { body: text }, headers);
  if (created.statusCode !== 201 || !created.result) throw new Error(`creating the comment answered HTTP ${created.statusCode}`);
  return created.result.id;
}

function nextLink(header: unknown): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : typeof header === 'string' ? header : '';
  return /<([^>]+)>;\s*rel="next"/.exec(value)?.[1];
}
