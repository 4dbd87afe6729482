import { jsonObject, type ActionHttp } from '../shared/http.js';
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

interface Comment {
  id: number;
  body?: string;
}

function comments(text: string): Comment[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as Comment[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates or updates the gate's one comment on a pull request (GitHub REST, issue comments),
 * following `Link` pagination to find an earlier one. Returns the comment's id. Each call is
 * bounded (`pr-comment` in the bounds table); a call without an answer rejects.
 */
export async function upsertComment(http: ActionHttp, api: string, repository: string, pullNumber: number, token: string, body: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'content-type': 'application/json' };
  const text = JSON.stringify({ body: `${COMMENT_MARKER}\n${body}` });
  // GitHub answers a renamed repository's API calls with a redirect to its new address.
  const send = (url: string, init: { method?: string; body?: string } = {}) => http.call('pr-comment', url, { ...init, headers, redirect: 'follow' });
  let url: string | undefined = `${api}/repos/${repository}/issues/${pullNumber}/comments?per_page=100`;
  while (url) {
    const page = await send(url);
    const listed = comments(page.text);
    if (page.status !== 200 || !listed) throw new Error(`listing comments answered HTTP ${page.status}`);
    const mine = listed.find((c) => c.body?.startsWith(COMMENT_MARKER));
    if (mine) {
      const updated = await send(`${api}/repos/${repository}/issues/comments/${mine.id}`, { method: 'PATCH', body: text });
      if (updated.status !== 200) throw new Error(`updating the comment answered HTTP ${updated.status}`);
      return mine.id;
    }
    url = nextLink(page.headers.get('link'));
  }
  const created = await send(`${api}/repos/${repository}/issues/${pullNumber}/comments`, { method: 'POST', body: text });
  const id = jsonObject(created.text)?.id;
  if (created.status !== 201 || typeof id !== 'number') throw new Error(`creating the comment answered HTTP ${created.status}`);
  return id;
}

function nextLink(header: string | null): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(header ?? '')?.[1];
}
