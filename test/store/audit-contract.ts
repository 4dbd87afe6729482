import assert from 'node:assert/strict';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import type { TokenAuditFields } from '../../server/audit/record.js';
import { auditNewestFirst, type TokenAuditEntry, type TokenAuditQuery } from '../../server/store/audit-types.js';
import type { Store } from '../../server/store/types.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The record of a token minted for `octo-org/octo-repo` by its deploy workflow on main. */
export function auditFields(overrides: Partial<TokenAuditFields> = {}): TokenAuditFields {
  return {
    broker: 'main',
    route: '/token',
    outcome: 'minted',
    reason: null,
    repository: 'octo-org/octo-repo',
    repository_id: '123456789',
    owner: 'octo-org',
    workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main',
    job_workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main',
    event_name: 'push',
    run_id: '1111111111',
    run_attempt: '1',
    actor: 'octocat',
    environment: 'production',
    policy_rule: 'octo-org/* rules[0] deploy',
    permissions_requested: { contents: 'write' },
    permissions_granted: { contents: 'write', metadata: 'read' },
    repositories: ['octo-org/octo-repo'],
    installation_id: 31337,
    expires_at: '2030-01-01T00:00:00Z',
    hashed_token: 'kXe8mrJOC0pA4d2C/5B6k0S3L1PzYpQ0wKx5+MJjEaQ=',
    ...overrides,
  };
}

export function auditEntry(recordedAt: Date, overrides: Partial<TokenAuditFields> = {}, extra: Partial<Omit<TokenAuditEntry, 'record'>> = {}): TokenAuditEntry {
  return { id: uuidv7(), recordedAt, expireAt: new Date(recordedAt.getTime() + 90 * DAY), record: auditFields(overrides), ...extra };
}

const ids = (entries: readonly TokenAuditEntry[]) => entries.map((e) => e.id);

/** The token audit's behaviour, the same in every store. `open` gives a fresh, empty store. */
export function tokenAuditContract(open: () => Promise<Store>): void {
  let store: Store;
  const list = (query: Partial<TokenAuditQuery> = {}) => store.tokenAudit.list({ limit: 1000, now: new Date(), ...query });

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  it('stores an entry and lists it back with every field intact, nulls included', async () => {
    const t = new Date(Date.now() - HOUR);
    const full = auditEntry(t);
    const refused = auditEntry(new Date(t.getTime() + 1), {
      outcome: 'invalid_oidc_token',
      reason: 'expired',
      repository_id: null,
      workflow_ref: null,
      job_workflow_ref: null,
      event_name: null,
      run_id: null,
      run_attempt: null,
      actor: null,
      environment: null,
      policy_rule: null,
      permissions_requested: null,
      permissions_granted: null,
      repositories: null,
      installation_id: null,
      expires_at: null,
      hashed_token: null,
    });
    await store.tokenAudit.insert(full);
    await store.tokenAudit.insert(refused);
    assert.deepEqual(await list(), [refused, full]);
  });

  it('lists newest first, by recordedAt then id, bounded by limit; since and until are inclusive', async () => {
    const t = Date.now() - DAY;
    const entries = [auditEntry(new Date(t)), auditEntry(new Date(t + HOUR)), auditEntry(new Date(t + HOUR)), auditEntry(new Date(t + 2 * HOUR))];
    for (const e of [entries[2]!, entries[0]!, entries[3]!, entries[1]!]) await store.tokenAudit.insert(e);
    const sorted = [...entries].sort(auditNewestFirst);
    assert.deepEqual(ids(await list()), ids(sorted));
    assert.deepEqual(ids(await list({ limit: 2 })), ids(sorted.slice(0, 2)));
    assert.deepEqual(ids(await list({ since: new Date(t + HOUR), until: new Date(t + HOUR) })), ids(sorted.slice(1, 3)));
  });

  it('after: the entries listed after a place, equal times resolved by id', async () => {
    const t = new Date(Date.now() - HOUR);
    const entries = Array.from({ length: 5 }, () => auditEntry(t));
    for (const e of entries) await store.tokenAudit.insert(e);
    const sorted = [...entries].sort(auditNewestFirst);
    const after = sorted[1]!;
    assert.deepEqual(ids(await list({ after: { recordedAt: after.recordedAt, id: after.id } })), ids(sorted.slice(2)));
  });

  it('filters: repository, owner and actor without case; outcome, hashed token and workflow (its ref exactly, or the path before @)', async () => {
    const t = Date.now() - HOUR;
    const a = auditEntry(new Date(t), { repository: 'Octo-Org/Octo-Repo', owner: 'Octo-Org', actor: 'OctoCat' });
    const b = auditEntry(new Date(t + 1), { repository: 'octo-org/other', repository_id: '2', actor: 'hubot', outcome: 'policy_denied', reason: 'claim_mismatch:ref', hashed_token: null });
    const c = auditEntry(new Date(t + 2), { repository: 'acme/app', owner: 'acme', workflow_ref: 'acme/app/.github/workflows/release.yml@refs/tags/v1', hashed_token: 'AAAAmrJOC0pA4d2C/5B6k0S3L1PzYpQ0wKx5+MJjEaQ=' });
    const d = auditEntry(new Date(t + 3), { repository: null, owner: null, actor: null, workflow_ref: null, outcome: 'invalid_json', hashed_token: null });
    for (const e of [a, b, c, d]) await store.tokenAudit.insert(e);
    assert.deepEqual(ids(await list({ repository: 'octo-org/octo-repo' })), ids([a]));
    assert.deepEqual(ids(await list({ owner: 'OCTO-ORG' })), ids([b, a]));
    assert.deepEqual(ids(await list({ actor: 'octocat' })), ids([c, a]));
    assert.deepEqual(ids(await list({ outcome: 'policy_denied' })), ids([b]));
    assert.deepEqual(ids(await list({ hashedToken: c.record.hashed_token! })), ids([c]));
    assert.deepEqual(ids(await list({ workflow: 'acme/app/.github/workflows/release.yml' })), ids([c]));
    assert.deepEqual(ids(await list({ workflow: 'acme/app/.github/workflows/release.yml@refs/tags/v1' })), ids([c]));
    assert.deepEqual(ids(await list({ workflow: 'acme/app/.github/workflows/release' })), [], 'a path is matched whole, not as a prefix');
    assert.deepEqual(ids(await list({ workflow: 'octo-org/octo-repo/.github/workflows/deploy.yml' })), ids([b, a]));
    assert.deepEqual(ids(await list({ owner: 'octo-org', outcome: 'minted', actor: 'octocat' })), ids([a]));
  });

  it('repositoryId: the repository by its id exactly, whatever name a record carries; a record without an id is no repository\'s', async () => {
    const t = Date.now() - HOUR;
    const before = auditEntry(new Date(t), { repository: 'octo-org/old-name', repository_id: '710001' });
    const after = auditEntry(new Date(t + 1), { repository: 'octo-org/web-app', repository_id: '710001', outcome: 'repo_mismatch', hashed_token: null });
    // The same name re-registered after a deletion is another repository (another id).
    const namesake = auditEntry(new Date(t + 2), { repository: 'octo-org/web-app', repository_id: '990001' });
    // Refused before its token was verified: only the name the body asked for.
    const unverified = auditEntry(new Date(t + 3), { repository: 'octo-org/web-app', repository_id: null, outcome: 'invalid_oidc_token', reason: 'expired', hashed_token: null });
    for (const e of [before, after, namesake, unverified]) await store.tokenAudit.insert(e);
    assert.deepEqual(ids(await list({ repositoryId: '710001' })), ids([after, before]));
    assert.deepEqual(ids(await list({ repositoryId: '710001', outcome: 'minted' })), ids([before]));
    assert.deepEqual(ids(await list({ repositoryId: '7100' })), [], 'an id is matched whole');
    assert.deepEqual(ids(await list({ repositoryId: '990001', repository: 'octo-org/web-app' })), ids([namesake]));
  });

  it('expired entries are gone', async () => {
    const t = Date.now();
    const live = auditEntry(new Date(t - HOUR));
    const expired = auditEntry(new Date(t - 2 * HOUR), {}, { expireAt: new Date(t - 1) });
    await store.tokenAudit.insert(expired);
    await store.tokenAudit.insert(live);
    assert.deepEqual(ids(await list({ now: new Date(t) })), ids([live]));
  });

  it('property: paging by place with any filter lists every matching entry once, newest first, as a direct filter would', async function () {
    this.timeout(60_000);
    const now = Date.now();
    const entry = fc.record({
      hoursAgo: fc.integer({ min: 0, max: 6 }),
      repository: fc.constantFrom('octo-org/octo-repo', 'Octo-Org/Octo-Repo', 'acme/app', null),
      repository_id: fc.constantFrom('123456789', '42', null),
      actor: fc.constantFrom('octocat', 'hubot', null),
      outcome: fc.constantFrom('minted', 'policy_denied', 'invalid_oidc_token'),
      workflow_ref: fc.constantFrom('octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main', 'acme/app/.github/workflows/ci.yml@refs/pull/1/merge', null),
      expired: fc.boolean(),
    });
    const query = fc.record(
      {
        repository: fc.constantFrom('octo-org/octo-repo', 'acme/app'),
        repositoryId: fc.constantFrom('123456789', '42'),
        actor: fc.constantFrom('OCTOCAT', 'hubot'),
        outcome: fc.constantFrom('minted', 'policy_denied'),
        workflow: fc.constantFrom('octo-org/octo-repo/.github/workflows/deploy.yml', 'acme/app/.github/workflows/ci.yml@refs/pull/1/merge'),
        sinceHours: fc.integer({ min: 0, max: 6 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 25 }), query, fc.integer({ min: 1, max: 4 }), async (rows, q, pageSize) => {
        const fresh = await open();
        try {
          const entries = rows.map((r) =>
            auditEntry(new Date(now - r.hoursAgo * HOUR), { repository: r.repository, repository_id: r.repository_id, actor: r.actor, outcome: r.outcome, workflow_ref: r.workflow_ref }, r.expired ? { expireAt: new Date(now - 1) } : {}),
          );
          for (const e of entries) await fresh.tokenAudit.insert(e);
          const base: TokenAuditQuery = {
            limit: pageSize,
            now: new Date(now),
            ...(q.repository ? { repository: q.repository } : {}),
            ...(q.repositoryId ? { repositoryId: q.repositoryId } : {}),
            ...(q.actor ? { actor: q.actor } : {}),
            ...(q.outcome ? { outcome: q.outcome } : {}),
            ...(q.workflow ? { workflow: q.workflow } : {}),
            ...(q.sinceHours !== undefined ? { since: new Date(now - q.sinceHours * HOUR) } : {}),
          };
          const lower = (v: string | null | undefined) => v?.toLowerCase();
          // An independent reading of the filters (docs/broker.md, "Audit").
          const matches = (r: TokenAuditFields) =>
            (q.repository === undefined || lower(r.repository) === lower(q.repository)) &&
            (q.repositoryId === undefined || r.repository_id === q.repositoryId) &&
            (q.actor === undefined || lower(r.actor) === lower(q.actor)) &&
            (q.outcome === undefined || r.outcome === q.outcome) &&
            (q.workflow === undefined || (r.workflow_ref !== null && (r.workflow_ref === q.workflow || r.workflow_ref.split('@')[0] === q.workflow)));
          const expected = entries
            .filter((e) => e.expireAt.getTime() > now && matches(e.record) && (!base.since || e.recordedAt >= base.since))
            .sort(auditNewestFirst);
          const seen: TokenAuditEntry[] = [];
          for (let page = 0; page < 30; page++) {
            const last = seen[seen.length - 1];
            const got = await fresh.tokenAudit.list({ ...base, ...(last ? { after: { recordedAt: last.recordedAt, id: last.id } } : {}) });
            seen.push(...got);
            if (got.length < pageSize) break;
          }
          assert.deepEqual(ids(seen), ids(expected));
        } finally {
          await fresh.close();
        }
      }),
      { numRuns: 40 },
    );
  });
}
