import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMinimalApp } from '../../server/minimal/app.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { forwardingPeer } from '../support/forwarding-peer.js';
import { capturedLogger } from '../support/log-capture.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { parseOutputFile, runAction } from '../support/runner.js';
import { closedPort, listen, readBody, type Listening } from '../support/servers.js';
import { stallingPeer, STALLS } from '../support/stalling.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'request-token', 'index.js');
const POST_BUNDLE = join(REPO_ROOT, 'dist', 'request-token', 'post', 'index.js');
const SCRIPT = join(REPO_ROOT, 'actions', 'request-token', 'request-token.sh');

const which = (tool: string): string | undefined => {
  try {
    return execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
};
const BASH = which('bash')!;
const WARNING = (reason: string) => `::warning::Gatehouse token unavailable (${reason}); comments fall back to the default bot`;
const warnings = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::warning::'));

/**
 * Refusals that test what the clients print of a broker's `error` and `reason`: the OIDC token
 * echoed back, a platform token, control characters, unbounded text, a `%`, a body that is not JSON.
 */
const REFUSALS: { readonly status: number; readonly body: (oidcToken: string) => string; readonly said: string | undefined }[] = [
  { status: 400, body: (t) => JSON.stringify({ error: `bad token ${t}`, reason: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a' }), said: 'bad token [hidden] ([hidden])' },
  { status: 401, body: () => JSON.stringify({ error: 'invalid\r\n::error::forged\u202e\u0007', reason: 'x\u2028y' }), said: 'invalid ::error::forged (x y)' },
  { status: 403, body: () => JSON.stringify({ error: 'e'.repeat(5000), reason: 'r'.repeat(5000) }), said: `${'e'.repeat(63)}… (${'r'.repeat(63)}…)` },
  { status: 409, body: () => JSON.stringify({ error: '100%0A::error::x' }), said: '100%250A::error::x' },
  { status: 502, body: () => '<html>Bad gateway</html>', said: undefined },
  { status: 503, body: () => '{"error":"a"} {"error":"b"}', said: undefined },
];

/** Every appearance of the token in a log is inside its own `::add-mask::` line. */
function onlyMasked(stdout: string, token: string): void {
  const lines = stdout.split('\n').filter((l) => l.includes(token));
  assert.ok(lines.length >= 1, 'the token is masked');
  for (const line of lines) assert.equal(line, `::add-mask::${token}`);
}

interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly outputs: Record<string, string>;
}

/** Runs the shell client as a step would: bash, a GITHUB_OUTPUT file, the runner's variables. */
async function runScript(env: Record<string, string | undefined>, path = process.env.PATH ?? ''): Promise<ScriptRun> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sh-'));
  try {
    const output = join(dir, 'output');
    writeFileSync(output, '');
    const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const result = await runToEnd(BASH, [SCRIPT], { env: { PATH: path, GITHUB_OUTPUT: output, TMPDIR: dir, ...clean }, cwd: dir });
    return { code: result.code, stdout: result.stdout + result.stderr, outputs: parseOutputFile(readFileSync(output, 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PATH holding only the named tools (to run the client on a runner that lacks one). */
function pathWith(tools: string[]): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-path-'));
  for (const tool of tools) symlinkSync(which(tool)!, join(dir, tool));
  return { path: dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('request-token clients as child processes (bundle and shell script) against real brokers', function () {
  let h: BrokerHarness;
  let minimal: Listening;
  let runnerEnv: Record<string, string>;

  before(function () {
    if (!which('curl') || !which('jq')) this.skip();
  });

  beforeEach(async () => {
    h = await startBroker();
    minimal = await listen(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'test' }));
    runnerEnv = {
      ACTIONS_ID_TOKEN_REQUEST_URL: h.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: h.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_RUN_ID: '7',
      GITHUB_API_URL: h.github.apiBase,
    };
  });
  afterEach(async () => {
    await minimal.close();
    await h.close();
  });

  describe('the bundle (dist/request-token)', () => {
    it('gets a token from the main broker, masks it, saves it for the post step, which revokes it', async () => {
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url }, runnerEnv);
      assert.equal(run.code, 0, run.stderr);
      const token = run.outputs.token!;
      assert.match(token, /^ghs_/);
      assert.equal(run.outputs.repository, 'octo-org/octo-repo');
      onlyMasked(run.stdout, token);
      assert.ok(!run.stdout.includes('::warning::'));
      assert.equal(run.state.token, token);

      const post = await runAction(POST_BUNDLE, {}, { ...runnerEnv, STATE_token: token, 'STATE_expires-at': run.state['expires-at']! });
      assert.equal(post.code, 0, post.stderr);
      assert.match(post.stdout, /token revoked/);
      assert.ok(h.github.revoked.has(token));
      assert.ok(!post.stdout.includes(token));
    });

    it('permission-<name> inputs narrow the token; the permissions output says what it carries', async () => {
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, 'permission-contents': 'read', revoke: 'false' }, runnerEnv);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.outputs.permissions, '{"contents":"read"}');
      assert.deepEqual(h.github.grantOf(run.outputs.token!)?.permissions, { contents: 'read' });
    });

    it('gets a token from the minimal broker', async () => {
      const run = await runAction(BUNDLE, { 'broker-url': minimal.url }, runnerEnv);
      assert.match(run.outputs.token!, /^ghs_/);
      onlyMasked(run.stdout, run.outputs.token!);
    });

    it('fail-soft: exit 0, one warning, empty outputs (a closed port; no OIDC variables; a 403)', async () => {
      const port = await closedPort();
      const cases: [Record<string, string>, Record<string, string>, string][] = [
        [{ 'broker-url': `http://127.0.0.1:${port}` }, runnerEnv, 'broker unreachable'],
        [{ 'broker-url': h.backend.url }, { GITHUB_REPOSITORY: 'octo-org/octo-repo' }, "missing 'id-token: write'"],
        [{ 'broker-url': h.backend.url }, { ...runnerEnv, GITHUB_REPOSITORY: 'nope' }, 'bad GITHUB_REPOSITORY'],
      ];
      for (const [inputs, env, reason] of cases) {
        const run = await runAction(BUNDLE, inputs, env);
        assert.equal(run.code, 0);
        assert.deepEqual(run.stdout.split('\n').filter((l) => l.startsWith('::warning::')), [WARNING(reason)]);
        assert.equal(run.outputs.token, '');
      }
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/other';
      const refused = await runAction(BUNDLE, { 'broker-url': h.backend.url }, runnerEnv);
      assert.deepEqual(warnings(refused.stdout), [WARNING('broker HTTP 403'), '::warning::broker said: repo_not_allowed']);
    });

    it('broker-url omitted: there is no default broker, so nothing is called; the step warns "broker disabled" and says how to set it', async () => {
      const run = await runAction(BUNDLE, {}, runnerEnv);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(warnings(run.stdout), [WARNING('broker disabled')]);
      assert.match(run.stdout, /^::notice::Gatehouse token: broker-url is empty, so no token was requested/m);
      assert.equal(h.issuer.runnerTokenRequests, 0);
      assert.equal(run.outputs.token, '');
    });

    it('a 401 is actionable: the second warning line gives the broker’s error and reason', async () => {
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, audience: 'someone-elses-broker' }, runnerEnv);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(warnings(run.stdout), [WARNING('broker HTTP 401'), '::warning::broker said: invalid_oidc_token (audience_mismatch)']);
    });

    it('fail-on-error: true fails the step (exit 1) with the same reason; outputs empty', async () => {
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/other';
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, 'fail-on-error': 'true' }, runnerEnv);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /^::error::Gatehouse token unavailable \(broker HTTP 403\); the step fails because fail-on-error is true$/m);
      assert.deepEqual(warnings(run.stdout), ['::warning::broker said: repo_not_allowed']);
      assert.deepEqual(run.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
    });

    it('a bad boolean input fails the step and asks for no token', async () => {
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, revoke: 'no' }, runnerEnv);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /^::error::Gatehouse token: input "revoke" must be true or false/m);
      assert.equal(h.issuer.runnerTokenRequests, 0);
    });
  });

  describe('what both clients print of a refusal (the same lines)', () => {
    let broker: Listening;
    let refusal: (typeof REFUSALS)[number];
    beforeEach(async () => {
      broker = await listen(async (req, res) => {
        const { oidcToken } = JSON.parse(await readBody(req)) as { oidcToken: string };
        res.writeHead(refusal.status, { 'content-type': 'application/json' }).end(refusal.body(oidcToken));
      });
    });
    afterEach(() => broker.close());

    for (const [i, r] of REFUSALS.entries()) {
      it(`refusal ${i + 1} (HTTP ${r.status}): ${r.said === undefined ? 'no second line' : JSON.stringify(r.said)}`, async () => {
        refusal = r;
        const expected = [WARNING(`broker HTTP ${r.status}`), ...(r.said === undefined ? [] : [`::warning::broker said: ${r.said}`])];
        const bundle = await runAction(BUNDLE, { 'broker-url': broker.url }, runnerEnv);
        const bundleToken = h.issuer.lastRunnerToken!;
        const script = await runScript({ ...runnerEnv, BROKER_URL: broker.url });
        const scriptToken = h.issuer.lastRunnerToken!;
        assert.deepEqual(warnings(bundle.stdout), expected, bundle.stdout);
        assert.deepEqual(warnings(script.stdout), expected, script.stdout);
        for (const [out, token] of [[bundle.stdout, bundleToken], [script.stdout, scriptToken]] as const) {
          assert.ok(!out.replace(/^::add-mask::.*$/gm, '').includes(token), 'the OIDC token only appears masked');
          assert.ok(!out.includes('ghs_16C7e42F'), 'a token the broker sent is never printed');
          assert.ok(!/^::error::/m.test(out), 'no forged workflow command');
        }
      });
    }
  });

  describe('the shell client (request-token.sh)', () => {
    it('gets a token from the main broker and from the minimal broker; the token only ever appears masked', async () => {
      for (const url of [h.backend.url, minimal.url]) {
        const run = await runScript({ ...runnerEnv, BROKER_URL: url });
        assert.equal(run.code, 0, run.stdout);
        const token = run.outputs.token!;
        assert.match(token, /^ghs_/, run.stdout);
        assert.equal(run.outputs.repository, 'octo-org/octo-repo');
        assert.match(run.outputs['expires-at']!, /Z$/);
        onlyMasked(run.stdout, token);
        assert.ok(run.stdout.includes(`::add-mask::${h.issuer.lastRunnerToken}`), 'the OIDC token is masked too');
        assert.ok(!run.stdout.includes('::warning::'));
      }
    });

    const reasons: [string, () => Promise<Record<string, string | undefined>>][] = [
      ['broker disabled', async () => ({ ...runnerEnv, BROKER_URL: '' })],
      // No default broker: unset is a mistake, told apart from the intentional ''.
      ['broker URL not set', async () => ({ ...runnerEnv })],
      ["missing 'id-token: write'", async () => ({ GITHUB_REPOSITORY: 'octo-org/octo-repo', BROKER_URL: h.backend.url })],
      ['bad GITHUB_REPOSITORY', async () => ({ ...runnerEnv, GITHUB_REPOSITORY: 'octo-org/octo-repo/x', BROKER_URL: h.backend.url })],
      ['OIDC request failed', async () => ({ ...runnerEnv, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'wrong', BROKER_URL: h.backend.url })],
      ['OIDC request failed', async () => ({ ...runnerEnv, ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${await closedPort()}/t?a=1`, BROKER_URL: h.backend.url })],
      ['broker unreachable', async () => ({ ...runnerEnv, BROKER_URL: `http://127.0.0.1:${await closedPort()}` })],
    ];
    for (const [reason, env] of reasons) {
      it(`${reason}: exit 0, one warning line, empty outputs`, async () => {
        const run = await runScript(await env());
        assert.equal(run.code, 0);
        assert.deepEqual(run.stdout.split('\n').filter((l) => l.includes('::warning::')), [WARNING(reason)]);
        assert.deepEqual(run.outputs, { token: '', 'expires-at': '', repository: '' });
      });
    }

    it('curl or jq not installed on this runner', async () => {
      for (const [tools, reason] of [
        [['jq'], 'curl not installed on this runner'],
        [['curl'], 'jq not installed on this runner'],
      ] as const) {
        const bin = pathWith([...tools]);
        try {
          const run = await runScript({ ...runnerEnv, BROKER_URL: h.backend.url }, bin.path);
          assert.equal(run.code, 0);
          assert.deepEqual(run.stdout.trim().split('\n'), [WARNING(reason)]);
          assert.equal(run.outputs.token, '');
        } finally {
          bin.cleanup();
        }
      }
    });

    it('OIDC token missing, broker HTTP 403, broker returned no token', async () => {
      const runner = await listen((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"count":0}'));
      const empty = await listen((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"repository":"x"}'));
      try {
        const missing = await runScript({ ...runnerEnv, ACTIONS_ID_TOKEN_REQUEST_URL: `${runner.url}/t?a=1`, BROKER_URL: h.backend.url });
        assert.ok(missing.stdout.includes(WARNING('OIDC token missing')));
        const noToken = await runScript({ ...runnerEnv, BROKER_URL: empty.url });
        assert.ok(noToken.stdout.includes(WARNING('broker returned no token')));
        h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/other';
        const refused = await runScript({ ...runnerEnv, BROKER_URL: h.backend.url });
        assert.deepEqual(warnings(refused.stdout), [WARNING('broker HTTP 403'), '::warning::broker said: repo_not_allowed'], refused.stdout);
        assert.equal(refused.code, 0);
        const audience = await runScript({ ...runnerEnv, BROKER_URL: h.backend.url, AUDIENCE: 'someone-elses-broker' });
        assert.deepEqual(warnings(audience.stdout), [WARNING('broker HTTP 401'), '::warning::broker said: invalid_oidc_token (audience_mismatch)'], audience.stdout);
      } finally {
        await runner.close();
        await empty.close();
      }
    });

    it('the fallback is tried when the primary is unreachable, not when it answers', async () => {
      const viaFallback = await runScript({ ...runnerEnv, BROKER_URL: `http://127.0.0.1:${await closedPort()}`, FALLBACK_URL: h.backend.url });
      assert.match(viaFallback.outputs.token!, /^ghs_/, viaFallback.stdout);
      let fallbackCalls = 0;
      const fallback = await listen((_req, res) => {
        fallbackCalls++;
        res.writeHead(500).end();
      });
      const answering = await listen((_req, res) => void res.writeHead(502, { 'content-type': 'application/json' }).end('{}'));
      try {
        const run = await runScript({ ...runnerEnv, BROKER_URL: answering.url, FALLBACK_URL: fallback.url });
        assert.ok(run.stdout.includes(WARNING('broker HTTP 502')));
        assert.equal(fallbackCalls, 0);
      } finally {
        await fallback.close();
        await answering.close();
      }
    });

    for (const stall of STALLS) {
      it(`a broker that ${stall === 'silent' ? 'never answers' : 'stalls its body'}: "broker unreachable" within BROKER_TIMEOUT`, async () => {
        const peer = await stallingPeer(stall);
        try {
          const started = Date.now();
          const run = await runScript({ ...runnerEnv, BROKER_URL: peer.url, BROKER_TIMEOUT: '1' });
          assert.equal(run.code, 0);
          assert.deepEqual(run.stdout.split('\n').filter((l) => l.startsWith('::warning::')), [WARNING('broker unreachable')]);
          assert.ok(Date.now() - started < 1000 + 2000, `ended after ${Date.now() - started} ms`);
        } finally {
          await peer.close();
        }
      });
    }

    it('a runner OIDC endpoint that never answers: "OIDC request failed" within its 10 s bound', async () => {
      const peer = await stallingPeer('silent');
      try {
        const started = Date.now();
        const run = await runScript({ ...runnerEnv, ACTIONS_ID_TOKEN_REQUEST_URL: `${peer.url}/token?api-version=2.0`, BROKER_URL: h.backend.url });
        assert.deepEqual(run.stdout.split('\n').filter((l) => l.startsWith('::warning::')), [WARNING('OIDC request failed')]);
        const ms = Date.now() - started;
        assert.ok(ms >= 10_000 - 500 && ms < 10_000 + 2000, `ended after ${ms} ms`);
      } finally {
        await peer.close();
      }
    }).timeout(20_000);

    it('is clean under shellcheck', async function () {
      const shellcheck = which('shellcheck');
      // .ci/run installs shellcheck; a development machine without it reports this as skipped.
      if (!shellcheck) this.skip();
      const result = await runToEnd(shellcheck, ['--severity=style', SCRIPT]);
      assert.equal(result.code, 0, result.stdout + result.stderr);
    });
  });

  describe('a broker answer naming a repository other than the one asked is refused, not handed out (both clients)', () => {
    /** The real broker's answer, its `repository` replaced: what a confused or hijacked broker would say. */
    const naming = (repository: string) => forwardingPeer(h.backend.url, (body) => body.replace('"repository":"octo-org/octo-repo"', `"repository":${JSON.stringify(repository)}`));
    const mintedBy = (peer: { answers: string[] }) => (JSON.parse(peer.answers[0]!) as { token: string }).token;

    it('the bundle: "broker returned another repository", outputs empty, nothing saved for the post step, the token revoked; another case of the same name is the same repository', async () => {
      const other = await naming('octo-org/other-repo');
      const cased = await naming('Octo-Org/Octo-Repo');
      try {
        const run = await runAction(BUNDLE, { 'broker-url': other.url }, runnerEnv);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(warnings(run.stdout), [WARNING('broker returned another repository')]);
        assert.deepEqual(run.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
        assert.equal(run.state.token, undefined);
        const minted = mintedBy(other);
        onlyMasked(run.stdout, minted);
        assert.ok(h.github.revoked.has(minted), 'the refused token is revoked');
        assert.match(run.stdout, /names octo-org\/other-repo, not octo-org\/octo-repo; its token was revoked/);

        const failing = await runAction(BUNDLE, { 'broker-url': other.url, 'fail-on-error': 'true' }, runnerEnv);
        assert.equal(failing.code, 1);
        assert.match(failing.stdout, /^::error::Gatehouse token unavailable \(broker returned another repository\); the step fails because fail-on-error is true$/m);

        const same = await runAction(BUNDLE, { 'broker-url': cased.url }, runnerEnv);
        assert.equal(same.code, 0, same.stderr);
        assert.deepEqual(warnings(same.stdout), []);
        assert.match(same.outputs.token!, /^ghs_/);
        assert.equal(same.outputs.repository, 'Octo-Org/Octo-Repo');
      } finally {
        await other.close();
        await cased.close();
      }
    });

    it('the shell client: the same warning, outputs empty; another case of the same name is the same repository', async () => {
      const other = await naming('octo-org/other-repo');
      const cased = await naming('Octo-Org/Octo-Repo');
      try {
        const run = await runScript({ ...runnerEnv, BROKER_URL: other.url });
        assert.equal(run.code, 0);
        assert.deepEqual(warnings(run.stdout), [WARNING('broker returned another repository')]);
        assert.deepEqual(run.outputs, { token: '', 'expires-at': '', repository: '' });
        onlyMasked(run.stdout, mintedBy(other));

        const same = await runScript({ ...runnerEnv, BROKER_URL: cased.url });
        assert.deepEqual(warnings(same.stdout), []);
        assert.match(same.outputs.token!, /^ghs_/);
      } finally {
        await other.close();
        await cased.close();
      }
    });
  });
});
