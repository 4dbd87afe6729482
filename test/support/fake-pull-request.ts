import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildClientSchema, graphql, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { schema as githubSchema } from '@octokit/graphql-schema';
import { simpleUser } from './github-objects.js';
import { listen, readBody, type Listening } from './servers.js';

/** GitHub's GraphQL schema, built once: the fake executes every document against it. */
let builtSchema: GraphQLSchema | undefined;
const schema = (): GraphQLSchema => (builtSchema ??= buildClientSchema(((githubSchema.json as { data?: unknown }).data ?? githubSchema.json) as IntrospectionQuery));

const githubTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const NOT_ACCESSIBLE = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' };

export interface FakeIssueComment {
  readonly id: number;
  body: string;
  /** REST `simple-user`; comments seeded by a test may have none. */
  readonly user?: Record<string, unknown>;
}

export interface FakeReviewComment {
  readonly id: number;
  readonly reviewId: number;
  readonly path: string;
  readonly line: number;
  readonly commitId: string;
  readonly inReplyTo?: number;
  body: string;
  readonly user: Record<string, unknown>;
  readonly createdAt: number;
  updatedAt: number;
}

export interface FakeThread {
  readonly id: string;
  /** The review comment that started it. */
  readonly first: number;
  resolved: boolean;
}

export interface FakePullRequestOptions {
  /** The token the fake accepts (as `Bearer` or `token`). */
  readonly token: string;
  /** Who that token writes as (GraphQL's `viewer`; REST comment authors). Default the Actions token's bot. */
  readonly login?: string;
  readonly owner?: string;
  readonly repo?: string;
  readonly number?: number;
  /** Lines a review comment may be put on, by path (the lines of the pull request's diff). */
  readonly diffLines?: ReadonlyMap<string, ReadonlySet<number> | 'all'>;
  /** Most items a page holds, whatever `per_page` asks (tests of paging). */
  readonly maxPageSize?: number;
  /** Refuse (422, as GitHub does) an issue comment over this many code points. */
  readonly maxBodyCharacters?: number;
}

/**
 * One pull request of GitHub, with the state its comments have: issue comments (the gate's
 * summary), reviews and their review comments, review threads and their resolution. REST answers
 * are GitHub's documented shapes (checked against the published description in a test); GraphQL
 * documents are executed against GitHub's published schema, so a field GitHub does not have is
 * refused as GitHub refuses it. `readOnly` answers writes as GitHub answers a token that cannot
 * write (a fork's pull request, `pull-requests: read`).
 */
export class FakePullRequest {
  readonly issueComments: FakeIssueComment[] = [];
  readonly reviewComments: FakeReviewComment[] = [];
  readonly threads: FakeThread[] = [];
  readonly reviews: { id: number; commitId: string; body: string }[] = [];
  /** `METHOD path` of every request, in order (GraphQL as `POST /graphql <operation>`). */
  readonly calls: string[] = [];
  readOnly = false;
  failNext = false;
  /** Lines a review comment may be put on, by path: the head commit's diff, which a push changes. */
  diffLines: ReadonlyMap<string, ReadonlySet<number> | 'all'>;
  private nextId = 1000;

  private constructor(
    private readonly listening: Listening,
    private readonly options: FakePullRequestOptions,
  ) {
    this.diffLines = options.diffLines ?? new Map();
  }

  static async start(options: FakePullRequestOptions): Promise<FakePullRequest> {
    let fake!: FakePullRequest;
    const listening = await listen((req, res) => void fake.handle(req, res));
    fake = new FakePullRequest(listening, options);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  get login(): string {
    return this.options.login ?? 'github-actions[bot]';
  }

  /** A REST author for a comment a test seeds. */
  author(login: string, type: 'User' | 'Bot' = 'User'): Record<string, unknown> {
    return simpleUser(`${this.url}`, login, 7, type);
  }

  private get repoPath(): string {
    return `/repos/${this.options.owner ?? 'octo-org'}/${this.options.repo ?? 'octo-repo'}`;
  }

  private get number(): number {
    return this.options.number ?? 7;
  }

  private id(): number {
    return this.nextId++;
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(status === 204 ? undefined : JSON.stringify(body));
  }

  private page(req: IncomingMessage, res: ServerResponse, url: URL, items: readonly unknown[]): void {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100, this.options.maxPageSize ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const headers: Record<string, string> = {};
    if (page * perPage < items.length) {
      const next = new URL(`${this.url}${url.pathname}`);
      next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.href}>; rel="next"`;
    }
    this.send(res, 200, items.slice((page - 1) * perPage, page * perPage), headers);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const { token } = this.options;
    if (req.headers.authorization !== `Bearer ${token}` && req.headers.authorization !== `token ${token}`) {
      return this.send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    }
    if (url.pathname === '/graphql' && req.method === 'POST') return this.graphql(res, body);
    this.calls.push(`${req.method} ${url.pathname}`);
    if (this.failNext) {
      this.failNext = false;
      return this.send(res, 500, { message: 'Server Error' });
    }
    const writing = req.method !== 'GET';
    if (writing && this.readOnly) return this.send(res, 403, NOT_ACCESSIBLE);
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const base = this.repoPath;
    const pull = `${base}/pulls/${this.number}`;
    const issue = `${base}/issues/${this.number}`;
    if (url.pathname === `${issue}/comments` && req.method === 'GET') return this.page(req, res, url, this.issueComments.map((c) => this.issueCommentView(c)));
    if (url.pathname === `${issue}/comments` && req.method === 'POST') {
      const text = String(input.body ?? '');
      if (this.tooLong(text)) return this.send(res, 422, this.validationFailed('IssueComment', `body is too long (maximum is ${this.options.maxBodyCharacters} characters)`));
      const comment = { id: this.id(), body: text, user: this.author(this.login, this.login.endsWith('[bot]') ? 'Bot' : 'User') };
      this.issueComments.push(comment);
      return this.send(res, 201, this.issueCommentView(comment));
    }
    const issueComment = new RegExp(`^${base}/issues/comments/(\\d+)$`).exec(url.pathname);
    if (issueComment && req.method === 'PATCH') {
      const comment = this.issueComments.find((c) => c.id === Number(issueComment[1]));
      if (!comment) return this.send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
      if (comment.user?.login !== this.login) return this.send(res, 403, NOT_ACCESSIBLE);
      const text = String(input.body ?? '');
      if (this.tooLong(text)) return this.send(res, 422, this.validationFailed('IssueComment', `body is too long (maximum is ${this.options.maxBodyCharacters} characters)`));
      comment.body = text;
      return this.send(res, 200, this.issueCommentView(comment));
    }
    if (url.pathname === `${pull}/comments` && req.method === 'GET') return this.page(req, res, url, this.reviewComments.map((c) => this.reviewCommentView(c)));
    if (url.pathname === `${pull}/reviews` && req.method === 'POST') return this.createReview(res, input);
    const reviewComment = new RegExp(`^${base}/pulls/comments/(\\d+)$`).exec(url.pathname);
    if (reviewComment && req.method === 'PATCH') {
      const comment = this.reviewComments.find((c) => c.id === Number(reviewComment[1]));
      if (!comment) return this.send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
      if (comment.user.login !== this.login) return this.send(res, 403, NOT_ACCESSIBLE);
      comment.body = String(input.body ?? '');
      comment.updatedAt = Date.now();
      return this.send(res, 200, this.reviewCommentView(comment));
    }
    this.send(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  }

  private tooLong(text: string): boolean {
    const max = this.options.maxBodyCharacters;
    return max !== undefined && [...text].length > max;
  }

  private validationFailed(resource: string, message: string): Record<string, unknown> {
    return { message: 'Validation Failed', errors: [{ resource, code: 'custom', field: 'body', message }], documentation_url: 'https://docs.github.com/rest', status: '422' };
  }

  /** `POST …/pulls/{n}/reviews`: one review, its comments each starting a thread; a comment off the diff refuses the whole review, as GitHub does. */
  private createReview(res: ServerResponse, input: Record<string, unknown>): void {
    const comments = (Array.isArray(input.comments) ? input.comments : []) as { path?: string; line?: number; side?: string; body?: string }[];
    const commitId = String(input.commit_id ?? '');
    for (const c of comments) {
      const lines = this.diffLines.get(c.path ?? '');
      const onDiff = lines === 'all' || (lines !== undefined && lines.has(Number(c.line)));
      if (!onDiff || (c.side ?? 'RIGHT') !== 'RIGHT') {
        return this.send(res, 422, { message: 'Unprocessable Entity', errors: ['Line could not be resolved'], documentation_url: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request', status: '422' });
      }
    }
    const review = { id: this.id(), commitId, body: String(input.body ?? '') };
    this.reviews.push(review);
    const user = this.author(this.login, this.login.endsWith('[bot]') ? 'Bot' : 'User');
    for (const c of comments) {
      const comment: FakeReviewComment = { id: this.id(), reviewId: review.id, path: c.path!, line: Number(c.line), commitId, body: String(c.body ?? ''), user, createdAt: Date.now(), updatedAt: Date.now() };
      this.reviewComments.push(comment);
      this.threads.push({ id: `PRRT_${comment.id}`, first: comment.id, resolved: false });
    }
    this.send(res, 200, this.reviewView(review, user));
  }

  private async graphql(res: ServerResponse, body: string): Promise<void> {
    const { query, variables, operationName } = JSON.parse(body) as { query: string; variables?: Record<string, unknown>; operationName?: string };
    this.calls.push(`POST /graphql ${/\b(query|mutation)\s+(\w+)/.exec(query)?.[2] ?? /\{\s*(\w+)/.exec(query)?.[1] ?? ''}`.trim());
    const result = await graphql({ schema: schema(), source: query, variableValues: variables ?? null, operationName: operationName ?? null, rootValue: this.root() });
    if (result.errors?.length) {
      // GitHub answers 200 with `errors` (and `data` null) for a document it refuses.
      return this.send(res, 200, { data: result.data ?? null, errors: result.errors.map((e) => ({ type: this.readOnly && /not accessible/.test(e.message) ? 'FORBIDDEN' : 'INVALID', message: e.message, path: e.path })) });
    }
    this.send(res, 200, { data: result.data });
  }

  /** What the schema's fields resolve to: only what a pull request's comments need; the rest is null. */
  private root(): Record<string, unknown> {
    const threadView = (t: FakeThread) => {
      const comments = this.reviewComments.filter((c) => c.id === t.first || c.inReplyTo === t.first);
      const first = comments[0]!;
      return {
        __typename: 'PullRequestReviewThread',
        id: t.id,
        isResolved: t.resolved,
        isOutdated: false,
        path: first.path,
        line: first.line,
        comments: ({ first: n }: { first?: number }) => ({
          totalCount: comments.length,
          nodes: comments.slice(0, n ?? 100).map((c) => ({
            __typename: 'PullRequestReviewComment',
            id: `PRRC_${c.id}`,
            databaseId: c.id,
            body: c.body,
            author: { __typename: String(c.user.type) === 'Bot' ? 'Bot' : 'User', login: String(c.user.login).replace(/\[bot\]$/, '') },
          })),
        }),
      };
    };
    const guard = () => {
      if (this.readOnly) throw new Error('Resource not accessible by integration');
    };
    const setResolved = (resolved: boolean) => ({ input }: { input: { threadId: string } }) => {
      guard();
      const thread = this.threads.find((t) => t.id === input.threadId);
      if (!thread) throw new Error(`Could not resolve to a node with the global id of '${input.threadId}'`);
      thread.resolved = resolved;
      return { thread: threadView(thread) };
    };
    return {
      viewer: () => ({ __typename: 'User', login: this.login }),
      repository: ({ owner, name }: { owner: string; name: string }) =>
        owner !== (this.options.owner ?? 'octo-org') || name !== (this.options.repo ?? 'octo-repo')
          ? null
          : {
              pullRequest: ({ number }: { number: number }) =>
                number !== this.number
                  ? null
                  : {
                      number,
                      reviewThreads: ({ first, after }: { first?: number; after?: string }) => {
                        const start = after ? Number(Buffer.from(after, 'base64').toString()) : 0;
                        const slice = this.threads.slice(start, start + (first ?? 100));
                        const end = start + slice.length;
                        return {
                          totalCount: this.threads.length,
                          pageInfo: { hasNextPage: end < this.threads.length, endCursor: Buffer.from(String(end)).toString('base64') },
                          nodes: slice.map(threadView),
                        };
                      },
                    },
            },
      resolveReviewThread: setResolved(true),
      unresolveReviewThread: setResolved(false),
    };
  }

  private issueCommentView(c: FakeIssueComment): Record<string, unknown> {
    const api = `${this.url}${this.repoPath}`;
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      url: `${api}/issues/comments/${c.id}`,
      html_url: `${this.url}${this.repoPath.replace('/repos', '')}/pull/${this.number}#issuecomment-${c.id}`,
      body: c.body,
      user: c.user ?? null,
      created_at: githubTime(Date.now()),
      updated_at: githubTime(Date.now()),
      issue_url: `${api}/issues/${this.number}`,
      author_association: 'NONE',
    };
  }

  private reviewCommentView(c: FakeReviewComment): Record<string, unknown> {
    const api = `${this.url}${this.repoPath}`;
    const html = `${this.url}${this.repoPath.replace('/repos', '')}/pull/${this.number}#discussion_r${c.id}`;
    return {
      url: `${api}/pulls/comments/${c.id}`,
      pull_request_review_id: c.reviewId,
      id: c.id,
      node_id: `PRRC_${c.id}`,
      diff_hunk: `@@ -0,0 +${c.line} @@`,
      path: c.path,
      commit_id: c.commitId,
      original_commit_id: c.commitId,
      ...(c.inReplyTo ? { in_reply_to_id: c.inReplyTo } : {}),
      user: c.user,
      body: c.body,
      created_at: githubTime(c.createdAt),
      updated_at: githubTime(c.updatedAt),
      html_url: html,
      pull_request_url: `${api}/pulls/${this.number}`,
      author_association: 'NONE',
      _links: { self: { href: `${api}/pulls/comments/${c.id}` }, html: { href: html }, pull_request: { href: `${api}/pulls/${this.number}` } },
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
      subject_type: 'line',
    };
  }

  private reviewView(r: { id: number; commitId: string; body: string }, user: Record<string, unknown>): Record<string, unknown> {
    const api = `${this.url}${this.repoPath}`;
    const html = `${this.url}${this.repoPath.replace('/repos', '')}/pull/${this.number}#pullrequestreview-${r.id}`;
    return {
      id: r.id,
      node_id: `PRR_${createHash('sha1').update(String(r.id)).digest('hex').slice(0, 12)}`,
      user,
      body: r.body,
      state: 'COMMENTED',
      html_url: html,
      pull_request_url: `${api}/pulls/${this.number}`,
      _links: { html: { href: html }, pull_request: { href: `${api}/pulls/${this.number}` } },
      submitted_at: githubTime(Date.now()),
      commit_id: r.commitId,
      author_association: 'NONE',
    };
  }
}
