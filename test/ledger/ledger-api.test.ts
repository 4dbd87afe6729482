import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../support/backend.js';
import { call } from '../support/http.js';

interface RecordedBody {
  deployment_id: string;
  repository: string;
  recorded_at: string;
  duplicate: boolean;
  notified: Record<string, boolean>;
  [key: string]: unknown;
}

describe('ledger: POST /v1/deployments', () => {
  let backend: Backend;
  let deployments: string;
  let token: string;

  before(async () => {
    backend = await startBackend();
    deployments = `${backend.url}/v1/deployments`;
  });
  after(() => backend.close());
  beforeEach(async () => {
    token = await backend.issuer.mint();
  });

  const post = (json: unknown, t = token) => call<RecordedBody>(deployments, { token: t, json });
  const minimal = (deliveryId: string) => ({ delivery_id: deliveryId, environment: 'production', status: 'success' });

  it('records a first-seen delivery: 201 with the recorded deployment', async () => {
    const res = await post({
      ...minimal('first-seen'),
      target: 'function-zip',
      mode: 'deploy',
      version: '1.4.0',
      url: 'https://app.example.com/',
      commit: 'b'.repeat(40),
      run_url: 'https://github.com/octo-org/octo-repo/actions/runs/1/attempts/1',
      actor: 'octocat',
      verified: true,
      duration_ms: 93000,
    });
    assert.equal(res.status, 201);
    assert.match(res.body.deployment_id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.repository, 'octo-org/octo-repo');
    assert.match(res.body.recorded_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(res.body.duplicate, false);
    assert.deepEqual(res.body.notified, {});
    assert.equal(res.body.version, '1.4.0');
    assert.equal(res.body.duration_ms, 93000);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('a repeated delivery id answers 200 with duplicate: true and the original record, storing nothing', async () => {
    const first = await post({ ...minimal('repeat-me'), version: 'one' });
    const second = await post({ ...minimal('repeat-me'), version: 'two', environment: 'staging' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 200);
    assert.equal(second.body.duplicate, true);
    assert.equal(second.body.deployment_id, first.body.deployment_id);
    assert.equal(second.body.recorded_at, first.body.recorded_at);
    assert.equal(second.body.version, 'one');
    assert.equal(second.body.environment, 'production');
    const history = await call<{ deployments: RecordedBody[] }>(deployments, { token });
    assert.equal(history.body.deployments.filter((d) => d.delivery_id === 'repeat-me').length, 1);
  });

  it('stores committed_at and returns it as ISO 8601 UTC, whatever offset it was sent with', async () => {
    const res = await post({ ...minimal('committed-at'), committed_at: '2026-11-20T10:30:00.5+02:00' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.committed_at, '2026-11-20T08:30:00.500Z');
    const history = await call<{ deployments: RecordedBody[] }>(deployments, { token });
    assert.equal(history.body.deployments.find((d) => d.delivery_id === 'committed-at')?.committed_at, '2026-11-20T08:30:00.500Z');
    const without = await post(minimal('no-committed-at'));
    assert.ok(!('committed_at' in without.body));
  });

  it('mode defaults to "deploy"', async () => {
    const res = await post(minimal('default-mode'));
    assert.equal(res.body.mode, 'deploy');
  });

  it('takes the repository from the token: the same delivery id of another repository is its own record', async () => {
    const other = await backend.issuer.mint({ repository: 'octo-org/other', repository_id: '555' });
    const a = await post(minimal('per-repo'));
    const b = await post(minimal('per-repo'), other);
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.equal(b.body.repository, 'octo-org/other');
  });

  describe('validation (422 validation_failed)', () => {
    const invalid: [string, unknown, string][] = [
      ['the unknown field "repository"', { ...minimal('x'), repository: 'octo-org/elsewhere' }, 'repository'],
      ['any other unknown field', { ...minimal('x'), colour: 'blue' }, 'colour'],
      ['a javascript: url', { ...minimal('x'), url: 'javascript:alert(1)' }, 'url'],
      ['a data: url', { ...minimal('x'), url: 'data:text/html,<script>alert(1)</script>' }, 'url'],
      ['a javascript: run_url', { ...minimal('x'), run_url: 'javascript:alert(1)' }, 'run_url'],
      ['an ftp: run_url', { ...minimal('x'), run_url: 'ftp://example.com/run' }, 'run_url'],
      ['a url with credentials', { ...minimal('x'), url: 'https://user:pw@example.com' }, 'url'],
      ['an unknown status', { ...minimal('x'), status: 'done' }, 'status'],
      ['an unknown target', { ...minimal('x'), target: 'mainframe' }, 'target'],
      ['an upper-case mode', { ...minimal('x'), mode: 'Deploy' }, 'mode'],
      ['a missing delivery_id', { environment: 'production', status: 'success' }, 'delivery_id'],
      ['a missing environment', { delivery_id: 'x', status: 'success' }, 'environment'],
      ['a missing status', { delivery_id: 'x', environment: 'production' }, 'status'],
      ['an empty delivery_id', { ...minimal(''), delivery_id: '' }, 'delivery_id'],
      ['a 201-character delivery_id', minimal('d'.repeat(201)), 'delivery_id'],
      ['a 101-character environment', { ...minimal('x'), environment: 'e'.repeat(101) }, 'environment'],
      ['a control character in environment', { ...minimal('x'), environment: 'prod\nuction' }, 'environment'],
      ['verified as a string', { ...minimal('x'), verified: 'yes' }, 'verified'],
      ['a fractional duration_ms', { ...minimal('x'), duration_ms: 1.5 }, 'duration_ms'],
      ['a negative duration_ms', { ...minimal('x'), duration_ms: -1 }, 'duration_ms'],
      ['a number as version', { ...minimal('x'), version: 3 }, 'version'],
      ['a committed_at without an offset', { ...minimal('x'), committed_at: '2026-11-20T10:30:00' }, 'committed_at'],
      ['a committed_at that is a date only', { ...minimal('x'), committed_at: '2026-11-20' }, 'committed_at'],
      ['a committed_at on February 30', { ...minimal('x'), committed_at: '2026-02-30T10:30:00Z' }, 'committed_at'],
      ['a committed_at as epoch milliseconds', { ...minimal('x'), committed_at: 1763634600000 }, 'committed_at'],
      ['an array body', [minimal('x')], '(root)'],
      ['a string body', 'hello', '(root)'],
      ['null', null, '(root)'],
    ];
    for (const [label, body, path] of invalid) {
      it(`refuses ${label}`, async () => {
        const res = await post(body);
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.error, 'validation_failed');
        assert.equal(typeof res.body.message, 'string');
        const details = res.body.details as { path: string; message: string }[];
        assert.ok(
          details.some((d) => d.path === path),
          `no detail for ${path}: ${JSON.stringify(details)}`,
        );
      });
    }

    // Each field that reaches the chat message, with a C0 control (refused before C1 was) as the yardstick.
    const FIELDS: [string, (c: string) => string][] = [
      ['environment', (c) => `prod${c}uction`],
      ['version', (c) => `1.4.0${c}`],
      ['commit', (c) => `${c}${'b'.repeat(40)}`],
      ['actor', (c) => `octo${c}cat`],
      ['url', (c) => `https://app.example.com/a${c}b`],
      ['run_url', (c) => `https://github.com/octo-org/octo-repo/actions/runs/1${c}`],
    ];
    for (const c of ['\u0080', '\u0085', '\u009b', '\u009f', '\u2028', '\u2029']) {
      const name = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      it(`refuses ${name} in every free-text and link field, as it refuses a C0 control`, async () => {
        for (const [field, value] of FIELDS) {
          const [res, c0] = [await post({ ...minimal(`cc-${field}`), [field]: value(c) }), await post({ ...minimal(`c0-${field}`), [field]: value('\u0001') })];
          assert.equal(res.status, 422, `${field}: ${res.text}`);
          assert.deepEqual(res.body, c0.body, field);
          assert.deepEqual([c0.status, c0.body.error], [422, 'validation_failed']);
          assert.deepEqual((res.body.details as { path: string }[]).map((d) => d.path), [field]);
        }
      });
    }

    it('accepts the neighbours of the refused characters and format characters (U+00A0, U+00AD, U+200D, U+202E)', async () => {
      const body = { ...minimal('format-characters'), environment: 'eu\u00a0west', version: 'v1\u00ad2', actor: 'octo\u200dcat', commit: 'rl\u202eo' };
      const res = await post(body);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual([res.body.environment, res.body.version, res.body.actor, res.body.commit], [body.environment, body.version, body.actor, body.commit]);
    });

    it('stores nothing when validation fails', async () => {
      await post({ ...minimal('never-stored'), repository: 'octo-org/elsewhere' });
      const history = await call<{ deployments: RecordedBody[] }>(deployments, { token });
      assert.ok(!history.body.deployments.some((d) => d.delivery_id === 'never-stored'));
    });
  });

  it('answers 400 invalid_json to a body that is not JSON, an empty body, or invalid UTF-8', async () => {
    for (const raw of ['{"delivery_id":', '', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])]) {
      const res = await call(deployments, { token, raw, method: 'POST' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { error: 'invalid_json' });
    }
  });

  it('accepts JSON whatever the content type claims', async () => {
    const res = await call(deployments, { token, raw: JSON.stringify(minimal('text-plain')), headers: { 'content-type': 'text/plain' } });
    assert.equal(res.status, 201);
  });

  it('answers 413 to a body over the limit', async () => {
    const res = await post({ ...minimal('big'), version: 'v'.repeat(70 * 1024) });
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { error: 'payload_too_large' });
  });

  it('50 concurrent POSTs with one delivery id: one 201, 49 duplicates', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(minimal('concurrent-50'))));
    assert.equal(answers.filter((a) => a.status === 201).length, 1);
    assert.equal(answers.filter((a) => a.status === 200 && a.body.duplicate === true).length, 49);
    assert.equal(new Set(answers.map((a) => a.body.deployment_id)).size, 1);
  });
});

describe('ledger: GET /v1/deployments', () => {
  let backend: Backend;
  let deployments: string;
  let token: string;

  before(async () => {
    backend = await startBackend();
    deployments = `${backend.url}/v1/deployments`;
    token = await backend.issuer.mint();
    for (let i = 0; i < 25; i++) {
      const environment = i % 2 === 0 ? 'production' : 'staging';
      const res = await call(deployments, { token, json: { delivery_id: `d-${i}`, environment, status: 'success', version: `v${i}` } });
      assert.equal(res.status, 201);
    }
  });
  after(() => backend.close());

  type History = { repository: string; deployments: RecordedBody[] };

  it('lists the caller’s records newest first, 20 by default', async () => {
    const res = await call<History>(deployments, { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.repository, 'octo-org/octo-repo');
    assert.equal(res.body.deployments.length, 20);
    assert.deepEqual(
      res.body.deployments.slice(0, 3).map((d) => d.version),
      ['v24', 'v23', 'v22'],
    );
    const times = res.body.deployments.map((d) => d.recorded_at);
    assert.deepEqual([...times].sort().reverse(), times);
  });

  it('filters by environment and honours limit', async () => {
    const res = await call<History>(`${deployments}?environment=staging&limit=3`, { token });
    assert.deepEqual(
      res.body.deployments.map((d) => d.version),
      ['v23', 'v21', 'v19'],
    );
    assert.ok(res.body.deployments.every((d) => d.environment === 'staging'));
  });

  it('accepts limit 1 and 100', async () => {
    assert.equal((await call<History>(`${deployments}?limit=1`, { token })).body.deployments.length, 1);
    assert.equal((await call<History>(`${deployments}?limit=100`, { token })).body.deployments.length, 25);
  });

  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'limit=2.5', 'limit=', 'limit=1&limit=2', 'repository=octo-org/other', 'environment=', 'environment=prod%C2%85', 'environment=prod%C2%9B', 'environment=prod%E2%80%A8', 'environment=prod%00']) {
    it(`refuses ?${query} with 422`, async () => {
      const res = await call(`${deployments}?${query}`, { token });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error, 'validation_failed');
    });
  }

  it('never shows another repository’s records', async () => {
    const other = await backend.issuer.mint({ repository: 'octo-org/other', repository_id: '777' });
    const res = await call<History>(deployments, { token: other });
    assert.equal(res.status, 200);
    assert.equal(res.body.repository, 'octo-org/other');
    assert.deepEqual(res.body.deployments, []);
  });

  it('keys history by repository id: a renamed repository keeps it, a recycled name does not get it', async () => {
    const renamed = await backend.issuer.mint({ repository: 'octo-org/renamed-repo' });
    const kept = await call<History>(deployments, { token: renamed });
    assert.equal(kept.body.deployments.length, 20);
    assert.equal(kept.body.repository, 'octo-org/renamed-repo');
    const recycled = await backend.issuer.mint({ repository_id: '999999' });
    assert.deepEqual((await call<History>(deployments, { token: recycled })).body.deployments, []);
  });
});
