import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../support/backend.js';
import { CURSOR_REFUSED } from '../../server/ledger/schema.js';
import { checkLedgerSettings } from '../../server/ledger/settings.js';
import { call } from '../support/http.js';

type Page = { repository: string; deployments: { deployment_id: string; recorded_at: string; environment: string; delivery_id: string }[]; next: string | null };

describe('ledger: history paging (since, until, cursor, next)', () => {
  let backend: Backend;
  let token: string;
  const history = (query: string) => call<Page>(`${backend.url}/v1/deployments${query}`, { token });
  const post = (delivery: string, environment = 'production') =>
    call(`${backend.url}/v1/deployments`, { token, json: { delivery_id: delivery, environment, status: 'success' } });

  before(async () => {
    backend = await startBackend();
    token = await backend.issuer.mint();
    for (let i = 0; i < 45; i++) assert.equal((await post(`p-${i}`, i % 3 === 0 ? 'staging' : 'production')).status, 201);
  });
  after(() => backend.close());

  /** Follows `next` from `query` to the end; `between` runs after each page. */
  async function walk(query: string, between: () => Promise<void> = async () => {}): Promise<Page['deployments']> {
    const all: Page['deployments'] = [];
    let res = await history(query);
    for (let pages = 0; ; pages++) {
      assert.equal(res.status, 200, res.text);
      all.push(...res.body.deployments);
      await between();
      if (res.body.next === null) break;
      assert.ok(pages < 100, 'next never ends');
      res = await history(`${query}${query ? '&' : '?'}cursor=${encodeURIComponent(res.body.next)}`);
    }
    return all;
  }

  it('next is null when the page holds the last record, and a cursor otherwise', async () => {
    const whole = await history('?limit=100');
    assert.equal(whole.body.next, null);
    const first = await history('?limit=10');
    assert.equal(typeof first.body.next, 'string');
    const exact = await history(`?limit=${whole.body.deployments.length}`);
    assert.equal(exact.body.next, null, 'a page that ends exactly at the last record has no next');
  });

  it('following next returns every record once, newest first, with the same filter', async () => {
    const all = (await history('?limit=100')).body.deployments;
    const walked = await walk('?limit=7');
    assert.deepEqual(walked, all);
    const staging = await walk('?limit=4&environment=staging');
    assert.deepEqual(staging, all.filter((d) => d.environment === 'staging'));
  });

  it('no record twice or missed while new records arrive between (and during) the pages', async () => {
    const before = (await history('?limit=100')).body.deployments;
    let n = 0;
    const arrivals: Promise<unknown>[] = [];
    const walked = await walk('?limit=6', async () => {
      // One arrival awaited between pages, and another left in flight while the next page is read.
      await post(`arrival-${n++}`);
      arrivals.push(post(`arrival-${n++}`));
    });
    await Promise.all(arrivals);
    const ids = walked.map((d) => d.deployment_id);
    assert.equal(new Set(ids).size, ids.length, 'a record listed twice');
    for (const d of before) assert.ok(ids.includes(d.deployment_id), `missed ${d.delivery_id}`);
    const times = walked.map((d) => d.recorded_at);
    assert.deepEqual([...times].sort().reverse(), times, 'not newest first');
  });

  it('since and until bound recorded_at (inclusive), and combine with paging', async () => {
    const all = (await history('?limit=100')).body.deployments;
    const since = all[30]!.recorded_at;
    const until = all[10]!.recorded_at;
    const expected = all.filter((d) => d.recorded_at >= since && d.recorded_at <= until);
    assert.ok(expected.length >= 21);
    assert.deepEqual(await walk(`?limit=5&since=${since}&until=${until}`), expected);
    // An offset names the same instant.
    const shifted = new Date(since).toISOString().replace('Z', '+00:00');
    assert.deepEqual((await history(`?limit=100&since=${encodeURIComponent(shifted)}&until=${until}`)).body.deployments, expected);
  });

  for (const query of [
    'cursor=',
    'cursor=not-a-cursor',
    `cursor=${Buffer.from('h1.abc.def').toString('base64url')}`,
    'cursor=a&cursor=b',
    'since=yesterday',
    'since=2026-11-20',
    'until=2026-11-20T10:00:00',
    'since=2026-11-21T00:00:00Z&until=2026-11-20T00:00:00Z',
    // A bad bound beside a valid one: parsed before the two are compared (was a 500).
    'since=2026-02-30T00:00:00Z&until=2026-11-01T00:00:00Z',
    'since=2026-01-01T00:00:00Z&until=yesterday',
    'since=yesterday&until=2026-11-01T00:00:00Z',
  ]) {
    it(`refuses ?${query} with 422`, async () => {
      const res = await history(`?${query}`);
      assert.equal(res.status, 422, res.text);
      assert.equal((res.body as unknown as { error: string }).error, 'validation_failed');
    });
  }

  it("a cursor made for one repository is refused for another (it could read nothing of the first's history anyway)", async () => {
    const first = await history('?limit=2');
    const other = await backend.issuer.mint({ repository: 'octo-org/other', repository_id: '31337' });
    const res = await call<Page>(`${backend.url}/v1/deployments?cursor=${first.body.next}`, { token: other });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual((res.body as unknown as { details: unknown }).details, [{ path: 'cursor', message: CURSOR_REFUSED }]);
  });

  it('a cursor the service did not make is refused, however well it imitates one: a place with a forged MAC, an edited place, the old unauthenticated form', async () => {
    const first = await history('?limit=2');
    const next = first.body.next!;
    const [place, mac] = next.split('.') as [string, string];
    const last = first.body.deployments[1]!;
    const unauthenticated = Buffer.from(`h1.${Date.parse(last.recorded_at)}.${last.deployment_id}`).toString('base64url');
    const edited = `${Buffer.from(Buffer.from(place, 'base64url').toString().replace(/\.(\d+)\./, (_m, t: string) => `.${Number(t) + 1}.`)).toString('base64url')}.${mac}`;
    const forgedMac = `${place}.${Buffer.alloc(16).toString('base64url')}`;
    for (const cursor of [unauthenticated, edited, forgedMac]) {
      const res = await history(`?limit=2&cursor=${encodeURIComponent(cursor)}`);
      assert.equal(res.status, 422, `${cursor}: ${res.text}`);
    }
    assert.equal((await history(`?limit=2&cursor=${encodeURIComponent(next)}`)).status, 200, 'the real cursor pages on');
  });

  it('LEDGER_CURSOR_KEY: a cursor pages on at every replica holding the key, and is refused after the key changes', async () => {
    const KEY = 'k'.repeat(31) + '1';
    backend.env.LEDGER_CURSOR_KEY = KEY;
    const replica = await startBackend({ store: backend.store, issuer: backend.issuer, env: { LEDGER_CURSOR_KEY: KEY } });
    try {
      const first = await history('?limit=3');
      const onReplica = await call<Page>(`${replica.url}/v1/deployments?limit=3&cursor=${first.body.next}`, { token });
      assert.equal(onReplica.status, 200, onReplica.text);
      assert.deepEqual(onReplica.body.deployments, (await history('?limit=6')).body.deployments.slice(3));
      backend.env.LEDGER_CURSOR_KEY = 'k'.repeat(31) + '2';
      const rotated = await history(`?limit=3&cursor=${first.body.next}`);
      assert.equal(rotated.status, 422, 'a cursor of the old key');
      // Unset: the process's own random key, which made none of these cursors either.
      delete backend.env.LEDGER_CURSOR_KEY;
      assert.equal((await history(`?limit=3&cursor=${first.body.next}`)).status, 422);
      // Without the setting each process has its own key: a cursor from one replica is refused by the other.
      delete replica.env.LEDGER_CURSOR_KEY;
      const fromReplica = await call<Page>(`${replica.url}/v1/deployments?limit=3`, { token });
      assert.equal((await history(`?limit=3&cursor=${fromReplica.body.next}`)).status, 422);
    } finally {
      delete backend.env.LEDGER_CURSOR_KEY;
      await replica.close();
    }
  });

  it('a LEDGER_CURSOR_KEY shorter than 32 characters is a misconfiguration, named without its value', () => {
    const checked = checkLedgerSettings({ LEDGER_CURSOR_KEY: 'short-key' });
    assert.equal(checked.ok, false);
    const problems = (checked as { problems: readonly { setting: string; message: string }[] }).problems;
    assert.deepEqual(problems.map((p) => p.setting), ['LEDGER_CURSOR_KEY']);
    assert.ok(!problems[0]!.message.includes('short-key'));
  });
});
