import assert from 'node:assert/strict';
import { checkConsoleSettings, parseSessionKey } from '../../server/console/settings.js';
import { checkBackendStartup } from '../../server/startup/backend.js';
import { call } from '../support/http.js';
import { runToEnd, startEntry, type Started } from '../support/processes.js';

const KEY_HEX = 'a1'.repeat(32);
const SECRET = 'fake-client-secret-0123456789abcdef';
const ALL = { FORGE_APP_CLIENT_ID: 'Iv23liFakeClient01', FORGE_APP_CLIENT_SECRET: SECRET, CONSOLE_SESSION_KEY: KEY_HEX, CONSOLE_URL: 'https://gatehouse.example.com' };

describe('console settings (server/console/settings.ts)', () => {
  it('none of the four set: off; all four: on, with the callback URL, Secure cookies, github.com and api.github.com by default', () => {
    assert.deepEqual(checkConsoleSettings({}), { ok: true, value: { on: false } });
    assert.deepEqual(checkConsoleSettings({ FORGE_APP_CLIENT_ID: '  ', CONSOLE_URL: '' }), { ok: true, value: { on: false } });
    const on = checkConsoleSettings(ALL);
    assert.ok(on.ok && on.value.on);
    const { settings } = on.value;
    assert.equal(settings.callbackUrl, 'https://gatehouse.example.com/console/callback');
    assert.equal(settings.secureCookies, true);
    assert.equal(settings.webBase, 'https://github.com');
    assert.equal(settings.apiBase, 'https://api.github.com');
    assert.equal(settings.sessionKey.length, 32);
    const ghes = checkConsoleSettings({ ...ALL, FORGE_WEB_BASE: 'https://ghe.example.com/', FORGE_API_BASE: 'https://ghe.example.com/api/v3', CONSOLE_URL: 'http://127.0.0.1:8080' });
    assert.ok(ghes.ok && ghes.value.on);
    assert.equal(ghes.value.settings.webBase, 'https://ghe.example.com');
    assert.equal(ghes.value.settings.apiBase, 'https://ghe.example.com/api/v3');
    assert.equal(ghes.value.settings.secureCookies, false);
  });

  it('some of the four: a problem naming each missing one', () => {
    const some = checkConsoleSettings({ FORGE_APP_CLIENT_ID: 'Iv1.abc', CONSOLE_URL: 'https://x.example.com' });
    assert.ok(!some.ok);
    assert.deepEqual(
      some.problems.map((p) => p.setting),
      ['FORGE_APP_CLIENT_SECRET', 'CONSOLE_SESSION_KEY'],
    );
    assert.match(some.problems[0]!.message, /is not set: the console needs all of FORGE_APP_CLIENT_ID, FORGE_APP_CLIENT_SECRET, CONSOLE_SESSION_KEY, CONSOLE_URL/);
  });

  it('refuses a short or unreadable session key, a CONSOLE_URL that is not an https origin, a client id that is a URL; never quoting a secret', () => {
    const wrong = checkConsoleSettings({ ...ALL, CONSOLE_SESSION_KEY: 'ab'.repeat(31), CONSOLE_URL: 'http://gatehouse.example.com', FORGE_APP_CLIENT_ID: 'https://github.com/apps/x', FORGE_WEB_BASE: 'ftp://github.com' });
    assert.ok(!wrong.ok);
    assert.deepEqual(
      wrong.problems.map((p) => p.setting),
      ['FORGE_APP_CLIENT_ID', 'CONSOLE_SESSION_KEY', 'CONSOLE_URL', 'FORGE_WEB_BASE'],
    );
    const path = checkConsoleSettings({ ...ALL, CONSOLE_URL: 'https://gatehouse.example.com/console' });
    assert.ok(!path.ok);
    assert.match(path.problems[0]!.message, /must be an origin only/);
    assert.ok(!JSON.stringify(wrong.problems.map((p) => p.message)).includes(SECRET));
  });

  it('the session key: hex first, then base64 or base64url; at least 32 bytes', () => {
    assert.equal(parseSessionKey('00'.repeat(32)).length, 32);
    assert.equal(parseSessionKey(Buffer.alloc(48, 7).toString('base64')).length, 48);
    assert.equal(parseSessionKey(Buffer.alloc(33, 251).toString('base64url')).length, 33);
    assert.throws(() => parseSessionKey(Buffer.alloc(31, 7).toString('base64')), /at least 32 bytes/);
    assert.throws(() => parseSessionKey('not a key, not base64!'), /must be hex or base64/);
    assert.throws(() => parseSessionKey('abc'), /at least 32 bytes|must be hex or base64/);
  });

  it('start-up: all four → an info line where the console is; none → how to turn it on; some → problems', () => {
    const on = checkBackendStartup(ALL);
    assert.ok(on.ok);
    assert.ok(on.value.notices.some((n) => n.message === "console: on at https://gatehouse.example.com/console; the GitHub App's callback URL must be https://gatehouse.example.com/console/callback"));
    const off = checkBackendStartup({});
    assert.ok(off.ok);
    assert.ok(off.value.notices.some((n) => n.message === 'console: off; set FORGE_APP_CLIENT_ID, FORGE_APP_CLIENT_SECRET, CONSOLE_SESSION_KEY, CONSOLE_URL to turn it on (docs/console.md)'));
    const some = checkBackendStartup({ CONSOLE_SESSION_KEY: KEY_HEX });
    assert.ok(!some.ok);
    assert.deepEqual(
      some.problems.map((p) => p.setting),
      ['FORGE_APP_CLIENT_ID', 'FORGE_APP_CLIENT_SECRET', 'CONSOLE_URL'],
    );
  });
});

describe('console switches at the process entry (server/main.ts)', function () {
  this.timeout(60_000);
  let started: Started | undefined;
  afterEach(async () => {
    started?.child.kill('SIGTERM');
    await started?.exited;
    started = undefined;
  });

  it('none set: npm start says how to turn the console on, and /console… answers 404 not_found', async () => {
    started = await startEntry('server/main.ts', {});
    assert.match(started.output(), /console: off; set FORGE_APP_CLIENT_ID, FORGE_APP_CLIENT_SECRET, CONSOLE_SESSION_KEY, CONSOLE_URL to turn it on/);
    for (const path of ['/console', '/console/login', '/console/repos/octo-org/app']) {
      const res: Awaited<ReturnType<typeof call>> = await call(`${started.url}${path}`);
      assert.deepEqual([res.status, res.body], [404, { error: 'not_found' }], path);
    }
  });

  it('some set: exits 1 at start naming each missing one, never printing the secret', async () => {
    const result = await runToEnd(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', FORGE_APP_CLIENT_ID: 'Iv1.abc', FORGE_APP_CLIENT_SECRET: SECRET },
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { level: string; setting: string });
    assert.deepEqual(lines.map((l) => [l.level, l.setting]), [
      ['fatal', 'CONSOLE_SESSION_KEY'],
      ['fatal', 'CONSOLE_URL'],
    ]);
    assert.ok(!(result.stdout + result.stderr).includes(SECRET));
  });

  it('all four set: the console answers (not signed in → 302 to /console/login)', async () => {
    started = await startEntry('server/main.ts', { ...ALL, CONSOLE_URL: 'http://127.0.0.1:9' });
    assert.match(started.output(), /console: on at http:\/\/127\.0\.0\.1:9\/console/);
    const res = await fetch(`${started.url}/console`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console/login');
    assert.ok(!started.output().includes(SECRET) && !started.output().includes(KEY_HEX));
  });
});
