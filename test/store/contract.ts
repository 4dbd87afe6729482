import assert from 'node:assert/strict';
import fc from 'fast-check';
import { v7 as uuidv7 } from 'uuid';
import { newestFirst, type ConsoleSession, type DeploymentRecord, type Store } from '../../server/store/types.js';
import { referenceFigures } from '../support/figures-reference.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const STATUSES = ['success', 'failure', 'rolled-back', 'skipped'] as const;

/**
 * Generated histories around `now`: times on a whole-hour grid (so equal times happen and the
 * (recordedAt, deploymentId) order matters), some outside the window or in the future, some
 * expired, some of another repository, some with committedAt.
 */
export const historyArbitrary = (now: number, repositoryId: string) =>
  fc.array(
    fc.record({
      // Mostly the last few days (dense enough for streaks), some anywhere in the last 40.
      hoursAgo: fc.oneof({ arbitrary: fc.integer({ min: -3, max: 96 }), weight: 4 }, { arbitrary: fc.integer({ min: -3, max: 40 * 24 }), weight: 1 }),
      environment: fc.constantFrom('production', 'staging'),
      status: fc.constantFrom(...STATUSES),
      leadHours: fc.option(fc.integer({ min: -2, max: 200 }), { nil: undefined }),
      expired: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      otherRepository: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      idSuffix: fc.integer({ min: 0, max: 0xffffff }),
    }),
    { maxLength: 60, size: 'max' },
  ).map((rows) =>
    rows.map((row, i) => {
      const recordedAt = new Date(now - row.hoursAgo * HOUR);
      return record({
        // Random order among equal times, unique by the row number.
        deploymentId: `00000000-0000-7000-8000-${row.idSuffix.toString(16).padStart(6, '0')}${i.toString(16).padStart(6, '0')}`,
        repositoryId: row.otherRepository ? `${repositoryId}-other` : repositoryId,
        deliveryId: `gen-${i}`,
        environment: row.environment,
        status: row.status,
        recordedAt,
        expireAt: row.expired ? new Date(now - HOUR) : new Date(now + 90 * DAY),
        ...(row.leadHours === undefined ? {} : { committedAt: new Date(recordedAt.getTime() - row.leadHours * HOUR) }),
      });
    }),
  );

export function record(overrides: Partial<DeploymentRecord> = {}): DeploymentRecord {
  const recordedAt = overrides.recordedAt ?? new Date();
  return {
    deploymentId: uuidv7(),
    repositoryId: '1001',
    repository: 'octo-org/app',
    deliveryId: `delivery-${uuidv7()}`,
    environment: 'production',
    status: 'success',
    mode: 'deploy',
    recordedAt,
    expireAt: new Date(recordedAt.getTime() + 90 * DAY),
    ...overrides,
  };
}

/**
 * The behaviour every store implementation must have. `open` gives a fresh, empty store.
 */
export function storeContract(open: () => Promise<Store>): void {
  let store: Store;
  const now = () => new Date();

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  it('stores a record and lists it back with every field intact', async () => {
    const full = record({
      target: 'function-zip',
      version: '1.2.3',
      url: 'https://app.example.com',
      commit: 'c'.repeat(40),
      runUrl: 'https://github.com/octo-org/app/actions/runs/1',
      actor: 'octocat',
      verified: true,
      durationMs: 1234,
      committedAt: new Date('2026-11-20T08:30:00.250Z'),
    });
    const outcome = await store.deployments.insert(full, now());
    assert.equal(outcome.duplicate, false);
    const [listed] = await store.deployments.list({ repositoryId: '1001', limit: 10, now: now() });
    assert.deepEqual(listed, full);
  });

  it('a repeated delivery id in one repository is a duplicate and returns the original', async () => {
    const first = record({ deliveryId: 'd-1', version: 'first' });
    await store.deployments.insert(first, now());
    const again = await store.deployments.insert(record({ deliveryId: 'd-1', version: 'second' }), now());
    assert.equal(again.duplicate, true);
    assert.equal(again.record.deploymentId, first.deploymentId);
    assert.equal(again.record.version, 'first');
    assert.equal((await store.deployments.list({ repositoryId: '1001', limit: 10, now: now() })).length, 1);
  });

  it('the same delivery id in another repository is a different record', async () => {
    await store.deployments.insert(record({ deliveryId: 'shared' }), now());
    const other = await store.deployments.insert(record({ deliveryId: 'shared', repositoryId: '2002', repository: 'octo-org/api' }), now());
    assert.equal(other.duplicate, false);
  });

  it('50 concurrent inserts of one delivery id store exactly one record', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.deployments.insert(record({ deliveryId: 'race', version: String(i) }), now())),
    );
    const stored = outcomes.filter((o) => !o.duplicate);
    assert.equal(stored.length, 1);
    const winner = stored[0]!.record.deploymentId;
    for (const o of outcomes) assert.equal(o.record.deploymentId, winner);
    assert.equal((await store.deployments.list({ repositoryId: '1001', limit: 100, now: now() })).length, 1);
  });

  it('lists newest first, by recordedAt then deploymentId, bounded by limit', async () => {
    const t = Date.now();
    const a = record({ recordedAt: new Date(t - 3000), deploymentId: '00000000-0000-7000-8000-00000000000a' });
    const b = record({ recordedAt: new Date(t - 1000), deploymentId: '00000000-0000-7000-8000-00000000000b' });
    const c = record({ recordedAt: new Date(t - 1000), deploymentId: '00000000-0000-7000-8000-00000000000c' });
    const d = record({ recordedAt: new Date(t - 2000), deploymentId: '00000000-0000-7000-8000-00000000000d' });
    for (const r of [a, b, c, d]) await store.deployments.insert(r, now());
    const all = await store.deployments.list({ repositoryId: '1001', limit: 10, now: now() });
    assert.deepEqual(
      all.map((r) => r.deploymentId),
      [c, b, d, a].map((r) => r.deploymentId),
    );
    const two = await store.deployments.list({ repositoryId: '1001', limit: 2, now: now() });
    assert.deepEqual(
      two.map((r) => r.deploymentId),
      [c, b].map((r) => r.deploymentId),
    );
  });

  it('filters by environment and never returns another repository', async () => {
    await store.deployments.insert(record({ environment: 'staging' }), now());
    await store.deployments.insert(record({ environment: 'production' }), now());
    await store.deployments.insert(record({ environment: 'staging', repositoryId: '2002', repository: 'octo-org/api' }), now());
    const staging = await store.deployments.list({ repositoryId: '1001', environment: 'staging', limit: 10, now: now() });
    assert.equal(staging.length, 1);
    assert.equal(staging[0]!.repositoryId, '1001');
    assert.equal(staging[0]!.environment, 'staging');
    assert.deepEqual(await store.deployments.list({ repositoryId: '3003', limit: 10, now: now() }), []);
  });

  it('since and until bound recordedAt, both inclusive', async () => {
    const t = Date.now();
    const rs = [5000, 4000, 3000, 2000, 1000].map((ago) => record({ recordedAt: new Date(t - ago), version: String(ago) }));
    for (const r of rs) await store.deployments.insert(r, now());
    const listed = await store.deployments.list({ repositoryId: '1001', since: new Date(t - 4000), until: new Date(t - 2000), limit: 10, now: now() });
    assert.deepEqual(
      listed.map((r) => r.version),
      ['2000', '3000', '4000'],
    );
    const staging = await store.deployments.list({ repositoryId: '1001', environment: 'staging', since: new Date(t - 4000), limit: 10, now: now() });
    assert.deepEqual(staging, []);
  });

  it('after: the records listed after a place, equal times resolved by deploymentId', async () => {
    const t = new Date(Date.now() - 1000);
    const ids = ['01', '02', '03', '04', '05'].map((n) => `00000000-0000-7000-8000-0000000000${n}`);
    const same = ids.slice(0, 4).map((deploymentId) => record({ deploymentId, recordedAt: t }));
    const older = record({ deploymentId: ids[4]!, recordedAt: new Date(t.getTime() - 1) });
    for (const r of [...same, older]) await store.deployments.insert(r, now());
    const page = await store.deployments.list({ repositoryId: '1001', after: { recordedAt: t, deploymentId: ids[2]! }, limit: 10, now: now() });
    assert.deepEqual(
      page.map((r) => r.deploymentId),
      [ids[1], ids[0], ids[4]],
    );
    const withUntil = await store.deployments.list({ repositoryId: '1001', after: { recordedAt: t, deploymentId: ids[2]! }, until: new Date(t.getTime() - 1), limit: 10, now: now() });
    assert.deepEqual(
      withUntil.map((r) => r.deploymentId),
      [ids[4]],
    );
  });

  it('paging by place while newer records arrive: every record once, none missed, newest first', async () => {
    const t = Date.now() - 10 * 60_000;
    // Coarse times: many records share one, so the deploymentId tie-break is exercised.
    const initial = Array.from({ length: 57 }, (_, i) => record({ recordedAt: new Date(t + Math.floor(i / 4) * 1000), environment: i % 3 ? 'production' : 'staging' }));
    for (const r of initial) await store.deployments.insert(r, now());
    const seen: DeploymentRecord[] = [];
    let after: { recordedAt: Date; deploymentId: string } | undefined;
    for (let page = 0; page < 100; page++) {
      const records = await store.deployments.list({ repositoryId: '1001', limit: 5, now: now(), ...(after ? { after } : {}) });
      // Arrivals between pages (the clock moves on): newer than everything listed so far.
      await store.deployments.insert(record({ recordedAt: new Date(t + 60_000 + page) }), now());
      if (records.length === 0) break;
      seen.push(...records);
      after = records[records.length - 1]!;
    }
    const initialIds = new Set(initial.map((r) => r.deploymentId));
    const seenInitial = seen.filter((r) => initialIds.has(r.deploymentId));
    assert.equal(new Set(seen.map((r) => r.deploymentId)).size, seen.length, 'a record listed twice');
    assert.equal(seenInitial.length, initial.length, 'a record missed');
    for (let i = 1; i < seen.length; i++) assert.ok(newestFirst(seen[i - 1]!, seen[i]!) < 0, 'not newest first');
  });

  it('expired records are gone, and their delivery id can be recorded again', async () => {
    const t = Date.now();
    const old = record({ deliveryId: 'old', recordedAt: new Date(t - 2 * DAY), expireAt: new Date(t - DAY) });
    await store.deployments.insert(old, new Date(t - 2 * DAY));
    const live = record({ deliveryId: 'live' });
    await store.deployments.insert(live, now());
    const listed = await store.deployments.list({ repositoryId: '1001', limit: 10, now: now() });
    assert.deepEqual(
      listed.map((r) => r.deliveryId),
      ['live'],
    );
    const again = await store.deployments.insert(record({ deliveryId: 'old' }), now());
    assert.equal(again.duplicate, false);
    assert.notEqual(again.record.deploymentId, old.deploymentId);
  });

  it('environments: each one’s newest record and newest success, newest environment first', async () => {
    const t = Date.now();
    const at = (ms: number) => new Date(t - ms);
    const prodOk = record({ environment: 'production', status: 'success', recordedAt: at(5000), version: 'p-ok' });
    const prodFail = record({ environment: 'production', status: 'failure', recordedAt: at(1000) });
    const stagingOld = record({ environment: 'staging', status: 'success', recordedAt: at(9000) });
    const stagingNew = record({ environment: 'staging', status: 'success', recordedAt: at(500), version: 's-new' });
    const previewOnlyFailed = record({ environment: 'preview', status: 'rolled-back', recordedAt: at(3000) });
    const expired = record({ environment: 'gone', recordedAt: at(2 * DAY), expireAt: at(DAY) });
    const elsewhere = record({ environment: 'elsewhere', repositoryId: '2002', repository: 'octo-org/api' });
    for (const r of [prodOk, prodFail, stagingOld, stagingNew, previewOnlyFailed, expired, elsewhere]) await store.deployments.insert(r, now());
    const states = await store.deployments.environments('1001', now());
    assert.deepEqual(states, [
      { environment: 'staging', latest: stagingNew, latestSuccess: stagingNew },
      { environment: 'production', latest: prodFail, latestSuccess: prodOk },
      { environment: 'preview', latest: previewOnlyFailed, latestSuccess: null },
    ]);
    assert.deepEqual(await store.deployments.environments('3003', now()), []);
  });

  it('environments: equal times resolve by deploymentId, as the history lists them', async () => {
    const t = new Date(Date.now() - 1000);
    const a = record({ environment: 'a', recordedAt: t, deploymentId: '00000000-0000-7000-8000-00000000000a' });
    const b1 = record({ environment: 'b', recordedAt: t, deploymentId: '00000000-0000-7000-8000-0000000000b1', status: 'failure' });
    const b2 = record({ environment: 'b', recordedAt: t, deploymentId: '00000000-0000-7000-8000-0000000000b0' });
    for (const r of [a, b1, b2]) await store.deployments.insert(r, now());
    const states = await store.deployments.environments('1001', now());
    assert.deepEqual(
      states.map((s) => [s.environment, s.latest.deploymentId, s.latestSuccess?.deploymentId]),
      [
        ['b', b1.deploymentId, b2.deploymentId],
        ['a', a.deploymentId, a.deploymentId],
      ],
    );
  });

  it('keeps the notification outcome and returns it with a duplicate', async () => {
    const first = record({ deliveryId: 'n-1' });
    await store.deployments.insert(first, now());
    await store.deployments.setNotified('1001', first.deploymentId, { chat: false });
    const dup = await store.deployments.insert(record({ deliveryId: 'n-1' }), now());
    assert.equal(dup.duplicate, true);
    assert.deepEqual(dup.record.notified, { chat: false });
    const [listed] = await store.deployments.list({ repositoryId: '1001', limit: 1, now: now() });
    assert.deepEqual(listed!.notified, { chat: false });
  });
}

/** The figures query of the store contract (both stores compute the same figures). */
export function figuresContract(open: () => Promise<Store>): void {
  let store: Store;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const window = { from: new Date(now - 30 * DAY), to: new Date(now), now: new Date(now) };
  const insertAll = async (records: DeploymentRecord[]) => {
    for (const r of records) assert.equal((await store.deployments.insert(r, new Date(now))).duplicate, false);
  };

  it('counts each status, success days, failure streaks per environment and lead times', async () => {
    await insertAll([
      // production: a streak of two failing records, a skipped one inside it, ended 5 h after it began.
      record({ environment: 'production', status: 'success', recordedAt: at(100), committedAt: at(101) }),
      record({ environment: 'production', status: 'failure', recordedAt: at(50) }),
      record({ environment: 'production', status: 'skipped', recordedAt: at(49) }),
      record({ environment: 'production', status: 'rolled-back', recordedAt: at(48) }),
      record({ environment: 'production', status: 'success', recordedAt: at(45), committedAt: at(48) }),
      // staging: a failure interleaved in time with production's streak is its own streak of 1 h.
      record({ environment: 'staging', status: 'failure', recordedAt: at(47) }),
      record({ environment: 'staging', status: 'success', recordedAt: at(46), committedAt: at(56) }),
      // An open streak (no success after it) counts in the rate but has no recovery.
      record({ environment: 'staging', status: 'failure', recordedAt: at(2) }),
    ]);
    const all = await store.deployments.figures({ repositoryId: '1001', ...window });
    assert.deepEqual(all, {
      counts: { success: 3, failure: 3, 'rolled-back': 1, skipped: 1 },
      successDays: new Set([at(100), at(45), at(46)].map((d) => d.toISOString().slice(0, 10))).size,
      recovery: { median: 1 * HOUR, p90: 5 * HOUR, count: 2 },
      leadTime: { median: 3 * HOUR, p90: 10 * HOUR, count: 3 },
      // 2026-11-16 08:00 (100 h ago), 11-18 10:00–14:00 (50 h to 45 h and 47 h, 46 h ago), 11-20 10:00 (2 h ago).
      byDay: new Map([
        ['2026-11-16', { success: 1, failure: 0, 'rolled-back': 0, skipped: 0 }],
        ['2026-11-18', { success: 2, failure: 2, 'rolled-back': 1, skipped: 1 }],
        ['2026-11-20', { success: 0, failure: 1, 'rolled-back': 0, skipped: 0 }],
      ]),
    });
    const production = await store.deployments.figures({ repositoryId: '1001', environment: 'production', ...window });
    assert.deepEqual(production.recovery, { median: 5 * HOUR, p90: 5 * HOUR, count: 1 });
    assert.deepEqual(production.counts, { success: 2, failure: 1, 'rolled-back': 1, skipped: 1 });
  });

  it('a failing record that opens the window starts a streak; the window is inclusive at both ends', async () => {
    await insertAll([
      record({ status: 'success', recordedAt: new Date(window.from.getTime() - 1) }),
      record({ status: 'failure', recordedAt: window.from }),
      record({ status: 'success', recordedAt: window.to }),
      record({ status: 'success', recordedAt: new Date(now + 1) }),
    ]);
    const figures = await store.deployments.figures({ repositoryId: '1001', ...window });
    assert.deepEqual(figures.counts, { success: 1, failure: 1, 'rolled-back': 0, skipped: 0 });
    assert.deepEqual(figures.recovery, { median: 30 * DAY, p90: 30 * DAY, count: 1 });
    assert.equal(figures.leadTime, null);
  });

  it('equal times follow the history order (deploymentId): a failure and a success at one instant', async () => {
    const t = at(10);
    await insertAll([
      record({ deploymentId: '00000000-0000-7000-8000-000000000002', status: 'success', recordedAt: t }),
      record({ deploymentId: '00000000-0000-7000-8000-000000000001', status: 'failure', recordedAt: t }),
    ]);
    assert.deepEqual((await store.deployments.figures({ repositoryId: '1001', ...window })).recovery, { median: 0, p90: 0, count: 1 });
  });

  it('leaves out expired records and other repositories; nothing selected gives zeros and nulls', async () => {
    await insertAll([
      record({ status: 'failure', recordedAt: at(3), expireAt: at(1) }),
      record({ status: 'success', recordedAt: at(2), repositoryId: '2002', repository: 'octo-org/api' }),
    ]);
    assert.deepEqual(await store.deployments.figures({ repositoryId: '1001', ...window }), {
      counts: { success: 0, failure: 0, 'rolled-back': 0, skipped: 0 },
      successDays: 0,
      recovery: null,
      leadTime: null,
      byDay: new Map(),
    });
    assert.deepEqual((await store.deployments.figures({ repositoryId: '1001', environment: 'nowhere', ...window })).recovery, null);
  });

  it('property: the figures of generated histories equal a direct computation', async function () {
    // Up to 60 histories of up to 60 inserts each: MongoDB in CI needs more than the default bound.
    this.timeout(120_000);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(historyArbitrary(now, 'gen'), fc.constantFrom(undefined, 'production', 'staging'), fc.integer({ min: 1, max: 35 }), async (history, environment, days) => {
        // A repository of its own per run: the store is not emptied between runs.
        const repositoryId = `gen-${run++}`;
        const records = history.map((r) => ({ ...r, repositoryId: r.repositoryId.replace(/^gen/, repositoryId) }));
        await insertAll(records);
        const query = { repositoryId, from: new Date(now - days * DAY), to: new Date(now), now: new Date(now), ...(environment ? { environment } : {}) };
        assert.deepEqual(await store.deployments.figures(query), referenceFigures(records, query));
      }),
      { numRuns: 60 },
    );
  });
}

/**
 * The grouped figures (the console's overview and weekly series): one query over many
 * repositories, each group equal to the figures of its repository, environment (and week).
 */
export function groupedFiguresContract(open: () => Promise<Store>): void {
  let store: Store;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const window = { from: new Date(now - 30 * DAY), to: new Date(now), now: new Date(now) };
  const insertAll = async (records: DeploymentRecord[]) => {
    for (const r of records) assert.equal((await store.deployments.insert(r, new Date(now))).duplicate, false);
  };
  const withoutDays = <T extends { byDay: unknown }>({ byDay: _, ...totals }: T): Omit<T, 'byDay'> => totals;

  it('one group per repository and environment of the given ids, ordered, each equal to that repository and environment alone', async () => {
    await insertAll([
      record({ repositoryId: '1001', environment: 'production', status: 'failure', recordedAt: at(10) }),
      record({ repositoryId: '1001', environment: 'production', status: 'success', recordedAt: at(8), committedAt: at(9) }),
      record({ repositoryId: '1001', environment: 'staging', status: 'success', recordedAt: at(7) }),
      record({ repositoryId: '2002', repository: 'octo-org/api', environment: 'production', status: 'rolled-back', recordedAt: at(6) }),
      // Not asked for, expired, outside the window: none of them appears.
      record({ repositoryId: '3003', repository: 'octo-org/other', environment: 'production', recordedAt: at(5) }),
      record({ repositoryId: '2002', repository: 'octo-org/api', environment: 'preview', recordedAt: at(5), expireAt: at(1) }),
      record({ repositoryId: '2002', repository: 'octo-org/api', environment: 'old', recordedAt: at(31 * 24) }),
    ]);
    const groups = await store.deployments.groupedFigures({ repositoryIds: ['2002', '1001', '4004', '1001'], ...window });
    assert.deepEqual(
      groups.map((g) => [g.repositoryId, g.environment, g.week]),
      [
        ['1001', 'production', undefined],
        ['1001', 'staging', undefined],
        ['2002', 'production', undefined],
      ],
    );
    for (const group of groups) {
      assert.deepEqual(group.figures, withoutDays(await store.deployments.figures({ repositoryId: group.repositoryId, environment: group.environment, ...window })));
    }
    assert.deepEqual(groups[0]!.figures.recovery, { median: 2 * HOUR, p90: 2 * HOUR, count: 1 });
    assert.deepEqual(await store.deployments.groupedFigures({ repositoryIds: [], ...window }), []);
    const staging = await store.deployments.groupedFigures({ repositoryIds: ['1001', '2002'], environment: 'staging', ...window });
    assert.deepEqual(
      staging.map((g) => [g.repositoryId, g.environment]),
      [['1001', 'staging']],
    );
  });

  it('by ISO week: Monday 00:00 UTC starts a week, and a streak does not cross into the next week', async () => {
    // 2026-11-20 is a Friday; its week began on Monday 2026-11-16.
    const monday = Date.UTC(2026, 10, 16);
    await insertAll([
      record({ status: 'failure', recordedAt: new Date(monday - HOUR) }),
      record({ status: 'success', recordedAt: new Date(monday) }),
      record({ status: 'failure', recordedAt: new Date(monday + HOUR) }),
      record({ status: 'success', recordedAt: new Date(monday + 3 * HOUR) }),
    ]);
    const groups = await store.deployments.groupedFigures({ repositoryIds: ['1001'], ...window, byWeek: true });
    assert.deepEqual(
      groups.map((g) => [g.week, g.figures.counts.success, g.figures.counts.failure, g.figures.recovery?.median ?? null]),
      [
        ['2026-11-09', 0, 1, null],
        ['2026-11-16', 2, 1, 2 * HOUR],
      ],
    );
  });

  it('property: every group equals the figures of its repository, environment and week computed directly', async function () {
    this.timeout(120_000);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(historyArbitrary(now, 'grp'), fc.constantFrom(undefined, 'production', 'staging'), fc.integer({ min: 1, max: 35 }), fc.boolean(), async (history, environment, days, byWeek) => {
        const repositoryId = `grp-${run++}`;
        // The generated "other repository" records become a second repository asked for too.
        const records = history.map((r) => ({ ...r, repositoryId: r.repositoryId.replace(/^grp/, repositoryId) }));
        await insertAll(records);
        const ids = [repositoryId, `${repositoryId}-other`];
        const from = new Date(now - days * DAY);
        const groups = await store.deployments.groupedFigures({ repositoryIds: ids, from, to: new Date(now), now: new Date(now), byWeek, ...(environment ? { environment } : {}) });
        const selected = records.filter((r) => r.expireAt.getTime() > now && r.recordedAt >= from && r.recordedAt.getTime() <= now && (environment === undefined || r.environment === environment));
        const mondayOf = (d: Date) => {
          const day = Math.floor(d.getTime() / DAY);
          return new Date((day - ((((day + 3) % 7) + 7) % 7)) * DAY).toISOString().slice(0, 10);
        };
        const keyOf = (r: { repositoryId: string; environment: string; recordedAt: Date }) => `${r.repositoryId} ${r.environment} ${byWeek ? mondayOf(r.recordedAt) : ''}`;
        assert.deepEqual(groups.map((g) => `${g.repositoryId} ${g.environment} ${g.week ?? ''}`), [...new Set(selected.map(keyOf))].sort());
        for (const group of groups) {
          const weekFrom = group.week ? Date.parse(`${group.week}T00:00:00Z`) : from.getTime();
          const weekTo = group.week ? weekFrom + 7 * DAY - 1 : now;
          const q = { repositoryId: group.repositoryId, environment: group.environment, from: new Date(Math.max(weekFrom, from.getTime())), to: new Date(Math.min(weekTo, now)), now: new Date(now) };
          assert.deepEqual(group.figures, withoutDays(referenceFigures(records, q)));
        }
      }),
      { numRuns: 60 },
    );
  });
}

/** Console sessions: kept until their end, shared by replicas, ended by id or by person. */
export function sessionContract(open: () => Promise<Store>): void {
  let store: Store;
  const MINUTE = 60_000;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  const session = (overrides: Partial<ConsoleSession> = {}): ConsoleSession => ({
    id: `s-${uuidv7()}`,
    userId: '583231',
    login: 'octocat',
    createdAt: new Date(Date.now() - MINUTE),
    expireAt: new Date(Date.now() + 60 * MINUTE),
    credentials: 'sealed-1',
    repositories: null,
    ...overrides,
  });

  it('keeps a session with every field, copied in and out, until its end', async () => {
    const s = session();
    await store.sessions.create(s);
    const read = await store.sessions.get(s.id, new Date());
    assert.deepEqual(read, s);
    assert.equal(await store.sessions.get(s.id, new Date(s.expireAt.getTime())), undefined);
    assert.equal(await store.sessions.get('unknown', new Date()), undefined);
  });

  it('caches the repository list with its permissions', async () => {
    const s = session();
    await store.sessions.create(s);
    const cache = {
      fetchedAt: new Date('2026-11-20T12:00:00.123Z'),
      truncated: false,
      repositories: [{ id: '1296269', owner: 'octo-org', name: 'app', private: true, htmlUrl: 'https://github.com/octo-org/app', permissions: { admin: true, maintain: true, push: true, triage: true, pull: true } }],
    };
    await store.sessions.cacheRepositories(s.id, cache);
    cache.repositories[0]!.permissions.admin = false;
    assert.deepEqual((await store.sessions.get(s.id, new Date()))?.repositories?.repositories[0]?.permissions.admin, true);
    assert.deepEqual((await store.sessions.get(s.id, new Date()))?.repositories?.fetchedAt, cache.fetchedAt);
  });

  it('replaces the credentials only while they are what the caller read: one of many concurrent refreshes wins', async () => {
    const s = session();
    await store.sessions.create(s);
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.sessions.replaceCredentials(s.id, 'sealed-1', `sealed-2-${i}`)));
    assert.equal(outcomes.filter(Boolean).length, 1);
    const winner = outcomes.indexOf(true);
    assert.equal((await store.sessions.get(s.id, new Date()))?.credentials, `sealed-2-${winner}`);
    assert.equal(await store.sessions.replaceCredentials('unknown', 'sealed-1', 'x'), false);
  });

  it('ends one session, or every session of one person', async () => {
    const a = session();
    const b = session();
    const other = session({ userId: '9919', login: 'hubot' });
    for (const s of [a, b, other]) await store.sessions.create(s);
    await store.sessions.end(a.id);
    assert.equal(await store.sessions.get(a.id, new Date()), undefined);
    assert.equal(await store.sessions.endForUser('583231'), 1);
    assert.equal(await store.sessions.get(b.id, new Date()), undefined);
    assert.ok(await store.sessions.get(other.id, new Date()));
    assert.equal(await store.sessions.endForUser('583231'), 0);
  });
}

/** The key-value half of the store contract. `open` gives a fresh, empty store. */
export function keyValueContract(open: () => Promise<Store>): void {
  let store: Store;
  const MINUTE = 60_000;

  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  it('puts and gets a JSON value, copied in and out', async () => {
    const value = { keys: [{ kty: 'RSA', kid: 'k1', 'x.y': '$odd' }], n: 1 };
    await store.keyValues.put('ns', 'k', value, null);
    value.n = 2;
    const read = (await store.keyValues.get('ns', 'k', new Date())) as typeof value;
    assert.deepEqual(read, { keys: [{ kty: 'RSA', kid: 'k1', 'x.y': '$odd' }], n: 1 });
    read.n = 3;
    assert.equal(((await store.keyValues.get('ns', 'k', new Date())) as typeof value).n, 1);
  });

  it('replaces a value and keeps namespaces apart', async () => {
    await store.keyValues.put('a', 'k', 'first', null);
    await store.keyValues.put('a', 'k', 'second', null);
    await store.keyValues.put('b', 'k', 'other', null);
    assert.equal(await store.keyValues.get('a', 'k', new Date()), 'second');
    assert.equal(await store.keyValues.get('b', 'k', new Date()), 'other');
    assert.equal(await store.keyValues.get('c', 'k', new Date()), undefined);
  });

  it('an expired value reads as absent; a null expiry never expires', async () => {
    const now = Date.now();
    await store.keyValues.put('ns', 'short', 1, new Date(now + MINUTE));
    await store.keyValues.put('ns', 'forever', 2, null);
    assert.equal(await store.keyValues.get('ns', 'short', new Date(now)), 1);
    assert.equal(await store.keyValues.get('ns', 'short', new Date(now + 2 * MINUTE)), undefined);
    assert.equal(await store.keyValues.get('ns', 'forever', new Date(now + 1000 * MINUTE)), 2);
  });

  it('claim writes only when no live value exists', async () => {
    const now = new Date();
    assert.equal(await store.keyValues.claim('seen', 'd-1', true, new Date(now.getTime() + MINUTE), now), true);
    assert.equal(await store.keyValues.claim('seen', 'd-1', true, new Date(now.getTime() + MINUTE), now), false);
    await store.keyValues.put('seen', 'kept', true, null);
    assert.equal(await store.keyValues.claim('seen', 'kept', true, new Date(now.getTime() + MINUTE), now), false);
  });

  it('an expired claim can be claimed again', async () => {
    const t = Date.now();
    assert.equal(await store.keyValues.claim('seen', 'd-2', 'old', new Date(t - MINUTE), new Date(t - 2 * MINUTE)), true);
    assert.equal(await store.keyValues.claim('seen', 'd-2', 'new', new Date(t + MINUTE), new Date(t)), true);
    assert.equal(await store.keyValues.get('seen', 'd-2', new Date(t)), 'new');
  });

  it('50 concurrent claims of one key: exactly one wins', async () => {
    const now = new Date();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.keyValues.claim('seen', 'race', i, new Date(now.getTime() + MINUTE), now)),
    );
    assert.equal(outcomes.filter(Boolean).length, 1);
  });
}
