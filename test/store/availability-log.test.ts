import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import * as driver from 'mongodb';
import { ReadinessLog } from '../../server/readiness-log.js';
import { mongoLocks } from '../../server/sync/service/locks-mongo.js';
import { createStore } from '../../server/store/index.js';
import { StoreUnavailable } from '../../server/store/types.js';
import { capturedLogger } from '../support/log-capture.js';
import { closedPort } from '../support/servers.js';

// The backend's own readiness is its database. An operator sees a loss once (warn, with the
// driver's reason) and the recovery once (info), not one line per request that answered 503.
// A database that is down when the process starts is used once it is up: the driver alone would
// keep its failed first connection and answer "Topology is closed" to every later call.

/** The StoreUnavailable a call failed with, and the driver error behind it. */
async function failure(call: Promise<unknown>): Promise<string> {
  const err = await call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof StoreUnavailable, String(err));
  return (err.cause as Error).name;
}

/**
 * A loopback TCP door in front of the real MongoDB of MONGODB_URI: shut (connections refused)
 * until `open()`, then each connection is piped to the server.
 */
async function door(target: { host: string; port: number }): Promise<{ port: number; open(): void; close(): Promise<void> }> {
  let open = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!open) return client.destroy();
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    open: () => (open = true),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("the backend's store readiness in the log", function () {
  this.timeout(20_000);

  it('a database that cannot be reached: one warn "not ready: store_unavailable" with the reason, however many calls fail; the password in MONGODB_URI is never written', async () => {
    const { logger, lines, text } = capturedLogger();
    const port = await closedPort();
    const store = createStore({ MONGODB_URI: `mongodb://gatehouse:s3cret-Passw0rd@127.0.0.1:${port}/gatehouse_t?serverSelectionTimeoutMS=300&connectTimeoutMS=300` }, logger);
    try {
      for (let call = 0; call < 3; call++) {
        await assert.rejects(store.keyValues.get('ns', 'key', new Date()), StoreUnavailable);
      }
      // Start-up's index creation fails too; wait for its line.
      for (let waited = 0; !lines().some((l) => l.msg === 'MongoDB indexes could not be created yet; writes retry and answer 503 meanwhile') && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const notReady = lines().filter((l) => l.msg === 'not ready: store_unavailable');
      assert.equal(notReady.length, 1, text());
      assert.equal(notReady[0]!.level, 'warn');
      assert.equal(notReady[0]!.reason, 'store_unavailable');
      assert.match(String(notReady[0]!.cause), /^MongoServerSelectionError: .*ECONNREFUSED/);
      assert.equal(lines().filter((l) => /ready/.test(String(l.msg)) && l.msg !== 'not ready: store_unavailable').length, 0, 'no "ready" line before a success');
      assert.doesNotMatch(text(), /s3cret-Passw0rd/);
    } finally {
      await store.close();
    }
  });

  it('after a failed first connection, each later call tries the database again (the store and the sync locks)', async () => {
    const port = await closedPort();
    const uri = `mongodb://127.0.0.1:${port}/gatehouse_t?serverSelectionTimeoutMS=200&connectTimeoutMS=200`;
    const store = createStore({ MONGODB_URI: uri }, capturedLogger().logger);
    const locks = mongoLocks(uri, {}, driver);
    try {
      for (let call = 0; call < 3; call++) {
        assert.equal(await failure(store.keyValues.get('ns', 'key', new Date())), 'MongoServerSelectionError', `store call ${call + 1}`);
        assert.equal(await failure(locks.acquire('dependency-track', 'holder')), 'MongoServerSelectionError', `locks call ${call + 1}`);
      }
    } finally {
      await store.close();
      await locks.close();
    }
    // Closed for good: no call connects again.
    assert.equal(await failure(store.keyValues.get('ns', 'key', new Date())), 'MongoNotConnectedError');
  });

  it('MongoDB down at start, then up: the next call succeeds, and the log says "ready again" once (runs when MONGODB_URI is set)', async function () {
    const uri = process.env.MONGODB_URI;
    if (!uri) this.skip();
    const real = new URL(uri.replace(/^mongodb:/, 'http:'));
    if (uri.startsWith('mongodb+srv:') || real.host.includes(',')) this.skip();
    const front = await door({ host: real.hostname, port: Number(real.port || 27017) });
    const credentials = real.username ? `${real.username}:${real.password}@` : '';
    const database = `gatehouse_ready_${process.pid}_${Date.now()}`;
    const { logger, lines, text } = capturedLogger();
    const store = createStore({ MONGODB_URI: `mongodb://${credentials}127.0.0.1:${front.port}/${database}?directConnection=true&serverSelectionTimeoutMS=300&connectTimeoutMS=300` }, logger);
    try {
      await assert.rejects(store.keyValues.get('ns', 'key', new Date()), StoreUnavailable);
      front.open();
      await store.keyValues.put('ns', 'key', { ok: true }, null);
      assert.deepEqual(await store.keyValues.get('ns', 'key', new Date()), { ok: true });
      const changes = lines().filter((l) => /^(not ready|ready)/.test(String(l.msg))).map((l) => l.msg);
      assert.deepEqual(changes, ['not ready: store_unavailable', 'ready again'], text());
    } finally {
      if ('db' in store) await (store as { db: driver.Db }).db.dropDatabase().catch(() => undefined);
      await store.close();
      await front.close();
    }
  });

  it('readiness that starts ready writes nothing on success, the loss once, and "ready again" once on recovery', () => {
    const { logger, lines } = capturedLogger();
    const log = new ReadinessLog(logger, { startsReady: true });
    log.ready();
    log.ready();
    assert.deepEqual(lines(), []);
    log.notReady('store_unavailable', ['MongoNetworkError: connection reset']);
    log.notReady('store_unavailable', ['MongoNetworkError: connection reset']);
    log.ready();
    log.ready();
    assert.deepEqual(
      lines().map((l) => [l.level, l.msg]),
      [
        ['warn', 'not ready: store_unavailable'],
        ['info', 'ready again'],
      ],
    );
  });
});
