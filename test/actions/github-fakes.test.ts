import assert from 'node:assert/strict';
import { FakeDeployments } from '../support/fake-deployments.js';
import { FakePullRequest } from '../support/fake-pull-request.js';
import { GitHubDescription } from '../support/github-openapi.js';

/**
 * The pull-request fake the gate is tested against answers as GitHub's published description says
 * (REST), and runs GraphQL documents against GitHub's published schema.
 */
describe("the pull-request fake matches GitHub's published description and schema", function () {
  this.timeout(60_000);
  let github: GitHubDescription;
  let pr: FakePullRequest;

  before(() => {
    github = new GitHubDescription();
  });
  beforeEach(async () => {
    pr = await FakePullRequest.start({ token: 'pr-token', diffLines: new Map([['src/app.js', new Set([3, 4])]]) });
  });
  afterEach(() => pr.close());

  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${pr.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: 'Bearer pr-token', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  const query = async (document: string, variables: Record<string, unknown> = {}) => (await (await call('/graphql', { method: 'POST', body: { query: document, variables } })).json()) as { data: any; errors?: { type: string; message: string }[] };
  const valid = async (res: Response, path: string, method: string, status: number, what: string) => {
    assert.equal(res.status, status, what);
    github.assertValid(github.validator(path, method, String(status)), await res.json(), what);
  };

  it('issue comments: create (201), list (200), update (200)', async () => {
    const created = await call('/repos/octo-org/octo-repo/issues/7/comments', { method: 'POST', body: { body: 'hello' } });
    const { id } = (await created.clone().json()) as { id: number };
    await valid(created, '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'post', 201, 'create');
    await valid(await call('/repos/octo-org/octo-repo/issues/7/comments'), '/repos/{owner}/{repo}/issues/{issue_number}/comments', 'get', 200, 'list');
    await valid(await call(`/repos/octo-org/octo-repo/issues/comments/${id}`, { method: 'PATCH', body: { body: 'again' } }), '/repos/{owner}/{repo}/issues/comments/{comment_id}', 'patch', 200, 'update');
  });

  it('reviews: a review with line comments (200), its comments listed (200) and edited (200); a line off the diff (422); a read-only token (403)', async () => {
    const review = { commit_id: 'a'.repeat(40), event: 'COMMENT', comments: [{ path: 'src/app.js', line: 3, side: 'RIGHT', body: 'one' }] };
    await valid(await call('/repos/octo-org/octo-repo/pulls/7/reviews', { method: 'POST', body: review }), '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'post', 200, 'create a review');
    const listed = await call('/repos/octo-org/octo-repo/pulls/7/comments');
    const [comment] = (await listed.clone().json()) as { id: number; line: number }[];
    assert.equal(comment!.line, 3);
    await valid(listed, '/repos/{owner}/{repo}/pulls/{pull_number}/comments', 'get', 200, 'list review comments');
    await valid(await call(`/repos/octo-org/octo-repo/pulls/comments/${comment!.id}`, { method: 'PATCH', body: { body: 'edited' } }), '/repos/{owner}/{repo}/pulls/comments/{comment_id}', 'patch', 200, 'edit');
    const offDiff = { ...review, comments: [{ path: 'src/app.js', line: 9, side: 'RIGHT', body: 'x' }] };
    await valid(await call('/repos/octo-org/octo-repo/pulls/7/reviews', { method: 'POST', body: offDiff }), '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'post', 422, 'off the diff');
    pr.readOnly = true;
    await valid(await call('/repos/octo-org/octo-repo/pulls/7/reviews', { method: 'POST', body: review }), '/repos/{owner}/{repo}/pulls/{pull_number}/reviews', 'post', 403, 'read-only');
  });

  it('GraphQL: review threads with their first comment and author; resolve and unresolve; a read-only token is FORBIDDEN; a field GitHub lacks is refused', async () => {
    await call('/repos/octo-org/octo-repo/pulls/7/reviews', { method: 'POST', body: { commit_id: 'a'.repeat(40), event: 'COMMENT', comments: [{ path: 'src/app.js', line: 4, side: 'RIGHT', body: 'two' }] } });
    const threads = `query ($owner: String!, $repo: String!, $number: Int!) { repository(owner: $owner, name: $repo) { pullRequest(number: $number) { reviewThreads(first: 100) { pageInfo { hasNextPage endCursor } nodes { id isResolved comments(first: 1) { nodes { databaseId author { __typename login } } } } } } } }`;
    const vars = { owner: 'octo-org', repo: 'octo-repo', number: 7 };
    const before = await query(threads, vars);
    assert.equal(before.errors, undefined);
    const [thread] = before.data.repository.pullRequest.reviewThreads.nodes;
    assert.equal(thread.isResolved, false);
    assert.deepEqual(thread.comments.nodes[0].author, { __typename: 'Bot', login: 'github-actions' });
    const resolve = 'mutation ($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id isResolved } } }';
    assert.equal((await query(resolve, { id: thread.id })).data.resolveReviewThread.thread.isResolved, true);
    assert.equal((await query(threads, vars)).data.repository.pullRequest.reviewThreads.nodes[0].isResolved, true);
    const unresolve = 'mutation ($id: ID!) { unresolveReviewThread(input: { threadId: $id }) { thread { isResolved } } }';
    assert.equal((await query(unresolve, { id: thread.id })).data.unresolveReviewThread.thread.isResolved, false);
    pr.readOnly = true;
    assert.equal((await query(resolve, { id: thread.id })).errors?.[0]?.type, 'FORBIDDEN');
    assert.match((await query('query { viewer { loginName } }')).errors?.[0]?.message ?? '', /Cannot query field "loginName"/);
  });
});

describe("the deployments fake matches GitHub's published description", function () {
  this.timeout(60_000);
  let github: GitHubDescription;
  let gh: FakeDeployments;
  before(() => {
    github = new GitHubDescription();
  });
  beforeEach(async () => {
    gh = await FakeDeployments.start('deploy-token');
  });
  afterEach(() => gh.close());

  const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${gh.url}${path}`, { method: init.method ?? 'GET', headers: { authorization: 'Bearer deploy-token' }, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
  const valid = async (res: Response, path: string, method: string, status: number, what: string) => {
    assert.equal(res.status, status, what);
    github.assertValid(github.validator(path, method, String(status)), await res.json(), what);
  };

  it('create a deployment (201), list them (200), create a status (201), list statuses (200); a token without deployments: write (403)', async () => {
    const created = await call('/repos/octo-org/octo-repo/deployments', { method: 'POST', body: { ref: 'd'.repeat(40), environment: 'production', auto_merge: false, required_contexts: [], payload: { delivery_id: 'x' } } });
    const { id } = (await created.clone().json()) as { id: number };
    await valid(created, '/repos/{owner}/{repo}/deployments', 'post', 201, 'create');
    await valid(await call(`/repos/octo-org/octo-repo/deployments?sha=${'d'.repeat(40)}&environment=production`), '/repos/{owner}/{repo}/deployments', 'get', 200, 'list');
    await valid(await call(`/repos/octo-org/octo-repo/deployments/${id}/statuses`, { method: 'POST', body: { state: 'success', environment_url: 'https://app.example.com', log_url: 'https://github.com/o/r/actions/runs/1' } }), '/repos/{owner}/{repo}/deployments/{deployment_id}/statuses', 'post', 201, 'status');
    await valid(await call(`/repos/octo-org/octo-repo/deployments/${id}/statuses?per_page=1`), '/repos/{owner}/{repo}/deployments/{deployment_id}/statuses', 'get', 200, 'statuses');
    gh.readOnly = true;
    const refused = await call('/repos/octo-org/octo-repo/deployments', { method: 'POST', body: { ref: 'd'.repeat(40) } });
    assert.equal(refused.status, 403);
  });
});
