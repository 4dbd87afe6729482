import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createMinimalApp } from '../../server/minimal/app.js';
import { hubSignature, pushPayload, REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { capturedLogger } from '../support/log-capture.js';
import { listen, type Listening } from '../support/servers.js';
import { send, startSyncSurface, SYNC_TRIGGER, type RawAnswer, type SyncSurface } from './raw-http.js';

// The attack suite's request half: hostile signatures, credentials and bodies against every route
// that takes them. Each answer is the route's documented one, and the server keeps serving: every
// attack is followed by a good request that must still work.

const KB = 1024;
const MB = 1024 * KB;

let h: BrokerHarness;
let minimal: Listening;
let sync: SyncSurface;

const ledgerToken = () => h.issuer.mint();
const oidcForBroker = () => h.oidc();

/** A webhook delivery of exactly these bytes; the signature defaults to the right one over them. */
function deliver(raw: string | Buffer, options: { signature?: string | string[] | null; id?: string; event?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json',
    'x-github-event': options.event ?? 'push',
    'x-github-delivery': options.id ?? randomUUID(),
    ...options.headers,
  };
  const signature = options.signature === undefined ? hubSignature(h.webhookSecret, raw) : options.signature;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  return send(`${h.backend.url}/webhook`, { body: raw, headers });
}

const currentHead = () => h.github.repos.get(REPO)!.branches.get('main')!;
const signBody = (extra: Record<string, unknown> = {}) => ({
  repo: REPO,
  branch: 'main',
  expected_head_oid: currentHead(),
  message: { headline: 'chore: attack suite follow-up' },
  additions: [{ path: 'docs/ok.txt', contents: Buffer.from('ok\n').toString('base64') }],
  ...extra,
});

const answer = (res: RawAnswer) => ({ status: res.status, body: res.body });

/** A route that reads a JSON body, and what it answers to each kind of bad body. */
interface BodyRoute {
  readonly name: string;
  readonly path: () => string;
  /** The body limit in bytes. */
  readonly limit: number;
  /** Credentials the route needs before it reads a body (none for /token). */
  headers(raw: Buffer): Promise<Record<string, string>>;
  readonly tooLarge: { status: number; error: string };
  /** The answer to `{"pad": …}` of exactly the limit: past the size check, refused for its content. */
  readonly atLimit: { status: number; error: string };
  readonly notJson: { status: number; error: string };
  /** A JSON value that is not an object. */
  readonly notObject: { status: number; error: string };
  readonly compressed: { status: number; error: string };
  /** A body whose one field holds the deep nesting, and the answer to it. */
  deepField(nesting: string): Promise<{ body: string; status: number; error?: string }>;
  /** A good request that must succeed after the attack. */
  followUp(): Promise<void>;
}

const bodyRoutes: BodyRoute[] = [
  {
    name: 'ledger POST /v1/deployments',
    path: () => `${h.backend.url}/v1/deployments`,
    limit: 64 * KB,
    headers: async () => ({ authorization: `Bearer ${await ledgerToken()}` }),
    tooLarge: { status: 413, error: 'payload_too_large' },
    atLimit: { status: 422, error: 'validation_failed' },
    notJson: { status: 400, error: 'invalid_json' },
    notObject: { status: 422, error: 'validation_failed' },
    compressed: { status: 415, error: 'unsupported_media_type' },
    deepField: async (nesting) => ({ body: `{"delivery_id":"deep","environment":"prod","status":"success","version":${nesting}}`, status: 422, error: 'validation_failed' }),
    followUp: async () => {
      const res = await send(`${h.backend.url}/v1/deployments`, {
        headers: { authorization: `Bearer ${await ledgerToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ delivery_id: randomUUID(), environment: 'production', status: 'success' }),
      });
      assert.equal(res.status, 201, `follow-up: ${res.text}`);
    },
  },
  {
    name: 'broker POST /token',
    path: () => `${h.backend.url}/token`,
    limit: 64 * KB,
    headers: async () => ({}),
    tooLarge: { status: 413, error: 'payload_too_large' },
    atLimit: { status: 400, error: 'missing_required_fields' },
    notJson: { status: 400, error: 'invalid_json' },
    notObject: { status: 400, error: 'invalid_request' },
    compressed: { status: 415, error: 'unsupported_media_type' },
    deepField: async (nesting) => ({ body: `{"oidcToken":${nesting},"owner":"octo-org","repo":"octo-repo"}`, status: 400, error: 'invalid_request' }),
    followUp: async () => {
      const res = await send(`${h.backend.url}/token`, { body: JSON.stringify({ oidcToken: await oidcForBroker(), owner: 'octo-org', repo: 'octo-repo' }) });
      assert.equal(res.status, 200, `follow-up: ${res.text}`);
    },
  },
  {
    name: 'minimal broker POST /token',
    path: () => `${minimal.url}/token`,
    limit: 64 * KB,
    headers: async () => ({}),
    // The minimal broker's table: over the limit, not UTF-8, not JSON or not an object are all invalid_json.
    tooLarge: { status: 400, error: 'invalid_json' },
    atLimit: { status: 400, error: 'missing_fields' },
    notJson: { status: 400, error: 'invalid_json' },
    notObject: { status: 400, error: 'invalid_json' },
    compressed: { status: 400, error: 'invalid_json' },
    deepField: async (nesting) => ({ body: `{"oidcToken":${nesting},"owner":"octo-org","repo":"octo-repo"}`, status: 401, error: 'invalid_oidc' }),
    followUp: async () => {
      const res = await send(`${minimal.url}/token`, { body: JSON.stringify({ oidcToken: await oidcForBroker(), owner: 'octo-org', repo: 'octo-repo' }) });
      assert.equal(res.status, 200, `follow-up: ${res.text}`);
    },
  },
  {
    name: 'broker POST /sign',
    path: () => `${h.backend.url}/sign`,
    limit: 8 * MB,
    headers: async () => ({ authorization: `Bearer ${h.triggerSecret}` }),
    tooLarge: { status: 413, error: 'payload_too_large' },
    atLimit: { status: 400, error: 'missing_required_fields' },
    notJson: { status: 400, error: 'invalid_json' },
    notObject: { status: 400, error: 'invalid_request' },
    compressed: { status: 415, error: 'unsupported_media_type' },
    deepField: async (nesting) => ({ body: JSON.stringify(signBody()).replace('"branch":"main"', `"branch":${nesting}`), status: 400, error: 'invalid_request' }),
    followUp: async () => {
      const res = await send(`${h.backend.url}/sign`, { headers: { authorization: `Bearer ${h.triggerSecret}` }, body: JSON.stringify(signBody()) });
      assert.equal(res.status, 200, `follow-up: ${res.text}`);
    },
  },
  {
    name: 'broker POST /webhook (correctly signed)',
    path: () => `${h.backend.url}/webhook`,
    limit: 10 * MB,
    headers: async (raw) => ({ 'x-github-event': 'push', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': hubSignature(h.webhookSecret, raw) }),
    tooLarge: { status: 413, error: 'payload_too_large' },
    atLimit: { status: 400, error: 'invalid_request' },
    notJson: { status: 400, error: 'invalid_json' },
    notObject: { status: 400, error: 'invalid_request' },
    compressed: { status: 415, error: 'unsupported_media_type' },
    // An extra field of a push is not read: the delivery is handled as any other push.
    deepField: async (nesting) => ({ body: JSON.stringify(pushPayload()).replace(/}$/, `,"extra":${nesting}}`), status: 200 }),
    followUp: async () => {
      const res = await deliver(JSON.stringify(pushPayload()));
      assert.deepEqual(answer(res), { status: 200, body: { ok: true, event: 'push', branch: 'main', updated: [1, 2], failed: [] } });
    },
  },
];

describe('attack suite: hostile requests', function () {
  before(async () => {
    h = await startBroker({ env: { AUTO_UPDATE_BRANCHES: 'true' } });
    h.github.repos.get(REPO)!.pulls = [
      { number: 1, base: 'main', headSha: 'a'.repeat(40) },
      { number: 2, base: 'main', headSha: 'b'.repeat(40) },
    ];
    minimal = await listen(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'attack' }));
    sync = await startSyncSurface();
  });
  after(async () => {
    await sync?.close();
    await minimal?.close();
    await h?.close();
  });

  describe('webhook signatures and replays', () => {
    afterEach(async () => {
      const res = await deliver(JSON.stringify(pushPayload()));
      assert.equal(res.status, 200, 'a good delivery still works');
    });

    const wrong: [string, (raw: string) => string | string[] | null][] = [
      ['missing', () => null],
      ['empty', () => ''],
      ['of another secret', (raw) => hubSignature('not-the-webhook-secret', raw)],
      ['over the re-serialised JSON (same JSON, different bytes)', (raw) => hubSignature(h.webhookSecret, JSON.stringify(JSON.parse(raw)))],
      ['over the body without its trailing newline', (raw) => hubSignature(h.webhookSecret, raw.trimEnd())],
      ['sha1= over the right bytes', (raw) => hubSignature(h.webhookSecret, raw).replace('sha256=', 'sha1=')],
      ['SHA256= (another case) over the right bytes', (raw) => hubSignature(h.webhookSecret, raw).replace('sha256=', 'SHA256=')],
      ['the right one followed by a second, wrong header', (raw) => [hubSignature(h.webhookSecret, raw), hubSignature('x', raw)]],
      ['the right digest truncated by one byte', (raw) => hubSignature(h.webhookSecret, raw).slice(0, -2)],
    ];
    for (const [name, signature] of wrong) {
      it(`401 invalid_signature: a signature ${name}`, async () => {
        // Pretty-printed with a newline, as a proxy might not forward it: only these bytes count.
        const raw = `${JSON.stringify(pushPayload(), null, 2)}\n`;
        const updates = h.github.count('update_branch');
        const res = await deliver(raw, { signature: signature(raw) });
        assert.deepEqual(answer(res), { status: 401, body: { error: 'invalid_signature' } });
        assert.equal(h.github.count('update_branch'), updates, 'nothing acted on');
      });
    }

    it('the same pretty-printed bytes with their own signature are accepted (the control)', async () => {
      const raw = `${JSON.stringify(pushPayload(), null, 2)}\n`;
      const res = await deliver(raw);
      assert.deepEqual(answer(res), { status: 200, body: { ok: true, event: 'push', branch: 'main', updated: [1, 2], failed: [] } });
    });

    it('a replayed delivery id does nothing the second time, whatever body it carries', async () => {
      const id = randomUUID();
      assert.equal((await deliver(JSON.stringify(pushPayload()), { id })).status, 200);
      const updates = h.github.count('update_branch');
      for (const raw of [JSON.stringify(pushPayload()), JSON.stringify(pushPayload({ ref: 'refs/heads/develop' }))]) {
        const res = await deliver(raw, { id });
        assert.deepEqual(answer(res), { status: 200, body: { ok: true, duplicate: true, delivery: id } });
      }
      assert.equal(h.github.count('update_branch'), updates, 'no second round of updates');
    });

    it('a replayed body under a fresh delivery id is a duplicate too (the signature covers the body, not the id)', async () => {
      const raw = JSON.stringify(pushPayload());
      assert.equal((await deliver(raw)).status, 200);
      const updates = h.github.count('update_branch');
      const replay = await deliver(raw, { id: randomUUID() });
      assert.equal(replay.status, 200);
      assert.equal(replay.body?.duplicate, true);
      assert.equal(h.github.count('update_branch'), updates);
    });

    it('the webhook secret never reaches the log', async () => {
      await deliver(JSON.stringify(pushPayload()), { signature: hubSignature('guess', 'x') });
      assert.ok(!h.backend.logs.text().includes(h.webhookSecret));
    });
  });

  describe('bearer-protected routes', () => {
    interface BearerRoute {
      readonly name: string;
      /** The credential that opens the route. */
      secret(): Promise<string>;
      /** `control`: the request of an accepted-credential check. */
      call(authorization: string | undefined, control?: boolean): Promise<RawAnswer>;
      /** The answer to a refused credential, by what was wrong with it. */
      refused(kind: Refusal): { status: number; body: Record<string, unknown> };
      /** Proof that the credential was accepted (the route did its work, or refused the input after auth). */
      passed(res: RawAnswer): void;
    }
    /** `missing`: no Bearer credential at all; `wrong`: another credential; `tampered`: the secret with a byte added. */
    type Refusal = 'missing' | 'wrong' | 'tampered';
    const ledgerReasons: Record<Refusal, string> = { missing: 'missing_token', wrong: 'malformed', tampered: 'signature_invalid' };
    const unauthorized = () => ({ status: 401, body: { error: 'unauthorized' } });
    const auth = (authorization: string | undefined): Record<string, string> => (authorization === undefined ? {} : { authorization });

    const routes: BearerRoute[] = [
      {
        name: 'broker POST /sign',
        secret: async () => h.triggerSecret,
        call: (a) => send(`${h.backend.url}/sign`, { headers: auth(a), body: '{}' }),
        refused: unauthorized,
        passed: (res) => assert.deepEqual([res.status, res.body?.error], [400, 'missing_required_fields']),
      },
      {
        name: 'broker GET /releases',
        secret: async () => h.triggerSecret,
        call: (a) => send(`${h.backend.url}/releases`, { method: 'GET', headers: auth(a) }),
        refused: unauthorized,
        passed: (res) => assert.deepEqual([res.status, Array.isArray(res.body?.repos)], [200, true]),
      },
      {
        name: 'sync POST /sync/{source}',
        secret: async () => SYNC_TRIGGER,
        // A refused trigger names a real source, so a leak would start a run (and reach upstream);
        // an accepted one names an unknown source, so passing starts nothing.
        call: (a, control) => send(`${sync.url}/sync/${control ? 'nosuch' : 'dependencytrack'}`, { headers: auth(a) }),
        refused: unauthorized,
        passed: (res) => assert.deepEqual(answer(res), { status: 404, body: { error: 'unknown_source' } }),
      },
      {
        name: 'sync GET /metrics',
        secret: async () => SYNC_TRIGGER,
        call: (a) => send(`${sync.url}/metrics`, { method: 'GET', headers: auth(a) }),
        refused: unauthorized,
        passed: (res) => {
          assert.equal(res.status, 200);
          assert.match(res.text, /^gatehouse_sync_running\{source="dependencytrack"\} 0$/m);
        },
      },
      {
        name: 'ledger GET /v1/deployments (OIDC bearer)',
        secret: ledgerToken,
        call: (a) => send(`${h.backend.url}/v1/deployments`, { method: 'GET', headers: auth(a) }),
        refused: (kind) => ({ status: 401, body: { error: 'invalid_token', reason: ledgerReasons[kind] } }),
        passed: (res) => assert.deepEqual([res.status, res.body?.repository], [200, REPO]),
      },
    ];

    const refusedHeaders: [string, (secret: string) => string | undefined, Refusal][] = [
      ['no Authorization header', () => undefined, 'missing'],
      ['an empty Authorization header', () => '', 'missing'],
      ['"Bearer" with no credential', () => 'Bearer', 'missing'],
      ['"Bearer " with an empty credential', () => 'Bearer ', 'missing'],
      ['a wrong credential', () => 'Bearer wrong-credential', 'wrong'],
      ['the secret in upper case', (s) => `Bearer ${s.toUpperCase()}`, 'wrong'],
      // The first character: a JWT's last base64url character carries unused bits, so changing it
      // there can leave the same signature bytes (and a valid token).
      ['the secret with its first character changed', (s) => `Bearer ${s.startsWith('x') ? 'y' : 'x'}${s.slice(1)}`, 'wrong'],
      ['the secret with a character added', (s) => `Bearer ${s}0`, 'tampered'],
      ['the Basic scheme with the secret as password', (s) => `Basic ${Buffer.from(`x:${s}`).toString('base64')}`, 'missing'],
      ['the Basic scheme with the bare secret', (s) => `Basic ${s}`, 'missing'],
      ['the secret with no scheme', (s) => s, 'missing'],
      ['the "token" scheme', (s) => `token ${s}`, 'missing'],
      ['a tab instead of the space (RFC 7235: 1*SP)', (s) => `Bearer\t${s}`, 'missing'],
      ['the secret followed by a second credential', (s) => `Bearer ${s}, Basic eDp4`, 'missing'],
      ['the secret twice', (s) => `Bearer ${s} ${s}`, 'missing'],
    ];
    // RFC 7235: the auth-scheme is case-insensitive.
    const acceptedHeaders: [string, (secret: string) => string][] = [
      ['"Bearer <secret>" (the control)', (s) => `Bearer ${s}`],
      ['"bearer <secret>" (scheme in lower case)', (s) => `bearer ${s}`],
      ['"BEARER <secret>" (scheme in upper case)', (s) => `BEARER ${s}`],
    ];

    for (const route of routes) {
      describe(route.name, () => {
        for (const [name, header, kind] of refusedHeaders) {
          it(`refuses ${name}`, async () => {
            const calls = h.github.calls.length;
            const res = await route.call(header(await route.secret()));
            assert.deepEqual(answer(res), route.refused(kind));
            if (!route.name.startsWith('ledger')) assert.equal(res.headers['www-authenticate'], 'Bearer');
            assert.equal(h.github.calls.length, calls, 'no platform call');
            assert.deepEqual(sync.upstream.requests, [], 'no sync run started');
          });
        }
        for (const [name, header] of acceptedHeaders) {
          it(`accepts ${name}`, async () => {
            route.passed(await route.call(header(await route.secret()), true));
            assert.deepEqual(sync.upstream.requests, [], 'no sync run started');
          });
        }
      });
    }

    it('no trigger secret reaches the backend log', () => {
      assert.ok(!h.backend.logs.text().includes(h.triggerSecret));
    });
  });

  describe('bodies', () => {
    for (const route of bodyRoutes) {
      describe(route.name, () => {
        afterEach(() => route.followUp());

        const expectError = async (raw: Buffer, want: { status: number; error?: string }, options: { chunked?: boolean; headers?: Record<string, string> } = {}) => {
          const res = await send(route.path(), {
            body: raw,
            headers: { 'content-type': 'application/json', ...(await route.headers(raw)), ...options.headers },
            ...(options.chunked ? { chunked: true } : {}),
          });
          assert.equal(res.status, want.status, res.text.slice(0, 300));
          if (want.error) assert.equal(res.body?.error, want.error, res.text.slice(0, 300));
          return res;
        };
        /** Valid JSON of exactly `size` bytes. */
        const jsonOfSize = (size: number) => Buffer.from(`{"pad":"${'x'.repeat(size - 10)}"}`);

        it(`exactly at the ${route.limit / KB} KB limit: past the size check (${route.atLimit.status} ${route.atLimit.error})`, async () => {
          await expectError(jsonOfSize(route.limit), route.atLimit);
        });

        it(`over the ${route.limit / KB} KB limit by one byte, with Content-Length: ${route.tooLarge.status} ${route.tooLarge.error}`, async () => {
          await expectError(jsonOfSize(route.limit + 1), route.tooLarge);
        });

        it(`over the limit, chunked with no Content-Length: ${route.tooLarge.status} ${route.tooLarge.error}`, async () => {
          await expectError(jsonOfSize(route.limit + 64 * KB), route.tooLarge, { chunked: true });
        });

        it('100 000 levels of "[" with no end', async () => {
          const raw = Buffer.from('['.repeat(100_000));
          await expectError(raw, raw.length > route.limit ? route.tooLarge : route.notJson);
        });

        it('balanced nesting as deep as the limit allows (up to 100 000 levels)', async () => {
          const depth = Math.min(100_000, Math.floor((route.limit - 16) / 2));
          await expectError(Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`), route.notObject);
        });

        it('deep nesting (20 000 levels) inside one field of a plausible body', async () => {
          const depth = 20_000;
          const { body, status, error } = await route.deepField(`${'['.repeat(depth)}${']'.repeat(depth)}`);
          await expectError(Buffer.from(body), { status, ...(error ? { error } : {}) });
        });

        for (const [name, bytes] of [
          ['a 0xFF byte', [0xff]],
          ['an overlong encoding of "/"', [0xc0, 0xaf]],
          ['a UTF-16 surrogate half', [0xed, 0xa0, 0x80]],
          ['a truncated three-byte sequence', [0xe2, 0x82]],
        ] as const) {
          it(`invalid UTF-8 (${name}) inside a string: ${route.notJson.status} ${route.notJson.error}`, async () => {
            await expectError(Buffer.concat([Buffer.from('{"oidcToken":"'), Buffer.from(bytes), Buffer.from('","owner":"o","repo":"r"}')]), route.notJson);
          });
        }

        it(`JSON encoded as UTF-16: ${route.notJson.status} ${route.notJson.error}`, async () => {
          await expectError(Buffer.from('{"a":1}', 'utf16le'), route.notJson);
        });

        it(`an empty body: ${route.notJson.status} ${route.notJson.error}`, async () => {
          await expectError(Buffer.alloc(0), route.notJson);
        });

        it(`a gzip body (it would escape the limit once inflated): ${route.compressed.status} ${route.compressed.error}`, async () => {
          await expectError(gzipSync(Buffer.from(`{"pad":"${'x'.repeat(4 * MB)}"}`)), route.compressed, { headers: { 'content-encoding': 'gzip' } });
        });
      });
    }
  });

  describe('/sign paths outside the repository', () => {
    afterEach(async () => {
      const res = await send(`${h.backend.url}/sign`, { headers: { authorization: `Bearer ${h.triggerSecret}` }, body: JSON.stringify(signBody()) });
      assert.equal(res.status, 200, `a good /sign still works: ${res.text}`);
    });

    const paths: [string, unknown][] = [
      ['..', '..'],
      ['../x', '../x'],
      ['a/..', 'a/..'],
      ['a/../../b', 'a/../../b'],
      ['.github/../../etc/passwd', '.github/../../etc/passwd'],
      ['./a', './a'],
      ['a/./b', 'a/./b'],
      ['.', '.'],
      ['/etc/passwd (absolute)', '/etc/passwd'],
      ['//server/share (absolute, UNC-like)', '//server/share'],
      ['/ (the root)', '/'],
      ['a//b (an empty segment)', 'a//b'],
      ['a/ (a trailing slash)', 'a/'],
      ['..\\x (a backslash)', '..\\x'],
      ['C:\\Windows\\win.ini', 'C:\\Windows\\win.ini'],
      ['a NUL byte', 'a\u0000b'],
      ['a newline', 'docs/a\nb'],
      ['an empty path', ''],
      ['5000 characters', 'a/'.repeat(2500).slice(0, -1) + 'b'],
      ['a number', 42],
      ['an array', ['..']],
      ['null', null],
    ];
    for (const [name, path] of paths) {
      for (const list of ['additions', 'deletions'] as const) {
        it(`400 invalid_request: ${name} in ${list}`, async () => {
          const entry = list === 'additions' ? { path, contents: 'eA==' } : { path };
          const calls = h.github.calls.length;
          const res = await send(`${h.backend.url}/sign`, {
            headers: { authorization: `Bearer ${h.triggerSecret}` },
            body: JSON.stringify(signBody({ additions: list === 'additions' ? [entry] : [], deletions: list === 'deletions' ? [entry] : [] })),
          });
          assert.deepEqual([res.status, res.body?.error], [400, 'invalid_request'], res.text);
          assert.equal(h.github.calls.length, calls, 'nothing reaches the platform');
        });
      }
    }
  });
});
