import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { memoryLocks, type SourceLocks } from '../../server/sync/service/locks.js';
import * as mongodb from 'mongodb';
import { mongoLocks } from '../../server/sync/service/locks-mongo.js';
import { StoreUnavailable } from '../../server/store/types.js';
import { closedPort } from '../support/servers.js';

/** What every lock implementation must do. `open` gives fresh locks; two calls share one store. */
function locksContract(open: () => Promise<[SourceLocks, SourceLocks]>): void {
  let a: SourceLocks;
  let b: SourceLocks;
  beforeEach(async () => {
    [a, b] = await open();
  });
  afterEach(async () => {
    await a.close();
    if (b !== a) await b.close();
  });

  it('one holder per source; other sources are free; release frees it', async () => {
    const lease = await a.acquire('github', 'run-1');
    assert.ok(lease);
    assert.equal(await a.acquire('github', 'run-2'), undefined);
    assert.equal(await b.acquire('github', 'run-3'), undefined, 'held for every process sharing the store');
    const other = await b.acquire('dependencytrack', 'run-4');
    assert.ok(other);
    await lease.release();
    const again = await b.acquire('github', 'run-5');
    assert.ok(again);
    await again.release();
    await other.release();
  });

  it('of many concurrent attempts exactly one wins', async () => {
    const leases = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).acquire('sonarqube', `run-${i}`)));
    assert.equal(leases.filter(Boolean).length, 1);
    await leases.find(Boolean)!.release();
  });

  it('releasing a lease twice, or after another took it, leaves the other holder alone', async () => {
    const first = (await a.acquire('github', 'run-1'))!;
    await first.release();
    const second = (await b.acquire('github', 'run-2'))!;
    await first.release();
    assert.equal(await a.acquire('github', 'run-3'), undefined);
    await second.release();
  });
}

describe('sync locks contract: in memory', () => {
  locksContract(async () => {
    const locks = memoryLocks();
    return [locks, locks];
  });
});

const uri = process.env.MONGODB_URI;

describe('sync locks contract: MongoDB (runs when MONGODB_URI is set; skipped otherwise)', function () {
  const databases: string[] = [];
  before(function () {
    // No MongoDB server can run on the development machines; CI's workflow provides one.
    if (!uri) this.skip();
  });
  after(async () => {
    if (!uri || databases.length === 0) return;
    const client = new MongoClient(uri);
    try {
      for (const name of databases) await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });

  locksContract(async () => {
    const dbName = `gatehouse_locks_${randomBytes(6).toString('hex')}`;
    databases.push(dbName);
    return [mongoLocks(uri!, { dbName }, mongodb), mongoLocks(uri!, { dbName }, mongodb)];
  });

  it('a crashed holder’s lease expires; a live holder keeps renewing its own', async () => {
    const dbName = `gatehouse_locks_${randomBytes(6).toString('hex')}`;
    databases.push(dbName);
    const lost: string[] = [];
    const a = mongoLocks(uri!, { dbName, leaseMs: 300, onLost: (s) => lost.push(s) }, mongodb);
    const b = mongoLocks(uri!, { dbName, leaseMs: 300 }, mongodb);
    try {
      const live = (await a.acquire('github', 'live'))!;
      await sleep(700);
      assert.equal(await b.acquire('github', 'other'), undefined, 'renewed, so still held');
      await live.release();
      // A holder that never renews (its process died) is simulated by a lease taken directly.
      const client = new MongoClient(uri!);
      await client.db(dbName).collection<{ _id: string; holder: string; acquiredAt: Date; expiresAt: Date }>('sync_locks').insertOne({ _id: 'sonarqube', holder: 'dead', acquiredAt: new Date(), expiresAt: new Date(Date.now() + 200) });
      await client.close();
      assert.equal(await b.acquire('sonarqube', 'next'), undefined);
      await sleep(300);
      assert.ok(await b.acquire('sonarqube', 'next'));
      assert.deepEqual(lost, []);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('sync locks on MongoDB without a server', () => {
  it('answers StoreUnavailable, so a trigger gets a retryable 503', async () => {
    const locks = mongoLocks(`mongodb://127.0.0.1:${await closedPort()}/gatehouse`, { dbName: 'x', serverSelectionTimeoutMs: 300 }, mongodb);
    try {
      await assert.rejects(locks.acquire('github', 'run'), StoreUnavailable);
    } finally {
      await locks.close();
    }
  });
});
