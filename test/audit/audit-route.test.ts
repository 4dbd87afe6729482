import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { AUDIT_FIELDS, hashedToken, type TokenAuditRecord } from '../../server/audit/record.js';
import { call } from '../support/http.js';
import { REPO_ROOT } from '../support/processes.js';
import { INSTALLATION_ID, REPO, startBroker, type BrokerHarness } from '../support/broker.js';

// GET /v1/audit/tokens: the operators' read of the token audit, behind AUDIT_TOKEN.

const AUDIT_TOKEN = 'audit-bearer-0123456789abcdef0123456789';

interface Page {
  records: TokenAuditRecord[];
  next: string | null;
}

describe('GET /v1/audit/tokens', () => {
  let h: BrokerHarness;
  const audit = (query = '', options: { token?: string; headers?: Record<string, string>; method?: string } = { token: AUDIT_TOKEN }) =>
    call<Page>(`${h.backend.url}/v1/audit/tokens${query}`, options);

  beforeEach(async () => {
    h = await startBroker({ env: { AUDIT_TOKEN } });
    h.github.addRepo('octo-org/second', 222, INSTALLATION_ID);
  });
  afterEach(() => h.close());

  /** A token minted through the broker for `repo` with these claims; the token itself. */
  const mint = async (claims: Record<string, unknown> = {}, repo = 'octo-repo'): Promise<string> => {
    const repository = `octo-org/${repo}`;
    const res = await h.token({ oidcToken: await h.oidc({ repository, repository_id: repo === 'octo-repo' ? '123456789' : '222', ...claims }), owner: 'octo-org', repo });
    assert.equal(res.status, 200, res.text);
    return res.body.token as string;
  };

  describe('its bearer', () => {
    it('AUDIT_TOKEN unset: the route does not exist (404 not_found, whatever the method or credential)', async () => {
      h.backend.env.AUDIT_TOKEN = '';
      for (const options of [{ token: AUDIT_TOKEN }, {}, { method: 'POST', token: AUDIT_TOKEN }]) {
        const res = await audit('', options);
        assert.deepEqual([res.status, res.body], [404, { error: 'not_found' }]);
      }
    });

    it('without the bearer, or with another: 401 unauthorized with WWW-Authenticate, before any parameter is read', async () => {
      for (const options of [{}, { token: 'wrong' }, { headers: { authorization: `Basic ${AUDIT_TOKEN}` } }, { token: h.triggerSecret }]) {
        const res = await audit('?bogus=1', options);
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }]);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      }
    });

    it('with it: 200; another method is 405 with Allow', async () => {
      assert.equal((await audit()).status, 200);
      const post = await audit('', { token: AUDIT_TOKEN, method: 'POST' });
      assert.deepEqual([post.status, post.body, post.headers.get('allow')], [405, { error: 'method_not_allowed' }, 'GET, HEAD']);
    });

    it('the bearer is read per request: a new AUDIT_TOKEN applies at once, the old one is refused', async () => {
      h.backend.env.AUDIT_TOKEN = 'rotated-bearer-0123456789abcdef012345';
      assert.equal((await audit()).status, 401);
      assert.equal((await audit('', { token: 'rotated-bearer-0123456789abcdef012345' })).status, 200);
    });
  });

  it('answers {records, next}, newest first, every field in order', async () => {
    const first = await mint();
    const second = await mint({ actor: 'hubot' });
    const res = await audit();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(res.body), ['records', 'next']);
    assert.equal(res.body.next, null);
    assert.deepEqual(res.body.records.map((r) => r.hashed_token), [hashedToken(second), hashedToken(first)]);
    for (const record of res.body.records) assert.deepEqual(Object.keys(record), [...AUDIT_FIELDS]);
  });

  it('filters: repository, owner, outcome, workflow (ref or path), actor, since/until, hashed_token; several at once', async () => {
    const release = 'octo-org/octo-repo/.github/workflows/release.yml';
    const a = await mint({ actor: 'octocat', workflow_ref: `${release}@refs/heads/main` });
    const b = await mint({ actor: 'hubot', workflow_ref: `${release}@refs/tags/v1` });
    const c = await mint({ actor: 'octocat', workflow_ref: 'octo-org/second/.github/workflows/ci.yml@refs/heads/main' }, 'second');
    await h.token({ oidcToken: await h.oidc({ actor: 'octocat' }), owner: 'octo-org', repo: 'other-repo' });
    await h.token({ owner: 'acme', repo: 'tools' });
    const hashes = async (query: string) => {
      const res = await audit(query);
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      return res.body.records.map((r) => r.hashed_token ?? r.outcome);
    };
    assert.deepEqual(await hashes('?repository=octo-org/second'), [hashedToken(c)]);
    assert.deepEqual(await hashes('?repository=OCTO-ORG/Octo-Repo'), ['repo_mismatch', hashedToken(b), hashedToken(a)]);
    assert.deepEqual(await hashes('?owner=acme'), ['missing_required_fields']);
    assert.deepEqual(await hashes('?outcome=repo_mismatch'), ['repo_mismatch']);
    assert.deepEqual(await hashes(`?workflow=${encodeURIComponent(release)}`), [hashedToken(b), hashedToken(a)]);
    assert.deepEqual(await hashes(`?workflow=${encodeURIComponent(`${release}@refs/tags/v1`)}`), [hashedToken(b)]);
    assert.deepEqual(await hashes('?actor=HUBOT'), [hashedToken(b)]);
    assert.deepEqual(await hashes('?actor=octocat&repository=octo-org/octo-repo&outcome=minted'), [hashedToken(a)]);
    assert.deepEqual(await hashes(`?hashed_token=${encodeURIComponent(hashedToken(b))}`), [hashedToken(b)]);
    const all = (await audit()).body.records;
    const at = all.find((r) => r.hashed_token === hashedToken(b))!.recorded_at;
    assert.deepEqual(await hashes(`?since=${at}&until=${at}`), [hashedToken(b)]);
    assert.deepEqual(await hashes(`?until=${at}&outcome=minted`), [hashedToken(b), hashedToken(a)]);
  });

  it('the documented one-line command hashes a token as the broker does, and its output finds the token\'s record', async function () {
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'broker.md'), 'utf8');
    const command = docs.split('\n').find((line) => line.includes('openssl dgst -sha256 -binary | base64'));
    assert.ok(command, 'docs/broker.md gives the command');
    const token = await mint();
    const hashed = execFileSync('sh', ['-c', command.trim()], { env: { PATH: process.env.PATH ?? '', TOKEN: token }, encoding: 'utf8' }).trim();
    assert.equal(hashed, hashedToken(token));
    const found = await audit(`?hashed_token=${encodeURIComponent(hashed)}`);
    assert.deepEqual(found.body.records.map((r) => [r.outcome, r.repository]), [['minted', REPO]]);
  });

  it('a hashed_token pasted unencoded (its + arrives as a space) still finds the record', async () => {
    // Tokens until one whose hash holds a `+`.
    let token = await mint();
    for (let i = 0; i < 40 && !hashedToken(token).includes('+'); i++) token = await mint();
    assert.ok(hashedToken(token).includes('+'));
    const res = await audit(`?hashed_token=${hashedToken(token)}`);
    assert.equal(res.body.records.length, 1, res.text);
  });

  it('pages by signed cursor: every record once, newest first, even with records arriving between pages', async () => {
    const minted: string[] = [];
    for (let i = 0; i < 5; i++) minted.push(await mint());
    const seen: string[] = [];
    let query = '?limit=2&outcome=minted';
    for (let page = 0; page < 10; page++) {
      const res = await audit(query);
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.records.map((r) => r.hashed_token!));
      if (page === 0) await mint(); // newer than every page: listed before them, so never on the next pages
      if (res.body.next === null) {
        assert.equal(res.headers.get('link'), null);
        break;
      }
      assert.equal(res.headers.get('link'), `</v1/audit/tokens?limit=2&outcome=minted&cursor=${encodeURIComponent(res.body.next)}>; rel="next"`);
      query = `?limit=2&outcome=minted&cursor=${encodeURIComponent(res.body.next)}`;
    }
    assert.deepEqual(seen, minted.reverse().map(hashedToken));
  });

  it('a cursor is refused (422) for other filters, under another AUDIT_TOKEN, or altered', async () => {
    for (let i = 0; i < 3; i++) await mint();
    const first = await audit('?limit=1&owner=octo-org');
    const cursor = first.body.next!;
    assert.ok(cursor);
    assert.equal((await audit(`?limit=1&owner=octo-org&cursor=${encodeURIComponent(cursor)}`)).status, 200);
    assert.equal((await audit(`?limit=5&owner=OCTO-ORG&cursor=${encodeURIComponent(cursor)}`)).status, 200, 'limit and the case of a name do not change the list');
    const refused = async (query: string, token = AUDIT_TOKEN) => {
      const res = await audit(query, { token });
      assert.equal(res.status, 422, `${query}: ${res.text}`);
      assert.equal((res.body as unknown as { error: string }).error, 'validation_failed');
      assert.deepEqual((res.body as unknown as { details: { path: string }[] }).details.map((d) => d.path), ['cursor']);
    };
    await refused(`?limit=1&owner=octo-org&actor=octocat&cursor=${encodeURIComponent(cursor)}`);
    await refused(`?limit=1&cursor=${encodeURIComponent(cursor)}`);
    const [place, mac] = cursor.split('.');
    await refused(`?limit=1&owner=octo-org&cursor=${encodeURIComponent(`${place}.${mac!.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))}`)}`);
    h.backend.env.AUDIT_TOKEN = 'another-bearer-0123456789abcdef0123456';
    await refused(`?limit=1&owner=octo-org&cursor=${encodeURIComponent(cursor)}`, 'another-bearer-0123456789abcdef0123456');
  });

  it('unknown or malformed parameters: 422 validation_failed naming each, as the ledger history does', async () => {
    const cases: [string, string[]][] = [
      ['?bogus=1', ['bogus']],
      ['?owner=a&owner=b', ['owner']],
      ['?limit=0', ['limit']],
      ['?limit=501', ['limit']],
      ['?limit=ten', ['limit']],
      ['?since=yesterday', ['since']],
      ['?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z', ['since']],
      ['?hashed_token=abc', ['hashed_token']],
      ['?hashed_token=' + 'a'.repeat(64), ['hashed_token']],
      ['?repository=octo-org', ['repository']],
      ['?repository=octo-org/a/b', ['repository']],
      ['?owner=-bad', ['owner']],
      ['?actor=a%20b', ['actor']],
      ['?outcome=Minted', ['outcome']],
      ['?workflow=a%0Ab', ['workflow']],
      ['?cursor=' + 'x'.repeat(301), ['cursor']],
      ['?cursor=abc', ['cursor']],
      ['?repository=bad&limit=0&extra=1', ['repository', 'limit', 'extra']],
    ];
    for (const [query, paths] of cases) {
      const res = await audit(query);
      const body = res.body as unknown as { error: string; message: string; details: { path: string }[] };
      assert.equal(res.status, 422, `${query}: ${res.text}`);
      assert.equal(body.error, 'validation_failed');
      assert.deepEqual(body.details.map((d) => d.path).sort(), [...paths].sort(), query);
      assert.equal(typeof body.message, 'string');
    }
  });

  it('Accept: text/csv: RFC 4180 with a header row of the fields; null is empty, objects are JSON; paging by Link', async () => {
    const token = await mint({ environment: 'prod, "eu"' });
    await h.token({ owner: 'octo-org', repo: 'octo-repo' });
    const json = (await audit()).body.records;
    const res = await fetch(`${h.backend.url}/v1/audit/tokens`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}`, accept: 'text/csv' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    const text = await res.text();
    assert.ok(text.includes('\r\n'), 'CRLF line ends');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]!), [...AUDIT_FIELDS]);
    assert.equal(rows.length, 2);
    const cell = (v: unknown) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    assert.deepEqual(rows, json.map((r) => Object.fromEntries(AUDIT_FIELDS.map((f) => [f, cell(r[f])]))));
    assert.equal(rows[1]!.environment, 'prod, "eu"');
    assert.equal(rows[1]!.hashed_token, hashedToken(token));
    assert.equal(rows[0]!.hashed_token, '');
    const paged = await fetch(`${h.backend.url}/v1/audit/tokens?limit=1`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}`, accept: 'text/csv' } });
    assert.match(paged.headers.get('link') ?? '', /^<\/v1\/audit\/tokens\?limit=1&cursor=[^>]+>; rel="next"$/);
    assert.equal((parse(await paged.text(), { columns: true }) as unknown[]).length, 1);
  });
});
