import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { secondaryRateLimit } from '../support/fake-github.js';
import { call } from '../support/http.js';
import { INSTALLATION_ID, REPO, startBroker, type BrokerHarness } from '../support/broker.js';

describe('broker POST /sign', () => {
  let h: BrokerHarness;
  let head: string;

  beforeEach(async () => {
    h = await startBroker({ env: { TOKEN_PERMISSIONS: 'issues=write' } });
    head = h.github.repos.get(REPO)!.branches.get('main')!;
  });
  afterEach(() => h.close());

  const request = (overrides: Record<string, unknown> = {}) => ({
    repo: REPO,
    branch: 'main',
    expected_head_oid: head,
    message: { headline: 'chore: bump version', body: 'Signed by the app.' },
    additions: [{ path: 'VERSION', contents: Buffer.from('1.2.3\n').toString('base64') }],
    deletions: [{ path: 'old/notes.txt' }],
    user: 'ignored-user',
    ...overrides,
  });
  const sign = (body: unknown, secret: string | undefined = h.triggerSecret) =>
    call(`${h.backend.url}/sign`, { ...(typeof body === 'string' ? { raw: body } : { json: body }), ...(secret === undefined ? {} : { token: secret }) });

  it('creates the commit through createCommitOnBranch and answers {ok: true, commit} with the platform commit', async () => {
    const res = await sign(request());
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    const commit = res.body.commit as Record<string, unknown>;
    const [made] = h.github.commits;
    assert.ok(made);
    assert.equal(commit.oid, made.oid);
    assert.deepEqual(commit.signature, { isValid: true, state: 'VALID', wasSignedByGitHub: true });
    assert.equal(made.parent, head);
    assert.equal(made.headline, 'chore: bump version');
    assert.equal(made.body, 'Signed by the app.');
    assert.deepEqual(made.additions, [{ path: 'VERSION', contents: Buffer.from('1.2.3\n').toString('base64') }]);
    assert.deepEqual(made.deletions, [{ path: 'old/notes.txt' }]);
  });

  it('mints a contents: write-only token for that repository (TOKEN_PERMISSIONS ignored) and revokes it afterwards', async () => {
    assert.equal((await sign(request())).status, 200);
    const mint = h.github.calls.find((c) => c.route === 'access_tokens');
    assert.deepEqual(mint?.body, { repositories: ['octo-repo'], permissions: { contents: 'write' } });
    assert.equal(h.github.count('revoke'), 1);
    assert.equal(h.github.revoked.size, 1);
  });

  it('only additions, or only deletions, is enough', async () => {
    assert.equal((await sign(request({ deletions: [] }))).status, 200);
    head = h.github.repos.get(REPO)!.branches.get('main')!;
    const { additions: _a, ...onlyDeletions } = request();
    assert.equal((await sign(onlyDeletions)).status, 200);
  });

  describe('error table', () => {
    it('401 unauthorized: bearer missing, wrong, empty or of another scheme', async () => {
      for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: 'Bearer ' }, { authorization: `Basic ${h.triggerSecret}` }, { authorization: h.triggerSecret }]) {
        const res = await call(`${h.backend.url}/sign`, { json: request(), headers });
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }], JSON.stringify(headers));
      }
      assert.equal(h.github.count(), 0);
    });

    it('401 comes before any validation: an unauthenticated caller learns nothing about the body', async () => {
      const res = await sign('{not json', 'wrong');
      assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }]);
    });

    it('503 sign_disabled while PROCESS_TRIGGER_SECRET is unset or blank', async () => {
      for (const value of [undefined, '   ']) {
        h.backend.env.PROCESS_TRIGGER_SECRET = value;
        const res = await sign(request());
        assert.deepEqual([res.status, res.body], [503, { error: 'sign_disabled' }]);
      }
    });

    it('400 invalid_json and invalid_request for malformed bodies', async () => {
      assert.deepEqual((await sign('{')).body, { error: 'invalid_json' });
      for (const body of ['[]', '"x"', 'null']) {
        const res = await sign(body);
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
      }
    });

    for (const field of ['repo', 'branch', 'expected_head_oid', 'message', 'message.headline']) {
      it(`400 missing_required_fields: ${field} absent`, async () => {
        const body: Record<string, unknown> = request();
        if (field === 'message.headline') body.message = { body: 'x' };
        else delete body[field];
        const res = await sign(body);
        assert.deepEqual([res.status, res.body.error], [400, 'missing_required_fields']);
      });
    }

    it('400 no_file_changes: additions and deletions both empty or absent', async () => {
      for (const changes of [{ additions: [], deletions: [] }, { additions: undefined, deletions: undefined }, { additions: null, deletions: [] }]) {
        const res = await sign(request(changes));
        assert.deepEqual([res.status, res.body], [400, { error: 'no_file_changes' }]);
      }
    });

    for (const repo of ['octo-repo', 'a/b/c', '/octo', 'octo/', 'octo/..', 'oc to/repo', 'octo/re po', 42]) {
      it(`400 invalid_repo: ${JSON.stringify(repo)}`, async () => {
        const res = await sign(request({ repo }));
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_repo']);
      });
    }

    const shapes: [string, Record<string, unknown>][] = [
      ['a path with ..', { additions: [{ path: '../etc/passwd', contents: 'eA==' }] }],
      ['a path with a .. segment inside', { deletions: [{ path: 'a/../../b' }] }],
      ['an absolute path', { additions: [{ path: '/etc/passwd', contents: 'eA==' }] }],
      ['a backslash path', { deletions: [{ path: 'a\\b' }] }],
      ['an empty segment', { deletions: [{ path: 'a//b' }] }],
      ['contents that are not base64', { additions: [{ path: 'a', contents: 'not base64!' }] }],
      ['additions that are not an array', { additions: { path: 'a', contents: 'eA==' } }],
      ['a short commit id', { expected_head_oid: 'abc123' }],
      ['a branch with ..', { branch: 'main..x' }],
      ['a branch with a space', { branch: 'my branch' }],
      ['a message that is a string', { message: 'hello' }],
      ['a non-string body', { message: { headline: 'x', body: 3 } }],
    ];
    for (const [name, overrides] of shapes) {
      it(`400 invalid_request: ${name}`, async () => {
        const res = await sign(request(overrides));
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
        assert.equal(h.github.count(), 0);
      });
    }

    it('405 method_not_allowed for GET', async () => {
      const res = await call(`${h.backend.url}/sign`, { token: h.triggerSecret });
      assert.deepEqual([res.status, res.body], [405, { error: 'method_not_allowed' }]);
    });

    it('502 installation_token_failed: the app is not installed there, or the mint fails', async () => {
      const missing = await sign(request({ repo: 'octo-org/unknown' }));
      assert.deepEqual([missing.status, missing.body], [502, { error: 'installation_token_failed' }]);
      h.github.inject('access_tokens', secondaryRateLimit(403));
      const limited = await sign(request());
      assert.deepEqual([limited.status, limited.body], [502, { error: 'installation_token_failed' }]);
    });

    it('502 sign_failed: a stale expected_head_oid (the platform refuses the commit)', async () => {
      const res = await sign(request({ expected_head_oid: 'f'.repeat(40) }));
      assert.equal(res.status, 502);
      assert.equal(res.body.error, 'sign_failed');
      assert.match(res.body.message as string, /Expected branch to point to/);
      assert.equal(h.github.commits.length, 0);
      assert.equal(h.github.count('revoke'), 1, 'the token is revoked on failure too');
    });

    it('502 sign_failed: the platform answers 5xx', async () => {
      h.github.inject('graphql', { status: 502, body: { message: 'Server Error' } });
      const res = await sign(request());
      assert.deepEqual([res.status, res.body.error], [502, 'sign_failed']);
    });

    it('502 sign_failed: the installation grants contents: read only (the token cannot write)', async () => {
      h.github.installations.get(INSTALLATION_ID)!.permissions = { contents: 'read', metadata: 'read' };
      const res = await sign(request());
      assert.deepEqual([res.status, res.body.error], [502, 'sign_failed']);
      assert.match(res.body.message as string, /not accessible/);
    });

    it('503 app_unconfigured without FORGE_APP_ID', async () => {
      delete h.backend.env.FORGE_APP_ID;
      const res = await sign(request());
      assert.deepEqual([res.status, res.body], [503, { error: 'app_unconfigured' }]);
    });

    it('413 for a body over the limit', async () => {
      const res = await sign(request({ additions: [{ path: 'big', contents: 'A'.repeat(9 * 1024 * 1024) }] }));
      assert.deepEqual([res.status, res.body], [413, { error: 'payload_too_large' }]);
    });

    // Contents that are base64 in shape only: wrong length, padding or alphabet, or non-zero bits under the padding.
    for (const contents of ['eA', 'eA=', 'eA===', '=eA=', 'eA==eA==', 'e===', '====', 'eA-_', 'eA_=', 'eA==\n', ' eA==', 'eB==', 'eAB=', 'ZW5jb2RlZA=\u0000']) {
      it(`400 invalid_request: contents ${JSON.stringify(contents)}`, async () => {
        const res = await sign(request({ additions: [{ path: 'a', contents }] }));
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
        assert.equal(h.github.count(), 0);
      });
    }
  });

  describe('near the 8 MB body limit', () => {
    const LIMIT = 8 * 1024 * 1024;
    /** The JSON of a one-file commit, padded with trailing whitespace (still JSON) to exactly `size` bytes. */
    const bodyOf = (contents: string, size: number): string => {
      const json = JSON.stringify(request({ additions: [{ path: 'assets/bundle.bin', contents }], deletions: [] }));
      assert.ok(json.length <= size, `${json.length} > ${size}`);
      return json.padEnd(size, ' ');
    };
    /** Random bytes whose base64 leaves `room` bytes of the limit for the rest of the body. */
    const fileFor = (room: number): Buffer => randomBytes(Math.floor((LIMIT - room) / 4) * 3);

    it('a body of exactly the limit (one file of about 6 MB) is signed, and the platform gets the same contents', async () => {
      const file = fileFor(1024);
      const contents = file.toString('base64');
      const res = await sign(bodyOf(contents, LIMIT));
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const [made] = h.github.commits;
      assert.equal(made?.additions.length, 1);
      assert.equal(made.additions[0]!.path, 'assets/bundle.bin');
      assert.ok(made.additions[0]!.contents === contents, 'the contents reached the platform changed');
      assert.ok(Buffer.from(made.additions[0]!.contents, 'base64').equals(file));
    });

    it('one byte over the limit is 413 payload_too_large and nothing reaches the platform', async () => {
      const res = await sign(bodyOf(fileFor(1024).toString('base64'), LIMIT + 1));
      assert.deepEqual([res.status, res.body], [413, { error: 'payload_too_large' }]);
      assert.equal(h.github.count(), 0);
    });

    it('contents of about 6 MB with one character outside the alphabet are 400 invalid_request', async () => {
      const contents = fileFor(1024).toString('base64');
      const at = contents.length - 10;
      const res = await sign(bodyOf(`${contents.slice(0, at)}!${contents.slice(at + 1)}`, LIMIT));
      assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
      assert.equal(h.github.count(), 0);
    });
  });

  describe('control characters (Unicode Cc: C0, DEL, C1; and U+2028, U+2029)', () => {
    const CONTROLS = ['\u0000', '\n', '\u001f', '\u007f', '\u0080', '\u0085', '\u009b', '\u009f', '\u2028', '\u2029'];
    for (const ch of CONTROLS) {
      const name = `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      it(`400 invalid_request: ${name} in an addition's path, a deletion's path or the branch`, async () => {
        for (const overrides of [{ additions: [{ path: `dir/a${ch}b`, contents: 'eA==' }] }, { deletions: [{ path: `${ch}/notes.txt` }] }, { branch: `release${ch}1` }]) {
          const res = await sign(request(overrides));
          assert.deepEqual([res.status, res.body.error], [400, 'invalid_request'], JSON.stringify(overrides));
        }
        assert.equal(h.github.count(), 0);
      });
    }

    it('their neighbours and format characters are ordinary path characters (~, U+00A0, U+00AD, U+200D, U+202E)', async () => {
      const paths = ['a~b', 'no\u00a0break', 'soft\u00adhyphen', 'zw\u200dj', 'rl\u202eo'];
      const res = await sign(request({ additions: paths.map((path) => ({ path, contents: 'eA==' })), deletions: [] }));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(h.github.commits[0]?.additions.map((a) => a.path), paths);
    });
  });
});
