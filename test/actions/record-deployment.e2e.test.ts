import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startBackend, type Backend } from '../support/backend.js';
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

  it('a refused record is one warning and exit 0; with fail-on-error it fails the step', async () => {
    backend.issuer.runnerClaims = { repository: 'stranger/app', repository_owner: 'stranger' };
    try {
      const soft = await runAction(BUNDLE, { ...inputs(), 'delivery-id': 'refused' }, runnerEnv);
      assert.equal(soft.code, 0);
      assert.match(soft.stdout, /::warning::deployment not recorded: the ledger refused the record: HTTP 403: forbidden - owner_not_allowed/);
      assert.deepEqual(soft.outputs, {});
      const hard = await runAction(BUNDLE, { ...inputs(), 'delivery-id': 'refused', 'fail-on-error': 'true' }, runnerEnv);
      assert.equal(hard.code, 1);
      assert.match(hard.stdout, /::error::deployment not recorded: the ledger refused the record: HTTP 403/);
    } finally {
      backend.issuer.runnerClaims = {};
    }
  });

  it('without the OIDC variables (no id-token: write) it warns and exits 0', async () => {
    const { ACTIONS_ID_TOKEN_REQUEST_URL: _u, ACTIONS_ID_TOKEN_REQUEST_TOKEN: _t, ...env } = runnerEnv;
    const requests = backend.issuer.runnerTokenRequests;
    const result = await runAction(BUNDLE, inputs(), env);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /::warning::deployment not recorded: cannot request an OIDC token: give the job 'permissions: id-token: write'/);
    assert.equal(backend.issuer.runnerTokenRequests, requests);
  });
});
