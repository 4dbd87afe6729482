import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { AUDIT_FIELDS } from '../../server/audit/record.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../support/broker.js';
import { FakeGitHub } from '../support/fake-github.js';
import { call, type JsonAnswer } from '../support/http.js';
import { capturedLogger } from '../support/log-capture.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { listen, type Listening } from '../support/servers.js';

// The minimal broker has no store: its one log line per /token request carries the audit
// record's fields, with hashed_token in GitHub's form.

const githubHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64');

const RUN_CLAIMS = {
  workflow_ref: 'octo-org/octo-repo/.github/workflows/release.yml@refs/heads/main',
  job_workflow_ref: 'octo-org/octo-repo/.github/workflows/release.yml@refs/heads/main',
  event_name: 'workflow_dispatch',
  run_id: '555',
  run_attempt: '3',
  actor: 'octocat',
  environment: 'staging',
};

describe('minimal broker: the audit fields on its one log line per /token request', () => {
  let issuer: TestIssuer;
  let github: FakeGitHub;
  let server: Listening;
  let env: Record<string, string | undefined>;
  let logs: ReturnType<typeof capturedLogger>;

  beforeEach(async () => {
    issuer = await TestIssuer.start();
    github = await FakeGitHub.start();
    github.addInstallation(INSTALLATION_ID, 'octo-org');
    github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
    logs = capturedLogger();
    server = await listen(createMinimalApp({ env: () => env, logger: logs.logger, version: 'test' }));
  });
  afterEach(async () => {
    await server.close();
    await github.close();
    await issuer.close();
  });

  const oidcTokens: string[] = [];
  const oidc = async (claims: Record<string, unknown> = RUN_CLAIMS, options: Parameters<TestIssuer['mint']>[1] = {}) => {
    const t = await issuer.mint({ aud: BROKER_AUDIENCE, ...claims }, options);
    oidcTokens.push(t);
    return t;
  };
  const lines = () => logs.lines().filter((l) => 'outcome' in l);

  /** One request and its one line (failing on none or more). */
  async function logged(send: () => Promise<JsonAnswer>): Promise<{ res: JsonAnswer; line: Record<string, unknown> }> {
    const before = lines().length;
    const res = await send();
    const after = lines();
    assert.equal(after.length, before + 1, `one line for ${res.status} ${res.text}`);
    const line = after[after.length - 1]!;
    assert.deepEqual(AUDIT_FIELDS.filter((f) => !(f in line)), [], 'every field of the record');
    assert.deepEqual([line.broker, line.route, line.reason, line.policy_rule], ['minimal', '/token', null, null]);
    return { res, line };
  }
  const token = (json: unknown) => call(`${server.url}/token`, typeof json === 'string' ? { raw: json } : { json });

  it('mint_ok: the record of the token, hashed_token = base64(sha256(token)) of the token the GitHub fake minted', async () => {
    const { res, line } = await logged(async () => token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'octo-repo', permissions: { contents: 'read' } }));
    assert.equal(res.status, 200);
    const minted = res.body.token as string;
    assert.ok(github.grantOf(minted));
    const { level: _l, time: _t, pid: _p, hostname: _h, service: _s, recorded_at, ...fields } = line;
    assert.match(recorded_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(fields, {
      broker: 'minimal',
      route: '/token',
      outcome: 'mint_ok',
      reason: null,
      repository: REPO,
      repository_id: String(REPO_ID),
      owner: 'octo-org',
      ...RUN_CLAIMS,
      policy_rule: null,
      permissions_requested: { contents: 'read' },
      permissions_granted: { contents: 'read' },
      repositories: [REPO],
      installation_id: INSTALLATION_ID,
      expires_at: res.body.expires_at,
      hashed_token: githubHash(minted),
    });
    assert.ok(!logs.text().includes(minted));
  });

  it('every outcome writes exactly one line with the fields; before verification only the body\'s valid names, never a claim', async () => {
    const verified = ['octo-org', REPO, String(REPO_ID), 'octocat'];
    const asked = ['octo-org', REPO, null, null];
    const nobody = [null, null, null, null];
    const cases: [string, () => Promise<JsonAnswer>, (string | null)[]][] = [
      ['invalid_json', () => token('{"owner":'), nobody],
      ['missing_fields', () => token({ owner: 'octo-org', repo: 'octo-repo' }), asked],
      ['invalid_repository', async () => token({ oidcToken: await oidc(), owner: 'octo-org', repo: '../x' }), ['octo-org', null, null, null]],
      ['invalid_permissions', async () => token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'octo-repo', permissions: { admin: 'write' } }), asked],
      ['invalid_oidc', async () => token({ oidcToken: await oidc({ ...RUN_CLAIMS, actor: 'mallory' }, { signWith: await TestIssuer.strayKey() }), owner: 'octo-org', repo: 'octo-repo' }), asked],
      ['repo_mismatch', async () => token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'other' }), verified],
      ['repo_not_allowed', async () => ((env.ALLOWED_REPOSITORIES = 'octo-org/else'), token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'octo-repo' })), verified],
      ['mint_failed', async () => (delete env.ALLOWED_REPOSITORIES, github.inject('access_tokens', { status: 502, body: { message: 'Bad Gateway' } }), token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'octo-repo' })), verified],
      ['app_not_installed', async () => (github.addRepo('octo-org/no-app', 9, null), token({ oidcToken: await oidc({ ...RUN_CLAIMS, repository: 'octo-org/no-app', repository_id: '9' }), owner: 'octo-org', repo: 'no-app' })), ['octo-org', 'octo-org/no-app', '9', 'octocat']],
      ['config_unavailable', async () => ((env.FORGE_APP_ID = ''), token({ oidcToken: await oidc(), owner: 'octo-org', repo: 'octo-repo' })), asked],
      ['method_not_allowed', () => call(`${server.url}/token`), nobody],
    ];
    for (const [outcome, send, who] of cases) {
      const { res, line } = await logged(send);
      assert.deepEqual([res.body.error, line.outcome], [outcome, outcome]);
      assert.deepEqual([line.owner, line.repository, line.repository_id, line.actor], who, outcome);
      assert.deepEqual([line.hashed_token, line.permissions_granted, line.expires_at], [null, null, null], outcome);
    }
    env.FORGE_APP_ID = github.appId;
    issuer.mode = 'down';
    const fresh = await TestIssuer.start();
    try {
      env.OIDC_ISSUER = fresh.url;
      fresh.mode = 'down';
      const { line } = await logged(async () => token({ oidcToken: await fresh.mint({ aud: BROKER_AUDIENCE, ...RUN_CLAIMS }), owner: 'octo-org', repo: 'octo-repo' }));
      assert.deepEqual([line.outcome, line.owner, line.repository, line.actor], ['jwks_unavailable', 'octo-org', REPO, null]);
    } finally {
      await fresh.close();
    }
    const text = logs.text();
    for (const t of oidcTokens) assert.ok(!text.includes(t) && !text.includes(t.split('.')[2]!), 'no OIDC token in the log');
    assert.ok(!text.includes('mallory'), 'no claim of an unverified token');
  });
});
