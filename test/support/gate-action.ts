import type { AnnotationProperties } from '@actions/core';
import type { GateCore } from '../../actions/gate/run.js';
import { RecordingCore } from './runner.js';
import { simpleUser } from './github-objects.js';
import { listen, readBody, type Listening } from './servers.js';

/** A recording core that also keeps the gate's error annotations. */
export class GateRecordingCore extends RecordingCore implements GateCore {
  readonly annotations: { message: string; properties: AnnotationProperties }[] = [];
  error = (message: string | Error, properties: AnnotationProperties = {}) => void this.annotations.push({ message: String(message), properties });
}

/** Code points, counted without the code under test: what GitHub counts against a comment's 65,536 characters. */
export const characters = (text: string): number => [...text].length;

export interface CommentServerOptions {
  /** Refuse (HTTP 422, as GitHub does) a body over this many code points; GitHub's limit is 65,536. */
  readonly maxBodyCharacters?: number;
  /** Who the token writes as (GraphQL's `viewer`); default the Actions token's bot. */
  readonly login?: string;
}

/** An issue comment as the fake keeps it: its author as REST names it (`user`). */
export interface FakeComment {
  id: number;
  body: string;
  user?: Record<string, unknown>;
}

export type CommentServer = Listening & { comments: FakeComment[]; calls: string[]; failNext: boolean };

/** A REST `simple-user` for a comment's author. */
export const commentAuthor = (login: string, type: 'User' | 'Bot' = 'User'): Record<string, unknown> => simpleUser('https://api.github.com', login, 7, type);

/**
 * GitHub's issue-comment endpoints for pull request 7 of octo-org/octo-repo, with Link pagination
 * (2 per page), and GraphQL's `viewer` (who the token writes as).
 */
export async function commentServer(token: string, options: CommentServerOptions = {}): Promise<CommentServer> {
  const login = options.login ?? 'github-actions[bot]';
  const state = { comments: [] as FakeComment[], calls: [] as string[], failNext: false };
  const server = await listen(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    state.calls.push(`${req.method} ${url.pathname}`);
    const body = await readBody(req);
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) =>
      void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(data));
    // GitHub takes a token as `Bearer` or `token` (what @actions/github sends).
    if (req.headers.authorization !== `Bearer ${token}` && req.headers.authorization !== `token ${token}`) return send(401, { message: 'Bad credentials' });
    if (state.failNext) {
      state.failNext = false;
      return send(500, { message: 'Server Error' });
    }
    const written = () => {
      const text = (JSON.parse(body) as { body: string }).body;
      const max = options.maxBodyCharacters;
      return max !== undefined && characters(text) > max ? undefined : text;
    };
    const tooLong = () =>
      send(422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: `body is too long (maximum is ${options.maxBodyCharacters} characters)` }] });
    if (req.method === 'GET' && url.pathname === '/repos/octo-org/octo-repo/issues/7/comments') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const items = state.comments.slice((page - 1) * 2, page * 2);
      const more = state.comments.length > page * 2;
      return send(200, items, more ? { link: `<http://127.0.0.1:${(server.server.address() as { port: number }).port}${url.pathname}?per_page=2&page=${page + 1}>; rel="next"` } : {});
    }
    if (req.method === 'POST' && url.pathname === '/repos/octo-org/octo-repo/issues/7/comments') {
      const text = written();
      if (text === undefined) return tooLong();
      const comment = { id: 1000 + state.comments.length, body: text, user: commentAuthor(login, login.endsWith('[bot]') ? 'Bot' : 'User') };
      state.comments.push(comment);
      return send(201, comment);
    }
    const patch = /^\/repos\/octo-org\/octo-repo\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (req.method === 'PATCH' && patch) {
      const comment = state.comments.find((c) => c.id === Number(patch[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      const text = written();
      if (text === undefined) return tooLong();
      comment.body = text;
      return send(200, comment);
    }
    if (req.method === 'POST' && url.pathname === '/graphql') {
      const { query } = JSON.parse(body) as { query: string };
      if (/^\s*query\s*\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query)) return send(200, { data: { viewer: { login } } });
      return send(200, { data: null, errors: [{ type: 'INTERNAL', message: 'the fake answers only viewer { login }' }] });
    }
    send(404, { message: 'Not Found' });
  });
  // The handler reads `state`, so the returned object must be `state` itself.
  return Object.assign(state, server);
}
