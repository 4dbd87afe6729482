import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startBackend, type Backend } from '../support/backend.js';
import { GitRepo } from '../support/git-repo.js';
import { call } from '../support/http.js';
import { REPO_ROOT } from '../support/processes.js';
import { runAction } from '../support/runner.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'record-deployment', 'index.js');

describe('record-deployment bundle, end to end (child process → real backend on loopback)', () => {
  let backend: Backend;
  let runnerEnv: Record<string, string>;

  before(async () => {
    backend = await startBackend();
    runnerEnv = {
      GITHUB_ACTIONS: 'true',
      ACTIONS_ID_TOKEN_REQUEST_URL: backend.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: backend.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_RUN_ID: '777',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'deploy',
      GITHUB_SHA: 'd'.repeat(40),
      GITHUB_ACTOR: 'octocat',
      GITHUB_SERVER_URL: 'https://github.com',
    };
  });
  after(() => backend.close());

  const inputs = () => ({ 'api-url': backend.url, environment: 'production', status: 'success', version: '3.1.0', 'duration-ms': '4200' });

  it('records, sets the outputs and the job summary, masks the token; a second run is a duplicate', async () => {
    const first = await runAction(BUNDLE, inputs(), runnerEnv);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.outputs['deployment-id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(first.outputs.duplicate, 'false');
    assert.match(first.outputs['recorded-at'] ?? '', /Z$/);
    assert.equal(first.outputs.notified, '{}');
    assert.match(first.summary, /### Deployment recorded/);
    assert.match(first.summary, /\| octo-org\/octo-repo \| production \| success \| 3\.1\.0 \|/);

    const token = backend.issuer.lastRunnerToken!;
    assert.ok(first.stdout.includes(`::add-mask::${token}`), 'token not masked');
    const withoutMask = first.stdout.replaceAll(`::add-mask::${token}`, '');
    assert.ok(!withoutMask.includes(token) && !first.stderr.includes(token), 'token printed');

    const history = await call<{ deployments: Record<string, unknown>[] }>(`${backend.url}/v1/deployments`, { token: await backend.issuer.mint() });
    const stored = history.body.deployments.find((d) => d.deployment_id === first.outputs['deployment-id']);
    assert.deepEqual(stored, {
      deployment_id: first.outputs['deployment-id'],
      repository: 'octo-org/octo-repo',
      recorded_at: first.outputs['recorded-at'],
      delivery_id: '777-1-deploy-production',
      environment: 'production',
      status: 'success',
      mode: 'deploy',
      version: '3.1.0',
      commit: 'd'.repeat(40),
      run_url: 'https://github.com/octo-org/octo-repo/actions/runs/777/attempts/1',
      actor: 'octocat',
      duration_ms: 4200,
      notified: {},
    });

    const second = await runAction(BUNDLE, inputs(), runnerEnv);
    assert.equal(second.code, 0);
    assert.equal(second.outputs.duplicate, 'true');
    assert.equal(second.outputs['deployment-id'], first.outputs['deployment-id']);
    assert.match(second.summary, /### Deployment already recorded/);
  });

  it('sends committed_at from the checkout and shows the environment’s 30-day figures as outputs and in the summary', async () => {
    const repo = GitRepo.create();
    try {
      repo.write('app.txt', 'v1\n');
      const sha = repo.commit('release');
      const committedAt = new Date(repo.git('show', '--no-patch', '--format=%cI', sha)).toISOString();
      const env = { ...runnerEnv, GITHUB_SHA: sha, GITHUB_WORKSPACE: repo.dir, GITHUB_RUN_ID: '778' };
      const run = await runAction(BUNDLE, { ...inputs(), environment: 'e2e-figures' }, env);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const history = await call<{ deployments: Record<string, unknown>[] }>(`${backend.url}/v1/deployments?environment=e2e-figures`, { token: await backend.issuer.mint() });
      assert.equal(history.body.deployments[0]!.committed_at, committedAt);
      const lead = new Date(run.outputs['recorded-at']!).getTime() - new Date(committedAt).getTime();
      assert.equal(run.outputs['lead-time-ms'], String(lead));
      assert.equal(run.outputs['deployment-frequency'], String(1 / 30));
      assert.equal(run.outputs['change-failure-rate'], '0');
      assert.equal(run.outputs['recovery-time-ms'], '');
      assert.equal(JSON.parse(run.outputs.figures!).deployments.total, 1);
      assert.match(run.summary, /#### e2e-figures: the last 30 days/);
      assert.ok(!run.stdout.includes('::warning::'), run.stdout);
    } finally {
      repo.cleanup();
    }
  });

  it('an owner the ledger does not allow (403) fails the step (exit 1), fail-on-error or not: a setup mistake must be seen', async () => {
    backend.issuer.runnerClaims = { repository: 'stranger/app', repository_owner: 'stranger' };
    try {
      for (const failOnError of ['false', 'true']) {
        const run = await runAction(BUNDLE, { ...inputs(), 'delivery-id': 'refused', 'fail-on-error': failOnError }, runnerEnv);
        assert.equal(run.code, 1, failOnError);
        assert.match(run.stdout, /^::error::deployment not recorded: the ledger refused the job's token: HTTP 403: forbidden - owner_not_allowed \(this repository's owner must be in the ledger's LEDGER_ALLOWED_OWNERS\)$/m);
        assert.ok(!run.stdout.includes('::warning::'));
        assert.deepEqual(run.outputs, {});
      }
    } finally {
      backend.issuer.runnerClaims = {};
    }
  });

  it('a value the ledger refuses (422) fails the step with the ledger’s message', async () => {
    const run = await runAction(BUNDLE, { ...inputs(), 'delivery-id': 'bad-url', url: 'app.example.com' }, runnerEnv);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /^::error::deployment not recorded: the ledger refused the record: HTTP 422: validation_failed - /m);
  });

  it('without the OIDC variables (no id-token: write) it fails the step and calls nothing', async () => {
    const { ACTIONS_ID_TOKEN_REQUEST_URL: _u, ACTIONS_ID_TOKEN_REQUEST_TOKEN: _t, ...env } = runnerEnv;
    const requests = backend.issuer.runnerTokenRequests;
    const result = await runAction(BUNDLE, inputs(), env);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /::error::deployment not recorded: cannot request an OIDC token: give the job 'permissions: id-token: write'/);
    assert.equal(backend.issuer.runnerTokenRequests, requests);
  });

  it('an api-url without a scheme fails the step naming the input, before any token is asked for', async () => {
    const requests = backend.issuer.runnerTokenRequests;
    const result = await runAction(BUNDLE, { ...inputs(), 'api-url': backend.url.replace(/^http:\/\//, '') }, runnerEnv);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^::error::deployment not recorded: input "api-url" must be an http\(s\) URL$/m);
    assert.equal(backend.issuer.runnerTokenRequests, requests);
  });
});
