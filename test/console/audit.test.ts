import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { AUDIT_FIELDS, hashedToken, type TokenAuditRecord } from '../../server/audit/record.js';
import { AUDIT_TOKEN, DEPLOY, RELEASE, seedTokenAudit, WEB_APP_ID, type AuditSeed } from '../support/console-audit.js';
import { CookieJar, HUBOT, MONA, settableClock, startConsoleWorld, type ConsoleWorld } from '../support/console-world.js';
import type { FakePerson } from '../support/fake-github-user.js';

/**
 * The token audit in the console over HTTP, as a browser meets it: a repository's records for the
 * people GitHub lists as its admins (by the repository's id, never its name), the route's filters,
 * its signed cursors and its CSV; everyone else gets the console's 404 page. The records are
 * written by a broker replica sharing the store (test/support/console-audit.ts).
 */
describe('console: the token audit of a repository', function () {
  this.timeout(120_000);
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  let clock: ReturnType<typeof settableClock>;
  let world: ConsoleWorld;
  let seed: AuditSeed;
  let mona: CookieJar;

  before(async () => {
    clock = settableClock(now);
    world = await startConsoleWorld({ clock, now });
    seed = await seedTokenAudit(world, clock, now);
    mona = await signIn(MONA);
  });
  after(async () => {
    await seed?.close();
    await world?.close();
  });

  const url = (path: string) => `${world.backend.url}${path}`;
  const AUDIT = '/console/repos/octo-org/web-app/audit';

  async function signIn(person: FakePerson): Promise<CookieJar> {
    world.github.signedIn = person;
    const jar = new CookieJar();
    assert.equal((await jar.follow(url('/console'), world.backend.url)).status, 200);
    return jar;
  }

  interface Row {
    outcome: string;
    hashed_token: string | null;
    recorded_at: string;
  }

  /** The page's records, as its rows state them. */
  const rowsOf = (page: string): Row[] =>
    [...page.matchAll(/<tr data-outcome="([^"]+)"(?: data-hashed-token="([^"]+)")?>\s*<td class="num"><time datetime="([^"]+)">/g)].map((m) => ({ outcome: m[1]!, hashed_token: m[2] ?? null, recorded_at: m[3]! }));
  const mainOf = (page: string): string => /<main[^>]*>[\s\S]*<\/main>/.exec(page)![0];
  const olderLink = (page: string): string | undefined => /<a href="([^"]+)#records">Older records<\/a>/.exec(page)?.[1]?.replaceAll('&amp;', '&');

  async function consolePage(jar: CookieJar, path: string): Promise<{ status: number; text: string }> {
    const res = await jar.fetch(url(path));
    return { status: res.status, text: await res.text() };
  }

  /** Every record of the console's audit for these filters, following "Older records". */
  async function allRows(query: string): Promise<Row[]> {
    const rows: Row[] = [];
    let next: string | undefined = `${AUDIT}${query}`;
    while (next) {
      const page = await consolePage(mona, next);
      assert.equal(page.status, 200, `${next}: ${page.text.slice(0, 500)}`);
      rows.push(...rowsOf(page.text));
      next = olderLink(page.text);
    }
    return rows;
  }

  /** `GET /v1/audit/tokens` (the operators' route, on the broker replica) for these filters, web-app's id only. */
  async function fromRoute(query: string): Promise<Row[]> {
    const res = await fetch(`${seed.broker.backend.url}/v1/audit/tokens?repository=octo-org/web-app&limit=500${query ? `&${query.slice(1)}` : ''}`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });
    assert.equal(res.status, 200, query);
    const body = (await res.json()) as { records: TokenAuditRecord[] };
    return body.records.filter((r) => r.repository_id === WEB_APP_ID).map((r) => ({ outcome: r.outcome, hashed_token: r.hashed_token, recorded_at: r.recorded_at }));
  }

  it('an admin of the repository reads its records: only those of its id, newest first, paged by 50 with the audit\'s cursors', async () => {
    const first = await consolePage(mona, AUDIT);
    assert.equal(first.status, 200);
    assert.match(first.text, /<h1>Token audit of octo-org\/web-app<\/h1>/);
    assert.equal(rowsOf(first.text).length, 50);
    const rows = await allRows('');
    assert.equal(rows.length, seed.webAppRecords);
    assert.deepEqual(rows, await fromRoute(''));
    assert.equal(new Set(rows.map((r) => r.recorded_at)).size, rows.length, 'a record listed twice');
    assert.deepEqual(rows.map((r) => r.recorded_at), [...rows.map((r) => r.recorded_at)].sort().reverse());
    // The name's other records: refused before verification (no id), and a re-registered namesake (another id).
    const all = (await (await fetch(`${seed.broker.backend.url}/v1/audit/tokens?repository=octo-org/web-app&limit=500`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } })).json()) as { records: TokenAuditRecord[] };
    assert.deepEqual(all.records.filter((r) => r.repository_id !== WEB_APP_ID).map((r) => [r.actor ?? r.outcome, r.repository_id]).sort(), [['invalid_oidc_token', null], ['namesake', '990001']]);
    const everyPage = [first.text, ...(await Promise.all([olderLink(first.text)!].map(async (p) => (await consolePage(mona, p)).text)))].join('\n');
    assert.doesNotMatch(everyPage, /namesake|mallory|990001/);
    assert.doesNotMatch(everyPage, /octo-org\/payments\/|secret-project/);
  });

  it('the audit link is on the repository page of an admin only', async () => {
    const admin = await consolePage(mona, '/console/repos/octo-org/web-app');
    assert.match(admin.text, /<a href="\/console\/repos\/octo-org\/web-app\/audit">Token audit<\/a>/);
    const member = await consolePage(mona, '/console/repos/octo-org/payments');
    assert.equal(member.status, 200);
    assert.doesNotMatch(member.text, /\/audit"|Token audit/);
    const hubot = await signIn(HUBOT);
    const theirs = await consolePage(hubot, '/console/repos/octo-org/web-app');
    assert.equal(theirs.status, 200);
    assert.doesNotMatch(theirs.text, /\/audit"|Token audit/);
  });

  it('a person who sees the repository but does not administer it, one who cannot see it, and a repository that does not exist: the same 404 page, for the page and its CSV, whatever the parameters', async () => {
    const missing = await consolePage(mona, '/console/repos/octo-org/no-such-repo/audit');
    assert.equal(missing.status, 404);
    const hubot = await signIn(HUBOT);
    const cases: [CookieJar, string][] = [
      [mona, '/console/repos/octo-org/payments/audit'],
      [mona, '/console/repos/octo-org/payments/audit.csv'],
      [mona, '/console/repos/octo-org/secret-project/audit'],
      [mona, '/console/repos/octo-org/secret-project/audit.csv?since=nonsense'],
      [mona, '/console/repos/elsewhere-org/tool/audit'],
      [mona, '/console/repos/octo-org/payments/audit?bogus=1'],
      [hubot, '/console/repos/octo-org/web-app/audit'],
      [hubot, `/console/repos/octo-org/web-app/audit.csv?hashed_token=${encodeURIComponent(hashedToken(seed.tokens[0]!))}`],
    ];
    for (const [jar, path] of cases) {
      const res = await consolePage(jar, path);
      assert.equal(res.status, 404, path);
      assert.equal(mainOf(res.text), mainOf(missing.text), path);
    }
    // The hidden repository does have records.
    const res = await fetch(`${seed.broker.backend.url}/v1/audit/tokens?repository=octo-org/secret-project`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });
    assert.equal(((await res.json()) as { records: unknown[] }).records.length, 1);
  });

  it('admin as GitHub lists it now: a person who loses admin loses the page once the session\'s list is refreshed (5 minutes)', async () => {
    const admin = new Set([710001]);
    const octoAdmin: FakePerson = { id: 4242, login: 'octo-admin', access: new Map([[31, [710001]]]), admin };
    world.github.addPerson(octoAdmin);
    const jar = await signIn(octoAdmin);
    assert.equal((await consolePage(jar, AUDIT)).status, 200);
    admin.delete(710001);
    assert.equal((await consolePage(jar, AUDIT)).status, 200, 'within the cache period');
    clock.advance(5 * 60_000);
    try {
      assert.equal((await consolePage(jar, AUDIT)).status, 404);
      assert.doesNotMatch((await consolePage(jar, '/console/repos/octo-org/web-app')).text, /Token audit/);
    } finally {
      clock.set(now);
    }
  });

  it('filters as the route does: outcome, workflow (path or ref), actor, since/until (dates or instants), hashed_token, several at once', async () => {
    const minted = seed.tokens.map(hashedToken);
    const at = (await fromRoute(''))[10]!.recorded_at;
    const queries = [
      '?outcome=repo_mismatch',
      '?outcome=minted',
      `?workflow=${encodeURIComponent(RELEASE)}`,
      `?workflow=${encodeURIComponent(`${RELEASE}@refs/tags/v1.3.0`)}`,
      `?workflow=${encodeURIComponent(DEPLOY)}&actor=HUBOT`,
      '?actor=dependabot%5Bbot%5D',
      `?since=${at}&until=${at}`,
      `?until=${encodeURIComponent(at)}&outcome=minted`,
      `?hashed_token=${encodeURIComponent(minted[5]!)}`,
    ];
    for (const query of queries) {
      const rows = await allRows(query);
      assert.ok(rows.length > 0, `${query}: nothing`);
      assert.deepEqual(rows, await fromRoute(query), query);
    }
    assert.equal((await allRows('?outcome=repo_mismatch')).length, 1);
    assert.deepEqual((await allRows(`?hashed_token=${encodeURIComponent(minted[5]!)}`)).map((r) => r.hashed_token), [minted[5]]);
    // A date is its UTC day, inclusive at both ends.
    const day = '2026-11-19';
    const byDay = await allRows(`?since=${day}&until=${day}`);
    assert.deepEqual(byDay, await fromRoute(`?since=${day}T00:00:00Z&until=${day}T23:59:59.999Z`));
    assert.ok(byDay.length > 0 && byDay.every((r) => r.recorded_at.startsWith(day)));
    // Another repository's token is not found here, even by its hash.
    const payments = await fetch(`${seed.broker.backend.url}/v1/audit/tokens?repository=octo-org/payments`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });
    const theirs = ((await payments.json()) as { records: TokenAuditRecord[] }).records[0]!.hashed_token!;
    const page = await consolePage(mona, `${AUDIT}?hashed_token=${encodeURIComponent(theirs)}`);
    assert.deepEqual([page.status, rowsOf(page.text)], [200, []]);
    assert.match(page.text, /No record of this repository matches these filters/);
    // The form shows the filters given, and the older page keeps them.
    const release = await consolePage(mona, `${AUDIT}?workflow=${encodeURIComponent(RELEASE)}&outcome=minted`);
    assert.match(release.text, new RegExp(`name="workflow" value="${RELEASE}"`));
  });

  it('paging keeps the filters; a cursor made for other filters, forged, or made by the route under AUDIT_TOKEN is refused (422 page)', async () => {
    const first = await consolePage(mona, `${AUDIT}?outcome=minted`);
    const older = olderLink(first.text)!;
    assert.match(older, /^\/console\/repos\/octo-org\/web-app\/audit\?outcome=minted&cursor=/);
    const cursor = new URL(older, url('/')).searchParams.get('cursor')!;
    assert.equal((await consolePage(mona, `${AUDIT}?outcome=minted&cursor=${cursor}`)).status, 200);
    const other = await consolePage(mona, `${AUDIT}?outcome=signed&cursor=${cursor}`);
    assert.equal(other.status, 422);
    assert.match(other.text, /Page no longer valid/);
    assert.equal((await consolePage(mona, `${AUDIT}?outcome=minted&cursor=${cursor.slice(0, -2)}AA`)).status, 422);
    const route = await fetch(`${seed.broker.backend.url}/v1/audit/tokens?repository=octo-org/web-app&outcome=minted&limit=50`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });
    const routeCursor = ((await route.json()) as { next: string }).next;
    assert.equal((await consolePage(mona, `${AUDIT}?outcome=minted&cursor=${encodeURIComponent(routeCursor)}`)).status, 422);
    const newest = /<a href="([^"]+)#records">Newest records<\/a>/.exec((await consolePage(mona, older)).text)?.[1];
    assert.equal(newest, `${AUDIT}?outcome=minted`);
  });

  it('bad parameters: a 400 page naming the parameter; the route\'s repository, owner and limit are not the page\'s', async () => {
    const cases: [string, RegExp][] = [
      ['?since=yesterday', /since must be a date \(YYYY-MM-DD, a UTC day\) or an ISO 8601 date-time with an offset/],
      ['?until=2026-02-30', /until must be a date/],
      ['?since=2026-11-20&until=2026-11-19', /since must not be after until/],
      ['?actor=not%20a%20login', /actor must be a GitHub login/],
      ['?hashed_token=abc', /hashed_token must be base64 of a SHA-256 digest/],
      ['?outcome=minted&outcome=signed', /outcome may be given once/],
      ['?repository=octo-org/payments', /unknown parameter repository/],
      ['?owner=octo-org', /unknown parameter owner/],
      ['?limit=500', /unknown parameter limit/],
    ];
    for (const [query, message] of cases) {
      for (const path of [AUDIT, '/console/repos/octo-org/web-app/audit.csv']) {
        const res = await consolePage(mona, `${path}${query}`);
        assert.equal(res.status, 400, `${path}${query}`);
        assert.match(res.text, message, `${path}${query}`);
      }
    }
  });

  it('the CSV is the route\'s CSV of the same records: every field, from the page\'s place, up to 500', async () => {
    const query = `?workflow=${encodeURIComponent(DEPLOY)}`;
    const res = await mona.fetch(url(`/console/repos/octo-org/web-app/audit.csv${query}`));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="octo-org-web-app-token-audit.csv"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const csv = await res.text();
    const route = await fetch(`${seed.broker.backend.url}/v1/audit/tokens${query}&limit=500`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}`, accept: 'text/csv' } });
    assert.equal(csv, await route.text(), 'the same bytes as GET /v1/audit/tokens for the same records');
    const all = parse(await (await mona.fetch(url('/console/repos/octo-org/web-app/audit.csv'))).text(), { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(all[0]!), [...AUDIT_FIELDS]);
    assert.equal(all.length, seed.webAppRecords);
    assert.ok(all.every((r) => r.repository_id === WEB_APP_ID));
    // From the second page's place: the records after the first 50.
    const older = olderLink((await consolePage(mona, AUDIT)).text)!;
    const link = /<a href="([^"]+)" download>Download CSV<\/a>/.exec((await consolePage(mona, older)).text)![1]!.replaceAll('&amp;', '&');
    assert.match(link, /^\/console\/repos\/octo-org\/web-app\/audit\.csv\?cursor=/);
    const rest = parse(await (await mona.fetch(url(link))).text(), { columns: true }) as Record<string, string>[];
    assert.deepEqual(rest.map((r) => r.recorded_at), all.slice(50).map((r) => r.recorded_at));
  });

  it('no token and no OIDC token on a page, in a CSV or in the log: the records hold only hashed_token', async () => {
    const texts = [
      (await consolePage(mona, AUDIT)).text,
      (await consolePage(mona, olderLink((await consolePage(mona, AUDIT)).text)!)).text,
      await (await mona.fetch(url('/console/repos/octo-org/web-app/audit.csv'))).text(),
      world.backend.logs.text(),
      seed.broker.backend.logs.text(),
    ].join('\n');
    assert.ok(seed.tokens.length >= 59 && seed.oidcTokens.length >= 62);
    for (const secret of [...seed.tokens, ...seed.oidcTokens]) assert.ok(!texts.includes(secret), 'a token reached a page, a CSV or the log');
    assert.doesNotMatch(texts, /ghs_|eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
    const page = (await consolePage(mona, AUDIT)).text;
    const shown = rowsOf(page).map((r) => r.hashed_token).filter((h) => h !== null);
    assert.ok(shown.length > 40 && shown.every((h) => seed.tokens.map(hashedToken).includes(h!)));
  });

  it('not signed in: 302 to sign-in, back to the audit page after it', async () => {
    const jar = new CookieJar();
    const res = await jar.fetch(url(`${AUDIT}?outcome=minted`));
    assert.deepEqual([res.status, res.headers.get('location')], [302, `/console/login?return_to=${encodeURIComponent(`${AUDIT}?outcome=minted`)}`]);
    world.github.signedIn = MONA;
    const landed = await jar.follow(url(`${AUDIT}?outcome=minted`), world.backend.url);
    assert.equal(landed.status, 200);
    assert.match(await landed.text(), /Token audit of octo-org\/web-app/);
  });
});
