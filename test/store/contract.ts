import assert from 'node:assert/strict';
import { v7 as uuidv7 } from 'uuid';
import type { DeploymentRecord, Store } from '../../server/store/types.js';

const DAY = 86_400_000;

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
