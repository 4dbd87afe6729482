import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { listAuditRecords, recordOf } from '../../server/audit/list-records.js';
import { AUDIT_FIELDS, type TokenAuditRecord } from '../../server/audit/record.js';
import { createMemoryStore } from '../../server/store/memory.js';
import { createMongoStore } from '../../server/store/mongo.js';
import type { Store } from '../../server/store/types.js';
import { FlakyStore } from '../faults/support.js';
import { manualClock } from '../support/backend.js';
import { call, type JsonAnswer } from '../support/http.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { REPO, REPO_ID, INSTALLATION_ID, startBroker, type BrokerHarness } from '../support/broker.js';

// Every answer of the main broker's POST /token and POST /sign writes exactly one audit record,
// before the answer, with what the request had shown: the verified token's claims, or, before a
// token is verified, only the owner/repo the body named (when they are valid GitHub names).

const uri = process.env.MONGODB_URI;

/** The stores the audit is checked on: in-memory always, MongoDB where MONGODB_URI is set. */
const STORES: { name: string; open: () => Promise<Store>; cleanup: () => Promise<void> }[] = [{ name: 'in-memory store', open: async () => createMemoryStore(), cleanup: async () => {} }];
if (uri) {
  const databases: string[] = [];
  STORES.push({
    name: 'MongoDB store',
    open: async () => {
      const name = `gatehouse_audit_${randomBytes(6).toString('hex')}`;
      databases.push(name);
      const store = createMongoStore(uri, { dbName: name });
      await store.ensureIndexes();
      return store;
    },
    cleanup: async () => {
      const client = new MongoClient(uri);
      try {
        for (const name of databases.splice(0)) await client.db(name).dropDatabase();
      } finally {
        await client.close();
      }
    },
  });
}

/** GitHub's `hashed_token`: base64 of the token's SHA-256, computed here without the product's code. */
const githubHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64');

/** Claims of a realistic run (the issuer adds repository, ids, ref, sha, run_id, actor, …). */
const RUN_CLAIMS = {
  workflow_ref: 'octo-org/octo-repo/.github/workflows/release.yml@refs/heads/main',
  job_workflow_ref: 'octo-org/shared/.github/workflows/publish.yml@refs/tags/v2',
  event_name: 'push',
  run_id: '9876543210',
  run_attempt: '2',
  actor: 'octocat',
  environment: 'production',
};

const NAMED_POLICY = `repositories:
  octo-org/*:
    - name: release-main
      if: { ref: refs/heads/main, event_name: push }
      permissions: { contents: write, pull_requests: write }
      sign: true
    - if: { event_name: pull_request }
      permissions: { contents: read }
`;

for (const kind of STORES) {
  describe(`token audit of the main broker (${kind.name})`, () => {
    let h: BrokerHarness;
    let store: Store;

    beforeEach(async () => {
      store = await kind.open();
      h = await startBroker({ store });
    });
    afterEach(() => h.close());
    after(() => kind.cleanup());

    const records = async (): Promise<TokenAuditRecord[]> => (await store.tokenAudit.list({ limit: 10_000, now: new Date() })).map(recordOf);

    /** Sends one request and returns its answer with the one record it added (failing on none or more). */
    async function recorded(send: () => Promise<JsonAnswer>): Promise<{ res: JsonAnswer; record: TokenAuditRecord }> {
      const before = (await records()).length;
      const res = await send();
      const after = await records();
      assert.equal(after.length, before + 1, `exactly one record for the answer ${res.status} ${res.text}`);
      return { res, record: after[0]! };
    }

    const body = async (overrides: Record<string, unknown> = {}, claims: Record<string, unknown> = RUN_CLAIMS) => ({
      oidcToken: await h.oidc(claims),
      owner: 'octo-org',
      repo: 'octo-repo',
      ...overrides,
    });

    it('a minted token: every field of the record, and hashed_token is base64(sha256(token)) of the token the GitHub fake minted', async () => {
      const started = Date.now();
      const { res, record } = await recorded(async () => h.token(await body({ permissions: { contents: 'read', issues: 'write' } })));
      assert.equal(res.status, 200, res.text);
      const token = res.body.token as string;
      assert.ok(h.github.grantOf(token), 'the token is one the GitHub fake minted');
      assert.deepEqual(Object.keys(record), [...AUDIT_FIELDS]);
      const { recorded_at: at, ...fields } = record;
      assert.ok(Date.parse(at) >= started - 5 && Date.parse(at) <= Date.now(), at);
      assert.deepEqual(fields, {
        broker: 'main',
        route: '/token',
        outcome: 'minted',
        reason: null,
        repository: REPO,
        repository_id: String(REPO_ID),
        owner: 'octo-org',
        ...RUN_CLAIMS,
        policy_rule: null,
        permissions_requested: { contents: 'read', issues: 'write' },
        permissions_granted: res.body.permissions,
        repositories: [REPO],
        installation_id: INSTALLATION_ID,
        expires_at: res.body.expires_at,
        hashed_token: githubHash(token),
      });
      assert.deepEqual(res.body.permissions, { contents: 'read' }, 'issues is not in the installation grant');
    });

    it('a claim the token does not carry, and a request without permissions, are null', async () => {
      const { record } = await recorded(async () => h.token({ oidcToken: await h.issuer.mint({ aud: 'gatehouse-broker' }, { omit: ['actor', 'run_attempt'] }), owner: 'octo-org', repo: 'octo-repo' }));
      assert.equal(record.outcome, 'minted');
      assert.deepEqual([record.actor, record.run_attempt, record.environment, record.workflow_ref, record.permissions_requested], [null, null, null, null, null]);
    });

    describe('every refusal of /token writes one record: its outcome is the answer\'s error, its reason the answer\'s reason', () => {
      type Identity = 'none' | 'asked' | 'verified';
      const cases: [string, () => Promise<JsonAnswer>, number, Identity, (() => void)?][] = [
        ['invalid_json', () => call(`${h.backend.url}/token`, { raw: '{"oidcToken":' }), 400, 'none'],
        ['invalid_request (not an object)', () => h.token([1, 2]), 400, 'none'],
        ['invalid_request (a permission outside the vocabulary)', async () => h.token(await body({ permissions: { admin: 'write' } })), 400, 'asked'],
        ['missing_required_fields', () => h.token({ owner: 'octo-org', repo: 'octo-repo' }), 400, 'asked'],
        ['payload_too_large', () => call(`${h.backend.url}/token`, { raw: JSON.stringify({ owner: 'octo-org', repo: 'octo-repo', pad: 'x'.repeat(70_000) }) }), 413, 'none'],
        ['invalid_token_permissions', async () => ((h.backend.env.TOKEN_PERMISSIONS = 'contents=admin'), h.token(await body())), 400, 'asked'],
        ['invalid_policy', async () => ((h.backend.env.BROKER_POLICY = 'repositories: ['), h.token(await body())), 500, 'asked'],
        ['misconfigured', async () => ((h.backend.env.OIDC_ISSUER = 'not a url'), h.token(await body())), 500, 'asked'],
        ['invalid_oidc_token (signature_invalid)', async () => h.token(await body({ oidcToken: await h.oidc({ ...RUN_CLAIMS, actor: 'mallory' }, { signWith: await TestIssuer.strayKey() }) })), 401, 'asked'],
        ['invalid_oidc_token (expired)', async () => h.token(await body({ oidcToken: await h.oidc({ exp: Math.floor(Date.now() / 1000) - 600 }) })), 401, 'asked'],
        ['repo_mismatch', async () => h.token(await body({ repo: 'other-repo' })), 403, 'verified'],
        ['repo_not_allowed', async () => ((h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/else'), h.token(await body())), 403, 'verified'],
        ['policy_denied', async () => ((h.backend.env.BROKER_POLICY = NAMED_POLICY), h.token(await body({}, { ...RUN_CLAIMS, event_name: 'issue_comment' }))), 403, 'verified'],
        ['app_unconfigured', async () => ((h.backend.env.FORGE_APP_ID = ''), h.token(await body())), 503, 'verified'],
        ['app_not_installed', async () => (h.github.addRepo('octo-org/no-app', 555, null), h.token(await body({ repo: 'no-app' }, { ...RUN_CLAIMS, repository: 'octo-org/no-app', repository_id: '555' }))), 404, 'verified'],
        ['platform_installation_lookup_failed', async () => (h.github.inject('repository_installation', { status: 500, body: { message: 'Server Error' } }), h.token(await body())), 500, 'verified'],
        ['mint_failed', async () => (h.github.inject('access_tokens', { status: 502, body: { message: 'Bad Gateway' } }), h.token(await body())), 502, 'verified'],
      ];
      for (const [name, send, status, identity] of cases) {
        it(name, async () => {
          const { res, record } = await recorded(send);
          assert.equal(res.status, status, res.text);
          assert.deepEqual([record.outcome, record.reason], [res.body.error, (res.body.reason as string | undefined) ?? null]);
          assert.deepEqual([record.broker, record.route], ['main', '/token']);
          assert.deepEqual(Object.keys(record), [...AUDIT_FIELDS]);
          // Nothing was handed out.
          assert.deepEqual([record.hashed_token, record.permissions_granted, record.expires_at, record.repositories, record.installation_id], [null, null, null, null, null]);
          const who = [record.owner, record.repository, record.repository_id, record.actor, record.workflow_ref, record.run_id];
          if (identity === 'none') assert.deepEqual(who, [null, null, null, null, null, null]);
          // Before verification only the body's names, never a claim of the token (actor mallory above).
          if (identity === 'asked') assert.deepEqual(who, ['octo-org', REPO, null, null, null, null]);
          if (identity === 'verified') {
            const expected = name === 'app_not_installed' ? ['octo-org', 'octo-org/no-app', '555'] : ['octo-org', REPO, String(REPO_ID)];
            assert.deepEqual(who, [...expected, RUN_CLAIMS.actor, RUN_CLAIMS.workflow_ref, RUN_CLAIMS.run_id]);
          }
        });
      }
    });

    it('oidc_key_fetch_failed (503, the key set unreachable): the body\'s names only', async () => {
      h.issuer.mode = 'down';
      const { res, record } = await recorded(async () => h.token(await body()));
      assert.equal(res.status, 503);
      assert.deepEqual([record.outcome, record.reason, record.owner, record.repository, record.actor], ['oidc_key_fetch_failed', 'jwks_unavailable', 'octo-org', REPO, null]);
    });

    it('a body whose owner or repo is not a GitHub name records neither', async () => {
      const { record } = await recorded(async () => h.token({ oidcToken: 'x', owner: '../../etc', repo: 'passwd' }));
      assert.deepEqual([record.outcome, record.owner, record.repository], ['invalid_oidc_token', null, null]);
      const second = await recorded(async () => h.token({ oidcToken: 'x', owner: 'octo-org', repo: 'a/b' }));
      assert.deepEqual([second.record.owner, second.record.repository], ['octo-org', null]);
    });

    it('policy_rule: the rule that allowed the token (entry, position, name) and the rule that refused one', async () => {
      h.backend.env.BROKER_POLICY = NAMED_POLICY;
      const allowed = await recorded(async () => h.token(await body()));
      assert.deepEqual([allowed.record.outcome, allowed.record.policy_rule], ['minted', 'octo-org/* rules[0] release-main']);
      const pr = await recorded(async () => h.token(await body({}, { ...RUN_CLAIMS, event_name: 'pull_request', ref: 'refs/pull/1/merge' })));
      assert.deepEqual([pr.record.outcome, pr.record.policy_rule, pr.record.permissions_granted], ['minted', 'octo-org/* rules[1]', { contents: 'read' }]);
      const denied = await recorded(async () => h.token(await body({}, { ...RUN_CLAIMS, event_name: 'schedule' })));
      assert.deepEqual([denied.record.outcome, denied.record.reason, denied.record.policy_rule], ['policy_denied', 'claim_mismatch:event_name', 'octo-org/* rules[1]']);
      h.backend.env.BROKER_POLICY = 'repositories:\n  acme/*:\n    - {}\n';
      const uncovered = await recorded(async () => h.token(await body()));
      assert.deepEqual([uncovered.record.reason, uncovered.record.policy_rule], ['repository_not_in_policy', null]);
    });

    it('GET /token (405) is not a token request and writes no record', async () => {
      const before = (await records()).length;
      assert.equal((await call(`${h.backend.url}/token`)).status, 405);
      assert.equal((await records()).length, before);
    });

    describe('/sign', () => {
      let head: string;
      beforeEach(() => {
        head = h.github.repos.get(REPO)!.branches.get('main')!;
      });
      const commit = (overrides: Record<string, unknown> = {}) => ({
        repo: REPO,
        branch: 'main',
        expected_head_oid: head,
        message: { headline: 'chore: release' },
        additions: [{ path: 'VERSION', contents: Buffer.from('2.0.0\n').toString('base64') }],
        ...overrides,
      });
      const sign = (json: unknown, bearer?: string) => call(`${h.backend.url}/sign`, { json, ...(bearer === undefined ? {} : { token: bearer }) });

      it('signed with the trigger secret: the body\'s repository, the one-use token by its hash (revoked), no claims', async () => {
        const { res, record } = await recorded(() => sign(commit(), h.triggerSecret));
        assert.equal(res.status, 200, res.text);
        const mint = h.github.calls.find((c) => c.route === 'access_tokens');
        assert.ok(mint);
        assert.equal(h.github.revoked.size, 1);
        const [token] = [...h.github.revoked];
        assert.deepEqual(
          { ...record, recorded_at: undefined },
          {
            recorded_at: undefined,
            broker: 'main',
            route: '/sign',
            outcome: 'signed',
            reason: null,
            repository: REPO,
            repository_id: null,
            owner: 'octo-org',
            workflow_ref: null,
            job_workflow_ref: null,
            event_name: null,
            run_id: null,
            run_attempt: null,
            actor: null,
            environment: null,
            policy_rule: null,
            permissions_requested: null,
            permissions_granted: { contents: 'write' },
            repositories: [REPO],
            installation_id: INSTALLATION_ID,
            expires_at: record.expires_at,
            hashed_token: githubHash(token!),
          },
        );
        assert.match(record.expires_at!, /^\d{4}-\d\d-\d\dT/);
      });

      it('signed with an OIDC token under a policy: its claims and the rule', async () => {
        h.backend.env.BROKER_POLICY = NAMED_POLICY;
        const { res, record } = await recorded(async () => sign(commit(), await h.oidc(RUN_CLAIMS)));
        assert.equal(res.status, 200, res.text);
        assert.deepEqual([record.outcome, record.repository_id, record.actor, record.workflow_ref, record.policy_rule], ['signed', String(REPO_ID), 'octocat', RUN_CLAIMS.workflow_ref, 'octo-org/* rules[0] release-main']);
      });

      it('refusals: sign_disabled, unauthorized, invalid_oidc_token, policy_denied, invalid_repo, no_file_changes, sign_failed, each one record', async () => {
        const expect = async (send: () => Promise<JsonAnswer>, outcome: string, check: (r: TokenAuditRecord) => void = () => {}) => {
          const { res, record } = await recorded(send);
          assert.deepEqual([record.route, record.outcome, record.reason], ['/sign', res.body.error, (res.body.reason as string | undefined) ?? null]);
          assert.equal(res.body.error, outcome, res.text);
          check(record);
        };
        await expect(() => sign(commit(), 'wrong'), 'unauthorized', (r) => assert.equal(r.repository, null, 'the body is never read without a credential'));
        await expect(() => sign(commit({ repo: 'not-a-repo' }), h.triggerSecret), 'invalid_repo', (r) => assert.equal(r.repository, null));
        await expect(() => sign(commit({ additions: [] }), h.triggerSecret), 'no_file_changes', (r) => assert.equal(r.repository, REPO));
        await expect(() => sign(commit({ expected_head_oid: 'b'.repeat(40) }), h.triggerSecret), 'sign_failed', (r) => assert.equal(r.hashed_token, githubHash([...h.github.revoked].at(-1)!)));
        h.backend.env.BROKER_POLICY = NAMED_POLICY;
        await expect(async () => sign(commit(), await h.oidc({ ...RUN_CLAIMS, actor: 'mallory' }, { signWith: await TestIssuer.strayKey() })), 'invalid_oidc_token', (r) => assert.equal(r.actor, null));
        await expect(async () => sign(commit(), await h.oidc({ ...RUN_CLAIMS, event_name: 'pull_request' })), 'policy_denied', (r) => assert.deepEqual([r.reason, r.policy_rule, r.actor], ['sign_not_allowed', 'octo-org/* rules[1]', 'octocat']));
        h.backend.env.BROKER_POLICY = '';
        h.backend.env.PROCESS_TRIGGER_SECRET = '';
        await expect(() => sign(commit(), 'anything'), 'sign_disabled');
      });
    });

    it('no record and no log line holds a minted token or an OIDC token (their hashes only)', async () => {
      const oidcTokens: string[] = [];
      const tokens: string[] = [];
      const send = async (overrides: Record<string, unknown> = {}, claims: Record<string, unknown> = RUN_CLAIMS) => {
        const b = await body(overrides, claims);
        oidcTokens.push(b.oidcToken as string);
        const res = await h.token(b);
        if (typeof res.body.token === 'string') tokens.push(res.body.token);
        return res;
      };
      for (let i = 0; i < 3; i++) await send();
      await send({ repo: 'other-repo' });
      await send({}, { ...RUN_CLAIMS, exp: Math.floor(Date.now() / 1000) - 600 });
      h.backend.env.BROKER_POLICY = NAMED_POLICY;
      await send();
      await send({}, { ...RUN_CLAIMS, event_name: 'schedule' });
      h.github.inject('access_tokens', { status: 502, body: { message: 'Bad Gateway' } });
      await send();
      const sign = await call(`${h.backend.url}/sign`, {
        token: h.triggerSecret,
        json: { repo: REPO, branch: 'main', expected_head_oid: h.github.repos.get(REPO)!.branches.get('main')!, message: { headline: 'x' }, deletions: [{ path: 'README.md' }] },
      });
      assert.ok(sign.status === 200 || sign.status === 502, sign.text);
      tokens.push(...h.github.revoked);
      assert.ok(tokens.length >= 4);
      const text = JSON.stringify(await records()) + h.backend.logs.text();
      for (const secret of [...tokens, ...oidcTokens, ...oidcTokens.map((t) => t.split('.')[2]!), h.triggerSecret]) {
        assert.ok(!text.includes(secret), `a secret reached a record or the log: ${secret.slice(0, 12)}…`);
      }
      for (const token of tokens.slice(0, 4)) assert.ok(text.includes(githubHash(token)), 'each minted token is there by its hash');
    });

    it('the record is written before the answer: a caller who has the token finds its record at once', async () => {
      const res = await h.token(await body());
      const page = await listAuditRecords({ store: store.tokenAudit, clock: { now: () => Date.now() } }, { hashed_token: githubHash(res.body.token as string) }, new Uint8Array(32));
      assert.equal(page.records.length, 1);
    });
  });
}

describe('token audit: a record that cannot be written', () => {
  let h: BrokerHarness;
  let store: FlakyStore;
  let clock: ReturnType<typeof manualClock>;

  beforeEach(async () => {
    store = new FlakyStore();
    clock = manualClock();
    h = await startBroker({ store, clock });
  });
  afterEach(() => h.close());

  const body = async () => ({ oidcToken: await h.oidc(RUN_CLAIMS), owner: 'octo-org', repo: 'octo-repo' });
  const failures = async () => {
    const text = await h.backend.metrics.text();
    return Object.fromEntries([...text.matchAll(/^gatehouse_audit_write_failures_total\{route="([^"]+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
  };

  it('best-effort (the default): the token is answered; the failure is counted in /metrics and logged at error level with the record\'s fields', async () => {
    assert.deepEqual(await failures(), { '/token': 0, '/sign': 0 });
    store.failNext('auditInsert');
    const res = await h.token(await body());
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await failures(), { '/token': 1, '/sign': 0 });
    const line = h.backend.logs.lines().find((l) => l.msg === 'token audit record not written');
    assert.equal(line?.level, 'error');
    const audit = line!.audit as Record<string, unknown>;
    assert.deepEqual([audit.outcome, audit.hashed_token, audit.actor], ['minted', githubHash(res.body.token as string), 'octocat']);
    assert.ok(!h.backend.logs.text().includes(res.body.token as string));
    assert.equal(h.github.revoked.size, 0);
  });

  it('AUDIT_WRITE=required: 503 audit_unavailable, and the token already minted is revoked at GitHub', async () => {
    h.backend.env.AUDIT_WRITE = 'required';
    store.failNext('auditInsert');
    const res = await h.token(await body());
    assert.deepEqual([res.status, res.body], [503, { error: 'audit_unavailable' }]);
    assert.equal(res.headers.get('retry-after'), '2');
    assert.equal(h.github.count('access_tokens'), 1, 'the token was minted');
    assert.equal(h.github.revoked.size, 1, 'and revoked');
    const [revoked] = [...h.github.revoked];
    assert.deepEqual(await failures(), { '/token': 1, '/sign': 0 });
    const tokenCounter = (await h.backend.metrics.text()).match(/^gatehouse_token_requests_total\{outcome="audit_unavailable"\} (\d+)$/m);
    assert.equal(tokenCounter?.[1], '1');
    const line = h.backend.logs.lines().find((l) => l.msg === 'token revoked: its audit record could not be written');
    assert.deepEqual([line?.level, line?.hashed_token, line?.revoked], ['error', githubHash(revoked!), true]);
    // Within 10 s the store is not tried again: the mint fails closed at once, counted.
    const soon = await h.token(await body());
    assert.deepEqual([soon.status, store.calls.auditInsert, h.github.revoked.size], [503, 1, 2]);
    assert.deepEqual(await failures(), { '/token': 2, '/sign': 0 });
    // The store is back, and 10 s have passed: the next request is tried, answered and recorded.
    clock.advance(10_000);
    const next = await h.token(await body());
    assert.equal(next.status, 200);
    assert.equal(store.calls.auditInsert, 2);
    assert.equal((await store.inner.tokenAudit.list({ limit: 10, now: new Date(clock.now()) })).length, 1, 'audit_unavailable itself writes no record (its record is what failed)');
  });

  it('after a failed write, records are not tried for 10 s (each counted and logged at once), then tried again', async () => {
    store.down = true;
    assert.equal((await h.token(await body())).status, 200);
    store.down = false;
    for (let i = 0; i < 3; i++) assert.equal((await h.token(await body())).status, 200);
    assert.equal(store.calls.auditInsert, 1, 'one attempt');
    const lines = h.backend.logs.lines().filter((l) => l.msg === 'token audit record not written');
    assert.deepEqual(lines.map((l) => l.level), ['error', 'error', 'error', 'error']);
    assert.match(String(lines[3]!.skipped), /less than 10 s ago/);
    clock.advance(9_999);
    await h.token(await body());
    assert.equal(store.calls.auditInsert, 1);
    clock.advance(1);
    await h.token(await body());
    assert.equal(store.calls.auditInsert, 2);
    assert.equal((await store.inner.tokenAudit.list({ limit: 10, now: new Date(clock.now()) })).length, 1);
    assert.deepEqual(await failures(), { '/token': 5, '/sign': 0 });
  });

  it('AUDIT_WRITE=required: refusals are still answered as they were (they hand out nothing), counted and logged', async () => {
    h.backend.env.AUDIT_WRITE = 'required';
    store.failNext('auditInsert');
    const res = await h.token({ owner: 'octo-org', repo: 'octo-repo' });
    assert.deepEqual([res.status, res.body], [400, { error: 'missing_required_fields', message: 'oidcToken, owner and repo are required' }]);
    assert.deepEqual(await failures(), { '/token': 1, '/sign': 0 });
  });

  it('/sign: the commit stands and is answered; the failure is counted under /sign', async () => {
    h.backend.env.AUDIT_WRITE = 'required';
    store.failNext('auditInsert');
    const res = await call(`${h.backend.url}/sign`, {
      token: h.triggerSecret,
      json: { repo: REPO, branch: 'main', expected_head_oid: h.github.repos.get(REPO)!.branches.get('main')!, message: { headline: 'x' }, deletions: [{ path: 'README.md' }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await failures(), { '/token': 0, '/sign': 1 });
  });

  it('an unusable AUDIT_WRITE refuses /token with 500 misconfigured before anything is minted', async () => {
    h.backend.env.AUDIT_WRITE = 'requird';
    const res = await h.token(await body());
    assert.deepEqual([res.status, res.body], [500, { error: 'misconfigured' }]);
    assert.equal(h.github.count('access_tokens'), 0);
  });
});
