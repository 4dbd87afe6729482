import assert from 'node:assert/strict';
import { INSTALLATION_ID, startBroker, type BrokerHarness } from '../support/broker.js';

const PR_READ_ONLY = `repositories:
  octo-org/octo-repo:
    - if: { event_name: pull_request }
      permissions: { contents: read, pull_requests: write }
    - permissions: { contents: write, pull_requests: write, issues: write }
`;

describe('broker POST /token: per-request permissions', () => {
  let h: BrokerHarness;

  beforeEach(async () => {
    h = await startBroker();
    h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'write', pull_requests: 'write', issues: 'read', metadata: 'read' };
  });
  afterEach(() => h.close());

  const ask = async (permissions: unknown, claims: Record<string, unknown> = {}) =>
    h.token({ oidcToken: await h.oidc({ event_name: 'push', ...claims }), owner: 'octo-org', repo: 'octo-repo', permissions });

  /** The answer's `permissions`, checked against what the platform's mint really granted. */
  const carried = (res: Awaited<ReturnType<typeof ask>>) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.permissions, h.github.grantOf(res.body.token as string)?.permissions);
    return res.body.permissions;
  };

  it('without a policy: narrowed by TOKEN_PERMISSIONS; the answer says what the token carries', async () => {
    assert.deepEqual(carried(await ask({ contents: 'read' })), { contents: 'read' });
    const mint = h.github.calls.find((c) => c.route === 'access_tokens');
    assert.deepEqual((mint?.body as { permissions: unknown }).permissions, { contents: 'read' });
  });

  it('asking for more than the ceiling is not an error: the token has the intersection', async () => {
    // issues is outside the default ceiling; pull_requests is inside.
    assert.deepEqual(carried(await ask({ issues: 'write', pull_requests: 'write' })), { pull_requests: 'write' });
    h.backend.env.TOKEN_PERMISSIONS = 'contents=read';
    assert.deepEqual(carried(await ask({ contents: 'write' })), { contents: 'read' });
  });

  it('with a policy: narrowed by the rule that applies, then by the installation grant', async () => {
    h.backend.env.BROKER_POLICY = PR_READ_ONLY;
    assert.deepEqual(carried(await ask({ contents: 'write', pull_requests: 'read' }, { event_name: 'pull_request' })), { contents: 'read', pull_requests: 'read' });
    // The second rule allows issues: write, the installation grants read only.
    assert.deepEqual(carried(await ask({ issues: 'write', contents: 'write' })), { issues: 'read', contents: 'write' });
    // Without a request, the rule's ceiling (narrowed by the grant).
    assert.deepEqual(carried(await ask(undefined)), { contents: 'write', pull_requests: 'write', issues: 'read' });
  });

  it('a request that keeps nothing gets metadata: read, never the installation’s whole grant', async () => {
    assert.deepEqual(carried(await ask({})), { metadata: 'read' });
    assert.deepEqual(carried(await ask({ actions: 'write' })), { metadata: 'read' });
  });

  it('a policy refusal still wins over a modest request', async () => {
    h.backend.env.BROKER_POLICY = 'repositories:\n  octo-org/octo-repo:\n    - if: { ref: refs/heads/release }\n';
    const res = await ask({ contents: 'read' });
    assert.deepEqual([res.status, res.body], [403, { error: 'policy_denied', reason: 'claim_mismatch:ref' }]);
    assert.equal(h.github.count(), 0);
  });

  const malformed: [string, unknown, RegExp][] = [
    ['a list', ['contents'], /permissions must be an object/],
    ['a string', 'contents=read', /permissions must be an object/],
    ['a value other than read or write', { contents: 'admin' }, /values must be read or write/],
    ['an unknown name', { content: 'read' }, /names content, which is not a GitHub App permission/],
    ['an organization permission', { members: 'read' }, /organization, account or enterprise permission/],
    ['a value GitHub refuses for the name', { workflows: 'read' }, /sets workflows to read/],
  ];
  for (const [what, permissions, message] of malformed) {
    it(`400 invalid_request for ${what}, before any key fetch or platform call`, async () => {
      const res = await ask(permissions);
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_request');
      assert.match(res.body.message as string, message);
      assert.equal(h.github.count(), 0);
      assert.equal(h.issuer.jwksFetches, 0);
    });
  }

  it('null is the same as no permissions field', async () => {
    assert.deepEqual(carried(await ask(null)), { contents: 'write', pull_requests: 'write' });
  });
});
