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
