import assert from 'node:assert/strict';
import { brokerSettings, policySetting } from '../../server/broker/settings.js';
import { checkBackendStartup } from '../../server/startup/backend.js';
import { INSTALLATION_ID, REPO, REPO_ID, startBroker, type BrokerHarness } from '../support/broker.js';

/** The example, for the test issuer's repository (octo-org/octo-repo). */
const POLICY = `repositories:
  Octo-Org/Octo-Repo:
    - if: { ref: refs/heads/main, event_name: [push, workflow_dispatch] }
      permissions: { contents: write, pull_requests: write }
    - if: { event_name: pull_request }
      permissions: { contents: read, pull_requests: write }
  octo-org/*:
    - if: { ref: "refs/tags/v*" }
      permissions: { contents: write }
  "*":
    - permissions: { contents: read }
`;

describe('broker POST /token with BROKER_POLICY', () => {
  let h: BrokerHarness;

  beforeEach(async () => {
    h = await startBroker({ env: { BROKER_POLICY: POLICY } });
  });
  afterEach(() => h.close());

  const request = async (claims: Record<string, unknown> = {}, options: Parameters<BrokerHarness['oidc']>[1] = {}) =>
    h.token({ oidcToken: await h.oidc({ event_name: 'push', ...claims }, options), owner: 'octo-org', repo: 'octo-repo' });

  const grantOf = (token: unknown) => h.github.grantOf(token as string)?.permissions;

  it('the first rule that holds gives its permissions as the ceiling (entry matched case-insensitively)', async () => {
    const push = await request();
    assert.equal(push.status, 200);
    assert.deepEqual(grantOf(push.body.token), { contents: 'write', pull_requests: 'write' });
    const pr = await request({ ref: 'refs/pull/7/merge', event_name: 'pull_request' });
    assert.equal(pr.status, 200);
    assert.deepEqual(grantOf(pr.body.token), { contents: 'read', pull_requests: 'write' });
    const line = h.backend.logs.lines().filter((l) => l.msg === 'token minted').at(-1);
    assert.deepEqual([line?.policy_entry, line?.policy_rule], ['Octo-Org/Octo-Repo', 1]);
  });

  it('the owner entry and the * entry apply to repositories without their own', async () => {
    h.github.addRepo('octo-org/other', 55, INSTALLATION_ID);
    const tag = await h.token({
      oidcToken: await h.oidc({ repository: 'octo-org/other', repository_id: '55', ref: 'refs/tags/v1.0.0' }),
      owner: 'octo-org',
      repo: 'other',
    });
    assert.equal(tag.status, 200);
    assert.deepEqual(grantOf(tag.body.token), { contents: 'write' });
    h.github.addInstallation(4242, 'someone');
    h.github.addRepo('someone/thing', 77, 4242);
    const other = await h.token({
      oidcToken: await h.oidc({ repository: 'someone/thing', repository_id: '77', repository_owner: 'someone' }),
      owner: 'someone',
      repo: 'thing',
    });
    assert.equal(other.status, 200);
    assert.deepEqual(h.github.grantOf(other.body.token as string), { installationId: 4242, repositoryIds: [77], permissions: { contents: 'read' } });
  });

  it('a rule without permissions mints with TOKEN_PERMISSIONS, and never beyond the installation grant', async () => {
    h.backend.env.BROKER_POLICY = 'repositories: { "octo-org/octo-repo": [ { if: { ref: refs/heads/main } } ] }';
    h.backend.env.TOKEN_PERMISSIONS = 'contents=write,issues=write';
    const res = await request();
    assert.equal(res.status, 200);
    assert.deepEqual(grantOf(res.body.token), { contents: 'write' }, 'the installation does not grant issues');
  });

  describe('refusals: 403 policy_denied with a coarse reason, and no platform call', () => {
    const refused = async (claims: Record<string, unknown>, reason: string, options: Parameters<BrokerHarness['oidc']>[1] = {}) => {
      const res = await request(claims, options);
      assert.deepEqual([res.status, res.body], [403, { error: 'policy_denied', reason }]);
      assert.equal(h.github.count(), 0, 'nothing is asked of the platform');
      return res;
    };

    it('claim_mismatch:<claim> of the first failing condition of the last rule tried', async () => {
      await refused({ ref: 'refs/heads/feature', event_name: 'schedule' }, 'claim_mismatch:event_name');
      // Rule 0 fails on ref; rule 1 (the last) on event_name.
      await refused({ ref: 'refs/heads/feature', event_name: 'push' }, 'claim_mismatch:event_name');
    });

    it('a claim the token lacks never matches', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  octo-org/octo-repo:\n    - if: { environment: "**" }\n';
      await refused({}, 'claim_mismatch:environment');
      assert.equal((await request({ environment: 'production' })).status, 200);
    });

    it('repository_not_in_policy: no own, owner or * entry', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  other-org/*:\n    - {}\n';
      await refused({}, 'repository_not_in_policy');
    });

    it('no_matching_rule: the entry has no rules', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  octo-org/octo-repo: []\n  "*":\n    - {}\n';
      await refused({}, 'no_matching_rule');
    });

    it('the log names the entry, the rules tried and their failing claims; never a token or a claim value', async () => {
      const oidcToken = await h.oidc({ ref: 'refs/heads/secret-branch-name', event_name: 'schedule' });
      const res = await h.token({ oidcToken, owner: 'octo-org', repo: 'octo-repo' });
      assert.equal(res.status, 403);
      const line = h.backend.logs.lines().find((l) => l.msg === 'request refused');
      assert.equal(line?.code, 'policy_denied');
      assert.equal(
        line?.cause,
        'PolicyDenied: claim_mismatch:event_name: octo-org/octo-repo under entry "Octo-Org/Octo-Repo"; rule 0 failed on ref, rule 1 failed on event_name',
      );
      const logs = h.backend.logs.text();
      assert.ok(!logs.includes(oidcToken) && !logs.includes('secret-branch-name') && !logs.includes('schedule'));
      assert.ok(!JSON.stringify(res.body).includes('secret-branch-name'));
    });

    it('the policy is checked after the repository checks (a mismatch is still repo_mismatch)', async () => {
      const res = await h.token({ oidcToken: await h.oidc({ ref: 'refs/heads/x' }), owner: 'octo-org', repo: 'another' });
      assert.deepEqual([res.status, res.body], [403, { error: 'repo_mismatch' }]);
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/elsewhere';
      assert.deepEqual((await request()).body, { error: 'repo_not_allowed' });
    });
  });

  describe('an unusable policy', () => {
    const broken: [string, string][] = [
      ['does not parse', 'repositories: {"octo-org/octo-repo": [}'],
      ['names an unknown key', 'repositories:\n  octo-org/octo-repo:\n    - when: { ref: x }\n'],
      ['has an invalid permission', 'repositories:\n  octo-org/octo-repo:\n    - permissions: { organization_secrets: read }\n'],
    ];
    for (const [what, text] of broken) {
      it(`${what}: 500 invalid_policy on every request, before any key fetch or platform call`, async () => {
        h.backend.env.BROKER_POLICY = text;
        for (let i = 0; i < 2; i++) {
          const res = await request();
          assert.deepEqual([res.status, res.body], [500, { error: 'invalid_policy' }]);
        }
        assert.equal(h.github.count(), 0);
        assert.equal(h.issuer.jwksFetches, 0);
      });
    }

    it('a fixed policy applies on the next request', async () => {
      h.backend.env.BROKER_POLICY = 'repositories: [';
      assert.equal((await request()).status, 500);
      h.backend.env.BROKER_POLICY = POLICY;
      assert.equal((await request()).status, 200);
    });

    it('is logged at start with its line and column, never as a process-stopping problem', () => {
      const checked = checkBackendStartup({ PORT: '0', BROKER_POLICY: 'repositories:\n  octo-org/octo-repo:\n    - when: { ref: x }\n' });
      assert.ok(checked.ok);
      const warnings = checked.value.notices.filter((n) => n.level === 'warn').map((n) => n.message);
      assert.ok(
        warnings.includes('broker: BROKER_POLICY is invalid at line 3, column 7: unknown key "when" in a rule (expected name, if, permissions, sign); /token answers 500 invalid_policy'),
        warnings.join('\n'),
      );
    });
  });

  it('a blank BROKER_POLICY is no policy: today’s behaviour', async () => {
    h.backend.env.BROKER_POLICY = '  \n';
    const res = await request({ ref: 'refs/heads/anything', event_name: 'schedule' });
    assert.equal(res.status, 200);
    assert.deepEqual(h.github.grantOf(res.body.token as string), { installationId: INSTALLATION_ID, repositoryIds: [REPO_ID], permissions: { contents: 'write', pull_requests: 'write' } });
    assert.equal(res.body.repository, REPO);
  });
});

describe('BROKER_POLICY setting', () => {
  it('is parsed once per distinct text: another variable changing keeps the parsed policy', () => {
    const env: Record<string, string | undefined> = { BROKER_POLICY: POLICY };
    const source = () => brokerSettings(env);
    const first = source().policy;
    env.OIDC_AUDIENCE = 'other';
    const second = source();
    assert.deepEqual(second.audiences, ['other']);
    assert.equal(second.policy, first);
    env.BROKER_POLICY = `${POLICY}\n`;
    assert.notEqual(source().policy, first);
    env.BROKER_POLICY = POLICY;
    assert.equal(source().policy, first);
  });

  it('unset or blank is no policy; an unusable one is a ConfigError naming the setting, line and column', () => {
    assert.deepEqual(policySetting(undefined), { ok: true, value: undefined });
    assert.deepEqual(policySetting(' \n '), { ok: true, value: undefined });
    const bad = policySetting('\nrepositories:\n  x: []\n');
    assert.ok(!bad.ok);
    assert.equal(bad.error.setting, 'BROKER_POLICY');
    assert.match(bad.error.message, /at line 3, column 3: "x" is not owner\/name/);
  });
});
