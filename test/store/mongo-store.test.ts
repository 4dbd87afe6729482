import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { FIGURES_INDEX, figuresPipeline, groupedFiguresPipeline } from '../../server/store/mongo-figures.js';
import { createMongoStore, databaseName, type MongoStore } from '../../server/store/mongo.js';
import { StoreUnavailable } from '../../server/store/types.js';
import { closedPort } from '../support/servers.js';
import { figuresContract, groupedFiguresContract, keyValueContract, sessionContract, record, storeContract } from './contract.js';
import { auditEntry, tokenAuditContract } from './audit-contract.js';

const uri = process.env.MONGODB_URI;

describe('store contract: MongoDB (runs when MONGODB_URI is set; skipped otherwise)', function () {
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

  const open = async (): Promise<MongoStore> => {
    const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
    databases.push(name);
    const store = createMongoStore(uri!, { dbName: name });
    await store.ensureIndexes();
    return store;
  };

  storeContract(open);
  describe('figures', () => figuresContract(open));
  describe('grouped figures', () => groupedFiguresContract(open));
  describe('key values', () => keyValueContract(open));
  describe('console sessions', () => sessionContract(open));
  describe('token audit', () => tokenAuditContract(open));

  it('token audit: the TTL index on expireAt, one index per filter, and each filter answered from its index', async () => {
    const store = await open();
    try {
      const collection = store.db.collection('token_audit');
      const byName = new Map((await collection.listIndexes().toArray()).map((i) => [i.name as string, i]));
      assert.deepEqual(byName.get('retention')?.key, { expireAt: 1 });
      assert.equal(byName.get('retention')?.expireAfterSeconds, 0);
      for (const [name, key] of [
        ['by_repository', { 'match.repository': 1, recordedAt: -1, _id: -1 }],
        ['by_owner', { 'match.owner': 1, recordedAt: -1, _id: -1 }],
        ['by_actor', { 'match.actor': 1, recordedAt: -1, _id: -1 }],
        ['by_outcome', { outcome: 1, recordedAt: -1, _id: -1 }],
        ['by_workflow_ref', { workflow_ref: 1, recordedAt: -1, _id: -1 }],
        ['by_workflow_path', { 'match.workflow': 1, recordedAt: -1, _id: -1 }],
        ['by_hashed_token', { hashed_token: 1 }],
        ['newest', { recordedAt: -1, _id: -1 }],
      ] as const) {
        assert.deepEqual(byName.get(name)?.key, key, name);
      }
      const t = Date.now();
      for (let i = 0; i < 20; i++) await store.tokenAudit.insert(auditEntry(new Date(t - i * 60_000), { actor: i % 2 ? 'hubot' : 'octocat' }));
      const plan = JSON.stringify(await collection.find({ 'match.actor': 'hubot', expireAt: { $gt: new Date(t) } }).sort({ recordedAt: -1, _id: -1 }).limit(5).explain('queryPlanner'));
      assert.doesNotMatch(plan, /COLLSCAN/);
      assert.equal((await store.tokenAudit.list({ actor: 'HUBOT', limit: 100, now: new Date(t) })).length, 10);
    } finally {
      await store.close();
    }
  });

  it('has the unique idempotency index, the TTL indexes on expireAt and the history index', async () => {
    const store = await open();
    try {
      const indexes = await store.db.collection('deployments').listIndexes().toArray();
      const byName = new Map(indexes.map((i) => [i.name as string, i]));
      assert.deepEqual(byName.get('idempotency')?.key, { repositoryId: 1, deliveryId: 1 });
      assert.equal(byName.get('idempotency')?.unique, true);
      assert.deepEqual(byName.get('retention')?.key, { expireAt: 1 });
      assert.equal(byName.get('retention')?.expireAfterSeconds, 0);
      assert.deepEqual(byName.get('history')?.key, { repositoryId: 1, recordedAt: -1, _id: -1 });
      const kv = await store.db.collection('key_values').listIndexes().toArray();
      const expiry = kv.find((i) => i.name === 'expiry');
      assert.deepEqual(expiry?.key, { expireAt: 1 });
      assert.equal(expiry?.expireAfterSeconds, 0);
    } finally {
      await store.close();
    }
  });

  it('figures: one aggregation over the history_by_environment index (an index scan, never a collection scan)', async () => {
    const store = await open();
    try {
      const t = Date.now();
      for (let i = 0; i < 20; i++) {
        await store.deployments.insert(record({ environment: i % 2 ? 'staging' : 'production', recordedAt: new Date(t - i * 3_600_000) }), new Date(t));
      }
      for (const environment of ['production', undefined]) {
        const query = { repositoryId: '1001', from: new Date(t - 86_400_000), to: new Date(t), now: new Date(t), ...(environment ? { environment } : {}) };
        const plan = JSON.stringify(await store.db.collection('deployments').aggregate(figuresPipeline(query), { hint: FIGURES_INDEX }).explain('queryPlanner'));
        assert.match(plan, /"indexName":"history_by_environment"/, String(environment));
        assert.doesNotMatch(plan, /COLLSCAN/, String(environment));
        assert.equal((await store.deployments.figures(query)).counts.success, environment ? 10 : 20);
      }
    } finally {
      await store.close();
    }
  });
});

describe('store contract: MongoDB, grouped figures (runs when MONGODB_URI is set; skipped otherwise)', function () {
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  before(function () {
    if (!uri) this.skip();
  });
  after(async () => {
    if (!uri) return;
    const client = new MongoClient(uri);
    try {
      await client.db(name).dropDatabase();
    } finally {
      await client.close();
    }
  });

  it('the overview over many repositories: one aggregation over the history_by_environment index, never a collection scan; sessions have their TTL and person indexes', async () => {
    const store = createMongoStore(uri!, { dbName: name });
    try {
      await store.ensureIndexes();
      const t = Date.now();
      for (let i = 0; i < 30; i++) {
        await store.deployments.insert(record({ repositoryId: String(1000 + (i % 10)), environment: i % 2 ? 'staging' : 'production', recordedAt: new Date(t - i * 3_600_000) }), new Date(t));
      }
      const ids = Array.from({ length: 10 }, (_, i) => String(1000 + i));
      for (const byWeek of [false, true]) {
        const query = { repositoryIds: ids, from: new Date(t - 7 * 86_400_000), to: new Date(t), now: new Date(t), byWeek };
        const plan = JSON.stringify(await store.db.collection('deployments').aggregate(groupedFiguresPipeline(query), { hint: FIGURES_INDEX }).explain('queryPlanner'));
        assert.match(plan, /"indexName":"history_by_environment"/);
        assert.doesNotMatch(plan, /COLLSCAN/);
        const groups = await store.deployments.groupedFigures(query);
        assert.equal(groups.reduce((n, g) => n + g.figures.counts.success, 0), 30);
      }
      const sessionIndexes = new Map((await store.db.collection('console_sessions').listIndexes().toArray()).map((i) => [i.name as string, i]));
      assert.deepEqual(sessionIndexes.get('expiry')?.key, { expireAt: 1 });
      assert.equal(sessionIndexes.get('expiry')?.expireAfterSeconds, 0);
      assert.deepEqual(sessionIndexes.get('by_user')?.key, { userId: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('MongoDB store without a server', () => {
  it('answers StoreUnavailable (retryable) instead of hanging or crashing', async () => {
    const store = createMongoStore(`mongodb://127.0.0.1:${await closedPort()}/gatehouse`, { serverSelectionTimeoutMs: 300 });
    try {
      await assert.rejects(store.deployments.insert(record(), new Date()), StoreUnavailable);
      await assert.rejects(store.deployments.list({ repositoryId: '1', limit: 1, now: new Date() }), StoreUnavailable);
      await assert.rejects(store.deployments.figures({ repositoryId: '1', from: new Date(0), to: new Date(), now: new Date() }), StoreUnavailable);
    } finally {
      await store.close();
    }
  });

  it('uses the database named in the URI, else "gatehouse"', () => {
    assert.equal(databaseName('mongodb://db.example:27017/ledger?replicaSet=rs0'), 'ledger');
    assert.equal(databaseName('mongodb+srv://user:pw@cluster0.example.net/prod'), 'prod');
    assert.equal(databaseName('mongodb://localhost:27017'), 'gatehouse');
    assert.equal(databaseName('mongodb://localhost:27017/?retryWrites=true'), 'gatehouse');
  });
});
