import assert from 'node:assert/strict';
import { call } from '../support/http.js';
import { REPO, startBroker, type BrokerHarness } from '../support/broker.js';

/** Release jobs on main may sign; pull requests get a token but may not sign. */
const POLICY = `repositories:
  octo-org/octo-repo:
    - if: { ref: refs/heads/main, event_name: push }
      sign: true
    - if: { event_name: pull_request }
      permissions: { contents: read }
`;

describe('broker POST /sign with an OIDC token (BROKER_POLICY)', () => {
  let h: BrokerHarness;
  let head: string;

  beforeEach(async () => {
    h = await startBroker({ env: { BROKER_POLICY: POLICY, TOKEN_PERMISSIONS: 'issues=write' } });
    head = h.github.repos.get(REPO)!.branches.get('main')!;
  });
  afterEach(() => h.close());

  const request = (overrides: Record<string, unknown> = {}) => ({
    repo: REPO,
    branch: 'main',
    expected_head_oid: head,
    message: { headline: 'chore: release' },
    additions: [{ path: 'VERSION', contents: Buffer.from('2.0.0\n').toString('base64') }],
    ...overrides,
  });
  const sign = (body: unknown, bearer: string) => call(`${h.backend.url}/sign`, { ...(typeof body === 'string' ? { raw: body } : { json: body }), token: bearer });
  const oidc = (claims: Record<string, unknown> = {}) => h.oidc({ event_name: 'push', ...claims });

  it('a token the policy lets sign makes the commit with a contents: write token, revoked afterwards', async () => {
    const res = await sign(request(), await oidc());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ok, true);
    assert.equal(h.github.commits.length, 1);
    assert.equal(h.github.commits[0]!.parent, head);
    const mint = h.github.calls.find((c) => c.route === 'access_tokens');
    // By the verified repository_id claim, as /token mints: a name deleted and registered again reaches nothing.
    assert.deepEqual(mint?.body, { repository_ids: [123456789], permissions: { contents: 'write' } });
    assert.equal(h.github.revoked.size, 1);
    const line = h.backend.logs.lines().find((l) => l.msg === 'commit signed');
    assert.deepEqual([line?.signer, line?.policy_entry, line?.policy_rule], ['oidc', 'octo-org/octo-repo', 0]);
  });

  it('the trigger secret keeps working alongside', async () => {
    const res = await sign(request(), h.triggerSecret);
    assert.equal(res.status, 200);
    assert.equal(h.github.commits.length, 1);
  });

  it('the OIDC route works without a trigger secret (it only needs the policy)', async () => {
    h.backend.env.PROCESS_TRIGGER_SECRET = '';
    assert.equal((await sign(request(), await oidc())).status, 200);
    assert.deepEqual((await sign(request(), 'not-a-jwt')).body, { error: 'unauthorized' });
  });

  describe('refusals, with no commit and no platform call', () => {
    const refused = async (body: unknown, bearer: string, status: number, answer: Record<string, unknown>) => {
      const res = await sign(body, bearer);
      assert.deepEqual([res.status, res.body], [status, answer]);
      assert.equal(h.github.count(), 0);
      assert.equal(h.github.commits.length, 0);
    };

    it('the rule that applies does not say sign: true → 403 policy_denied sign_not_allowed', async () => {
      await refused(request(), await oidc({ ref: 'refs/pull/3/merge', event_name: 'pull_request' }), 403, { error: 'policy_denied', reason: 'sign_not_allowed' });
      const line = h.backend.logs.lines().find((l) => l.msg === 'request refused');
      assert.match(line?.cause as string, /rule 1 applies and does not say sign: true/);
    });

    it('no rule holds → 403 policy_denied with the same reason /token gives', async () => {
      await refused(request(), await oidc({ ref: 'refs/heads/feature' }), 403, { error: 'policy_denied', reason: 'claim_mismatch:event_name' });
    });

    it('repository_not_in_policy', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  other/repo:\n    - sign: true\n';
      await refused(request(), await oidc(), 403, { error: 'policy_denied', reason: 'repository_not_in_policy' });
    });

    it('a token of another repository → 403 repo_mismatch, whatever the policy says of that one', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  "*":\n    - sign: true\n';
      const other = await oidc({ repository: 'octo-org/other', repository_id: '5' });
      await refused(request(), other, 403, { error: 'repo_mismatch' });
      await refused(request({ repo: 'OCTO-ORG/octo-repo' }), await oidc(), 403, { error: 'repo_mismatch' });
    });

    it('outside ALLOWED_REPOSITORIES → 403 repo_not_allowed', async () => {
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/elsewhere';
      await refused(request(), await oidc(), 403, { error: 'repo_not_allowed' });
    });

    it('a token that does not verify → 401 invalid_oidc_token with its reason, before the body is read', async () => {
      await refused('{not json', await h.oidc({ aud: 'someone-else' }), 401, { error: 'invalid_oidc_token', reason: 'audience_mismatch' });
      const expired = await h.oidc({ event_name: 'push', exp: Math.floor(Date.now() / 1000) - 3600 });
      await refused(request(), expired, 401, { error: 'invalid_oidc_token', reason: 'expired' });
    });

    it('an unusable policy → 500 invalid_policy; the trigger secret still signs', async () => {
      h.backend.env.BROKER_POLICY = 'repositories: [';
      await refused(request(), await oidc(), 500, { error: 'invalid_policy' });
      assert.equal((await sign(request(), h.triggerSecret)).status, 200);
    });

    it('without BROKER_POLICY an OIDC token is just a wrong bearer: 401 unauthorized (503 sign_disabled without a secret)', async () => {
      delete h.backend.env.BROKER_POLICY;
      await refused(request(), await oidc(), 401, { error: 'unauthorized' });
      h.backend.env.PROCESS_TRIGGER_SECRET = '';
      await refused(request(), await oidc(), 503, { error: 'sign_disabled' });
    });
  });
});
