import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeDeployments } from '../support/fake-deployments.js';
import { barsOf, parseMermaidBlock } from '../support/mermaid.js';
import { REPO_ROOT } from '../support/processes.js';
import { runAction } from '../support/runner.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'record-deployment', 'index.js');
const COMMIT = 'd'.repeat(40);

describe('record-deployment with github-deployment: the bundle, the ledger and GitHub deployments', function () {
  this.timeout(60_000);
  let backend: Backend;
  let github: FakeDeployments;
  let runnerEnv: Record<string, string>;

  before(async () => {
    backend = await startBackend();
  });
  after(() => backend.close());
  beforeEach(async () => {
    github = await FakeDeployments.start('gh-token');
    runnerEnv = {
      GITHUB_ACTIONS: 'true',
      ACTIONS_ID_TOKEN_REQUEST_URL: backend.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: backend.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_RUN_ID: '900',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'deploy',
      GITHUB_SHA: COMMIT,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: github.url,
    };
  });
  afterEach(() => github.close());

  const inputs = (extra: Record<string, string> = {}) => ({
    'api-url': backend.url,
    environment: 'production',
    status: 'success',
    url: 'https://app.example.com',
    'github-deployment': 'true',
    'github-token': 'gh-token',
    ...extra,
  });
  const posts = () => github.calls.filter((c) => c.startsWith('POST'));

  it('first record: one deployment of the commit with the ledger ids, and one status; the retried step finds it and adds nothing', async () => {
    const first = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-first' }), runnerEnv);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(github.deployments.length, 1);
    const [d] = github.deployments;
    assert.equal(first.outputs['github-deployment-id'], String(d!.id));
    assert.deepEqual([d!.sha, d!.environment], [COMMIT, 'production']);
    assert.deepEqual(d!.payload, { deployment_id: first.outputs['deployment-id'], delivery_id: 'gh-first' });
    assert.deepEqual(d!.statuses.map((s) => [s.state, s.environmentUrl, s.logUrl]), [['success', 'https://app.example.com', 'https://github.com/octo-org/octo-repo/actions/runs/900/attempts/1']]);
    assert.ok(d!.statuses[0]!.description.length <= 140);
    // The job summary's chart, from the ledger's daily series: this environment's one record, today.
    const { diagramType, source } = await parseMermaidBlock(first.summary);
    assert.equal(diagramType, 'xychart');
    const [changes, failed] = barsOf(source);
    assert.equal(changes!.reduce((a, b) => a + b, 0), 1);
    assert.equal(changes!.at(-1), 1);
    assert.equal(failed!.reduce((a, b) => a + b, 0), 0);

    github.calls.length = 0;
    const again = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-first' }), runnerEnv);
    assert.equal(again.outputs.duplicate, 'true');
    assert.equal(again.outputs['github-deployment-id'], String(d!.id));
    assert.equal(github.deployments.length, 1);
    assert.deepEqual(posts(), [], 'no second deployment, no second status');
  });

  it('a status lost to a 5xx: a warning, the record stands; the retried step adds the status to the deployment it made', async () => {
    github.failNext.add('status');
    const first = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-lost' }), runnerEnv);
    assert.equal(first.code, 0);
    assert.match(first.stdout, /::warning::GitHub deployment not created \(HTTP 502\); the ledger record stands/);
    assert.match(first.outputs['deployment-id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(github.deployments[0]!.statuses.length, 0);
    const retried = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-lost' }), runnerEnv);
    assert.equal(retried.code, 0, retried.stdout);
    assert.equal(github.deployments.length, 1);
    assert.deepEqual(github.deployments[0]!.statuses.map((s) => s.state), ['success']);
  });

  for (const [status, state] of [['failure', 'failure'], ['rolled-back', 'error'], ['skipped', 'inactive']] as const) {
    it(`status ${status} is the GitHub state ${state}`, async () => {
      const run = await runAction(BUNDLE, inputs({ 'delivery-id': `gh-${status}`, status }), runnerEnv);
      assert.equal(run.code, 0, run.stdout);
      assert.deepEqual(github.deployments[0]!.statuses.map((s) => s.state), [state]);
    });
  }

  it('a token without deployments: write (403): a warning naming it, or a failed step with fail-on-error; the ledger record stands', async () => {
    github.readOnly = true;
    const soft = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-403' }), runnerEnv);
    assert.equal(soft.code, 0);
    assert.match(soft.stdout, /::warning::GitHub deployment not created \(HTTP 403: the token needs permissions: deployments: write\); the ledger record stands/);
    const hard = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-403-hard', 'fail-on-error': 'true' }), runnerEnv);
    assert.equal(hard.code, 1);
    assert.match(hard.stdout, /::error::GitHub deployment not created \(HTTP 403: the token needs permissions: deployments: write\)/);
    assert.match(hard.outputs['deployment-id'] ?? '', /^[0-9a-f-]{36}$/, 'recorded in the ledger all the same');
    assert.equal(github.deployments.length, 0);
  });

  it('nothing is created on GitHub when the ledger did not record the deployment', async () => {
    const run = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-refused', status: 'exploded' }), runnerEnv);
    assert.equal(run.code, 1);
    assert.deepEqual(github.calls, []);
  });
});
