import { createMemoryStore } from '../../server/store/memory.js';
import { figuresContract, groupedFiguresContract, keyValueContract, sessionContract, storeContract } from './contract.js';
import assert from 'node:assert/strict';
import { MemoryTokenAuditStore } from '../../server/store/audit-memory.js';
import { auditEntry, tokenAuditContract } from './audit-contract.js';

describe('store contract: in-memory', () => {
  storeContract(async () => createMemoryStore());
  describe('figures', () => figuresContract(async () => createMemoryStore()));
  describe('grouped figures', () => groupedFiguresContract(async () => createMemoryStore()));
  describe('key values', () => keyValueContract(async () => createMemoryStore()));
  describe('console sessions', () => sessionContract(async () => createMemoryStore()));
  describe('token audit', () => tokenAuditContract(async () => createMemoryStore()));
});

describe('in-memory token audit', () => {
  it('keeps at most its capacity, dropping the oldest entries first (refusals are recorded too, and anyone can cause them)', async () => {
    const audit = new MemoryTokenAuditStore(3);
    const t = Date.now() - 60_000;
    const entries = Array.from({ length: 5 }, (_, i) => auditEntry(new Date(t + i)));
    for (const e of entries) await audit.insert(e);
    assert.deepEqual(
      (await audit.list({ limit: 10, now: new Date() })).map((e) => e.id),
      entries.slice(2).reverse().map((e) => e.id),
    );
    // Larger: dropped entries are compacted only now and then, and never listed meanwhile.
    const larger = new MemoryTokenAuditStore(40);
    const many = Array.from({ length: 97 }, (_, i) => auditEntry(new Date(t + i)));
    for (const [i, e] of many.entries()) {
      await larger.insert(e);
      const listed = (await larger.list({ limit: 100, now: new Date() })).map((x) => x.id);
      assert.deepEqual(listed, many.slice(Math.max(0, i + 1 - 40), i + 1).reverse().map((x) => x.id), `after ${i + 1}`);
    }
  });
});

describe('in-memory store: the clock it is given', () => {
  it('sweeps expired key values and sessions by that clock, not the system time: entries live on it survive the sweep', async () => {
    // A clock years behind the system's: every entry below is live on it and long expired on the system's.
    const past = Date.parse('2020-01-01T00:00:00Z');
    const store = createMemoryStore({ now: () => past });
    const now = new Date(past);
    const inAnHour = new Date(past + 3_600_000);
    const session = (id: string) => ({ id, userId: '583231', login: 'octocat', createdAt: now, expireAt: inAnHour, credentials: 'sealed-1', repositories: null });
    await store.keyValues.put('ns', 'kept', { v: 1 }, inAnHour);
    await store.sessions.create(session('s-kept'));
    // More writes than the store makes between two sweeps.
    for (let i = 0; i < 1000; i++) {
      await store.keyValues.put('ns', `k${i}`, i, inAnHour);
      await store.sessions.create(session(`s-${i}`));
    }
    assert.deepEqual(await store.keyValues.get('ns', 'kept', now), { v: 1 });
    assert.equal((await store.sessions.get('s-kept', now))?.login, 'octocat');
    // And what is expired on that clock is swept by it.
    const later = Date.parse('2020-01-01T02:00:00Z');
    const swept = createMemoryStore({ now: () => later });
    await swept.keyValues.put('ns', 'old', 1, inAnHour);
    for (let i = 0; i < 999; i++) await swept.keyValues.put('ns', `n${i}`, i, null);
    assert.equal(await swept.keyValues.get('ns', 'old', new Date(past)), undefined, 'swept at the 1000th write: expired on the store\'s clock');
  });
});
