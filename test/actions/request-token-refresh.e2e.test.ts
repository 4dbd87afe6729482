import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { INSTALLATION_ID, REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { forwardingPeer, type ForwardingPeer } from '../support/forwarding-peer.js';
import { gitHttpServer, type GitHttpServer } from '../support/git-http-server.js';
import { REPO_ROOT } from '../support/processes.js';
import { listen, type Listening } from '../support/servers.js';
import { runAction, type ActionRun } from '../support/runner.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'request-token', 'index.js');
const POST_BUNDLE = join(REPO_ROOT, 'dist', 'request-token', 'post', 'index.js');
/** Just over the 10 minutes a handed-out token must have left: it falls within them seconds after the mint. */
const SHORT_LIFE_MS = 10 * 60_000 + 6000;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command as a later step would: its own environment, `stdin` written and closed. */
function step(command: string, args: string[], env: Record<string, string>, stdin = '', cwd?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, ...(cwd ? { cwd } : {}), stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    // A command that exits without reading its input closes the pipe: not the test's failure.
    child.stdin?.on('error', () => {});
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(stdin);
  });
}

/** The shell word list of a token-command (single-quoted words, as the step writes them). */
const words = (command: string): string[] => [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/'\\''/g, "'"));

/** The passing of time, without waiting for it: the held token has 5 minutes left, so the next ask mints. */
const nearExpiry = (run: ActionRun) => {
  const file = join(run.state['refresh-folder']!, 'tokens.json');
  const held = JSON.parse(readFileSync(file, 'utf8')) as { token: string; expiresAtMs: number }[];
  writeFileSync(file, JSON.stringify(held.map((t) => ({ ...t, expiresAtMs: Date.now() + 5 * 60_000 }))));
};

/** What a failed refresh may print on stderr: its lines but the ::add-mask:: ones for what it did get (an OIDC token). */
const onlyReason = (stderr: string) => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('::add-mask::'));

/** The tokens in a broker's answers (as a peer in front of it saw them). */
const tokensIn = (peer: ForwardingPeer): string[] => peer.answers.map((body) => (JSON.parse(body) as { token?: string }).token).filter((t): t is string => typeof t === 'string');

/** A `git` on PATH before the real one: `script` (sh) runs first, then the real git with the same arguments. */
function gitWrapper(dir: string, script: string): string {
  const bin = join(dir, 'wrapped-git');
  mkdirSync(bin, { recursive: true });
  const real = process.env.PATH!.split(':').map((d) => join(d, 'git')).find((file) => existsSync(file))!;
  writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

describe('request-token refresh: tokens for jobs longer than the hour (bundle, real git)', function () {
  this.timeout(60_000);
  let h: BrokerHarness;
  let dir: string;
  let home: string;
  let runnerTemp: string;
  let serverUrl: string;
  let runnerEnv: Record<string, string>;

  /** A later step's environment: the runner's variables, no INPUT_*, git's global config in the test's HOME. */
  const later = (extra: Record<string, string> = {}): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    ...runnerEnv,
    ...extra,
  });

  const fill = (env = later()) => {
    const { host, protocol } = new URL(serverUrl);
    return step('git', ['credential', 'fill'], env, `protocol=${protocol.slice(0, -1)}\nhost=${host}\npath=octo-org/octo-repo.git\n\n`);
  };
  const passwordOf = (ran: Ran) => /^password=(.+)$/m.exec(ran.stdout)?.[1];

  async function runStep(inputs: Record<string, string> = {}): Promise<ActionRun> {
    const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true', ...inputs }, later());
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stdout.includes('::warning::'), run.stdout);
    return run;
  }

  const post = (run: ActionRun) =>
    runAction(POST_BUNDLE, {}, { ...later(), ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v])) });

  /** Waits until a token expiring at `expiresAt` has less than 10 minutes left. */
  const untilWithinMargin = async (expiresAt: string) => {
    const wait = Date.parse(expiresAt) - 10 * 60_000 - Date.now() + 250;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };

  /** As GitHub answers git: a token that works now, for a repository it was minted for (the path's `<owner>/<name>[.git]`). */
  const validFor = async (token: string, path: string): Promise<boolean> => {
    const answer = await fetch(`${h.github.apiBase}/installation/repositories`, { headers: { authorization: `Bearer ${token}` } });
    if (answer.status !== 200) return false;
    const { repositories } = (await answer.json()) as { repositories: { full_name: string }[] };
    const asked = /^\/([^/]+\/[^/]+?)(?:\.git)?(?:\/|$)/.exec(path)?.[1]?.toLowerCase();
    return repositories.some((r) => r.full_name.toLowerCase() === asked);
  };

  /** A bare repository `<root>/<owner>/<name>.git`, as git http-backend serves it under that path. */
  const bareRepository = (root: string, fullName: string) => step('git', ['init', '--quiet', '--bare', join(root, `${fullName}.git`)], later());

  beforeEach(async () => {
    h = await startBroker();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-refresh-'));
    home = join(dir, 'home');
    runnerTemp = join(dir, 'runner-temp');
    mkdirSync(home);
    mkdirSync(runnerTemp);
    serverUrl = 'http://127.0.0.1:1';
    runnerEnv = {
      ACTIONS_ID_TOKEN_REQUEST_URL: h.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: h.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_RUN_ID: '7',
      GITHUB_API_URL: h.github.apiBase,
      GITHUB_SERVER_URL: serverUrl,
      RUNNER_TEMP: runnerTemp,
    };
  });
  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('git credential fill across the 10-minute margin: the cached token, then a new one minted with a new OIDC token; the post step revokes both and removes the helper', async () => {
    h.github.nextTokenLifetimesMs.push(SHORT_LIFE_MS);
    const run = await runStep();
    const first = run.outputs.token!;
    assert.match(first, /^ghs_/);
    // One entry in the global configuration: an include of the job's own file, which sets the helper for the job's repository.
    const global = readFileSync(join(home, '.gitconfig'), 'utf8');
    const included = /\[include\]\s+path = (.+)/.exec(global)?.[1];
    assert.ok(included?.startsWith(run.state['refresh-folder']!), global);
    const helperConfig = readFileSync(included!, 'utf8');
    for (const url of [`${serverUrl}/octo-org/octo-repo`, `${serverUrl}/octo-org/octo-repo.git`]) {
      assert.match(helperConfig, new RegExp(`\\[credential "${url.replace(/[.]/g, '\\.')}"\\]\\s+helper = .+\\s+useHttpPath = true`));
    }
    for (const text of [global, helperConfig]) assert.ok(!text.includes(first), 'the token is not in the git configuration');

    const oidcBefore = h.issuer.runnerTokenRequests;
    const one = await fill();
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /^username=x-access-token$/m);
    assert.equal(passwordOf(one), first);
    assert.equal(one.stderr, '', 'a held token is printed without a word');
    assert.equal(h.issuer.runnerTokenRequests, oidcBefore, 'no new OIDC token while the first token has 10 minutes left');

    await untilWithinMargin(run.outputs['expires-at']!);
    const two = await fill();
    assert.equal(two.code, 0, two.stderr);
    const second = passwordOf(two)!;
    assert.match(second, /^ghs_/);
    assert.notEqual(second, first);
    assert.equal(h.issuer.runnerTokenRequests, oidcBefore + 1, 'the refresh asked the runner for a new OIDC token');
    // Masked before it is printed: its ::add-mask:: line on stderr, the only other place it appears.
    const stderrLines = two.stderr.split('\n').filter((l) => l !== '');
    assert.ok(stderrLines.every((l) => l.startsWith('::add-mask::')), two.stderr);
    assert.ok(stderrLines.includes(`::add-mask::${second}`));

    // The command line: the same token (still 10 minutes and more), alone on stdout.
    const command = words(run.outputs['token-command']!);
    const printed = await step(command[0]!, command.slice(1), later());
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, `${second}\n`);

    const done = await post(run);
    assert.equal(done.code, 0, done.stderr);
    assert.ok(h.github.revoked.has(first) && h.github.revoked.has(second), done.stdout);
    assert.ok(!done.stdout.includes(first) && !done.stdout.includes(second));
    assert.ok(!readFileSync(join(home, '.gitconfig'), 'utf8').includes('include'), 'the helper entry is gone');
    assert.ok(!existsSync(run.state['refresh-folder']!), 'the refresh folder is gone');
  });

  it('a real git push over HTTP succeeds after the first token has expired', async () => {
    const repos = join(dir, 'repos');
    await bareRepository(repos, REPO);
    const server: GitHttpServer = await gitHttpServer(repos, validFor);
    try {
      serverUrl = server.url;
      runnerEnv.GITHUB_SERVER_URL = serverUrl;
      h.github.nextTokenLifetimesMs.push(SHORT_LIFE_MS);
      const run = await runStep();
      const first = run.outputs.token!;

      const work = join(dir, 'work');
      const env = later({ GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' });
      await step('git', ['init', '--quiet', '--initial-branch=main', work], env);
      writeFileSync(join(work, 'a.txt'), 'one\n');
      await step('git', ['add', 'a.txt'], env, '', work);
      await step('git', ['commit', '--quiet', '-m', 'one'], env, '', work);

      await untilWithinMargin(run.outputs['expires-at']!);
      h.github.expire(first);
      assert.equal(await validFor(first, `/${REPO}.git`), false, 'the first token no longer works');
      const pushed = await step('git', ['push', `${server.url}/${REPO}.git`, 'main'], env, '', work);
      assert.equal(pushed.code, 0, pushed.stderr);
      const used = server.accepted.at(-1)!;
      assert.notEqual(used, first);
      assert.equal(await validFor(used, `/${REPO}.git`), true);
      const remote = await step('git', ['--git-dir', join(repos, `${REPO}.git`), 'log', '--format=%s', 'main'], env);
      assert.equal(remote.stdout.trim(), 'one');
      assert.ok(!pushed.stdout.includes(used) && !pushed.stderr.replace(`::add-mask::${used}`, '').includes(used));
      await post(run);
    } finally {
      await server.close();
    }
  });

  it("warns once of actions/checkout's persisted token; gives no token for another host; with revoke: false the post step revokes nothing and still removes the helper", async () => {
    const workspace = join(dir, 'workspace');
    await step('git', ['init', '--quiet', workspace], later());
    // What actions/checkout leaves with persist-credentials: true: v6 and later keep the header in a
    // file under RUNNER_TEMP, included through includeIf.gitdir:<the repository's .git>.
    writeFileSync(join(dir, 'checkout-credentials.config'), `[http "${serverUrl}/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3h4eA==\n`);
    await step('git', ['-C', workspace, 'config', '--local', `includeIf.gitdir:${workspace}/.git.path`, join(dir, 'checkout-credentials.config')], later());

    const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true', revoke: 'false' }, later({ GITHUB_WORKSPACE: workspace }));
    assert.equal(run.code, 0, run.stderr);
    const warnings = run.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
    assert.equal(warnings.length, 1, run.stdout);
    assert.match(warnings[0]!, /keeps a token from actions\/checkout \(http\..+\.extraheader\).*persist-credentials: false/);
    assert.ok(!warnings[0]!.includes('eC1hY2Nlc3MtdG9rZW46'), 'the persisted header value is not repeated');

    // The helper itself, asked (as a helper set for every host would be) about another host: nothing.
    const [node, script, , folder] = words(run.outputs['token-command']!);
    const other = await step(node!, [script!, 'credential', folder!, 'get'], later(), 'protocol=https\nhost=elsewhere.example.com\n\n');
    assert.equal(other.code, 0, other.stderr);
    assert.equal(other.stdout + other.stderr, '');

    const done = await post(run);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /no token to revoke/);
    assert.equal(h.github.revoked.size, 0);
    assert.ok(!readFileSync(join(home, '.gitconfig'), 'utf8').includes('include'));
  });

  it("the shell client's snippet in docs/request-token.md: a git credential helper that asks the broker with a new OIDC token each time", async function () {
    for (const tool of ['curl', 'jq']) if ((await step('bash', ['-c', `command -v ${tool}`], later())).code !== 0) this.skip();
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'request-token.md'), 'utf8');
    const snippet = /<!-- tested by test\/actions\/request-token-refresh\.e2e\.test\.ts[^>]*-->\n```bash\n([\s\S]*?)\n```/.exec(docs)?.[1];
    assert.ok(snippet, 'the tested snippet is in docs/request-token.md');
    const oneLiner = /Other tools get a token the same way: `GH_TOKEN="\$\((.+)\)"`/.exec(docs)?.[1];
    assert.ok(oneLiner, 'the one-line form is in docs/request-token.md');
    // The folder the step runs in, with the gatehouse repository checked out beside it as .gatehouse.
    const stepDir = join(dir, 'step');
    mkdirSync(stepDir);
    symlinkSync(REPO_ROOT, join(stepDir, '.gatehouse'));

    const setUp = await step('bash', ['-c', snippet], later({ BROKER_URL: h.backend.url }), '', stepDir);
    assert.equal(setUp.code, 0, setUp.stderr);
    const oidcBefore = h.issuer.runnerTokenRequests;
    const one = await fill();
    const two = await fill();
    assert.equal(one.code, 0, one.stderr);
    const [first, second] = [passwordOf(one), passwordOf(two)];
    assert.match(first ?? '', /^ghs_/);
    assert.match(second ?? '', /^ghs_/);
    assert.notEqual(first, second);
    assert.equal(h.issuer.runnerTokenRequests, oidcBefore + 2);
    assert.ok(one.stderr.includes(`::add-mask::${first}`), one.stderr);

    const printed = await step('bash', ['-c', oneLiner!], later());
    assert.match(printed.stdout, /^ghs_\w+\n?$/);
  });

  describe('a refresh that cannot get a token: nothing printed but the reason, git fails cleanly', () => {
    /** Loopback servers a case starts, closed after it. */
    const started: Listening[] = [];
    afterEach(async () => {
      await Promise.all(started.splice(0).map((server) => server.close()));
    });
    const serve = async (handler: Parameters<typeof listen>[0]) => {
      const server = await listen(handler);
      started.push(server);
      return server;
    };

    const cases: {
      name: string;
      reason: string;
      /** The broker the step asks, when not the real one. */
      broker?: () => Promise<string>;
      arrange: (run: ActionRun) => Promise<Record<string, string>>;
      /** git's helper went with the folder (its include file was in it): git asks nobody, so no reason line. */
      helperGone?: true;
    }[] = [
      {
        name: "a later step without the runner's OIDC variables",
        reason: "missing 'id-token: write'",
        arrange: async () => ({ ACTIONS_ID_TOKEN_REQUEST_URL: '', ACTIONS_ID_TOKEN_REQUEST_TOKEN: '' }),
      },
      { name: 'the runner refuses the OIDC request', reason: 'OIDC request failed', arrange: async () => ({ ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'not-the-runner-token' }) },
      {
        name: "the runner's answer has no token",
        reason: 'OIDC token missing',
        arrange: async () => {
          const runner = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"count":1}'));
          return { ACTIONS_ID_TOKEN_REQUEST_URL: `${runner.url}/_runner/id-token?api-version=2.0` };
        },
      },
      {
        name: 'a broker that answers 200 without a token',
        reason: 'broker returned no token',
        broker: async () => {
          let calls = 0;
          const broker = await serve((_req, res) => {
            const body = calls++ === 0 ? { token: 'ghs_0123456789abcdefghijklmnopqrstuv0123', expires_at: new Date(Date.now() + 3_600_000).toISOString() } : { expires_at: null };
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
          });
          return broker.url;
        },
        arrange: async () => ({}),
      },
      {
        name: 'the broker refuses (GitHub fails the mint)',
        reason: 'broker HTTP 502',
        arrange: async () => {
          h.github.inject('access_tokens', { status: 500, body: { message: 'Server Error' } }, 20);
          return {};
        },
      },
      {
        name: 'the broker is gone',
        reason: 'broker unreachable',
        arrange: async () => {
          await h.backend.close();
          return {};
        },
      },
      {
        name: 'the refresh folder was removed (the post step ran)',
        reason: 'refresh state missing',
        arrange: async (run) => {
          rmSync(run.state['refresh-folder']!, { recursive: true, force: true });
          return {};
        },
        helperGone: true,
      },
    ];

    for (const { name, reason, broker, arrange, helperGone } of cases) {
      it(`${name}: ${reason}`, async () => {
        const run = await runStep(broker ? { 'broker-url': await broker() } : {});
        const first = run.outputs.token!;
        if (existsSync(run.state['refresh-folder']!)) nearExpiry(run);
        const env = later(await arrange(run));

        const command = words(run.outputs['token-command']!);
        const printed = await step(command[0]!, command.slice(1), env);
        assert.equal(printed.code, 1);
        assert.equal(printed.stdout, '');
        assert.deepEqual(onlyReason(printed.stderr), [`Gatehouse token unavailable (${reason})`]);

        const filled = await fill(env);
        assert.notEqual(filled.code, 0, 'git fails as it would without a helper');
        assert.ok(!/password=/.test(filled.stdout), filled.stdout);
        const lines = onlyReason(filled.stderr);
        if (!helperGone) assert.equal(lines.shift(), `Gatehouse token unavailable (${reason})`);
        assert.ok(lines.length > 0 && lines.every((l) => l.startsWith('fatal: ')), filled.stderr);
        for (const text of [printed.stdout, printed.stderr, filled.stdout, filled.stderr]) assert.ok(!text.includes(first), 'the held token is never printed');
      });
    }
  });

  describe('the post step and a refresh at once: no token minted escapes revocation', () => {
    const peers: ForwardingPeer[] = [];
    afterEach(async () => {
      await Promise.all(peers.splice(0).map((peer) => peer.close()));
    });
    const peer = async (target: string) => {
      const started = await forwardingPeer(target);
      peers.push(started);
      return started;
    };

    it('a refresh minting when the post step starts: the post step waits for it, and revokes its token too', async () => {
      const broker = await peer(h.backend.url);
      const run = await runStep({ 'broker-url': broker.url });
      nearExpiry(run);
      const mint = broker.hold();
      const command = words(run.outputs['token-command']!);
      const refreshing = step(command[0]!, command.slice(1), later());
      await mint.arrived;
      const posting = post(run);
      // Let the mint through once the post step has ended, or after 1.5 s while it waits (as it must) for the mint.
      await Promise.race([posting, sleep(1500)]);
      mint.release();
      const [refreshed, done] = await Promise.all([refreshing, posting]);
      assert.equal(done.code, 0, done.stderr);
      const minted = tokensIn(broker);
      assert.equal(minted.length, 2, 'the step and the refresh each minted one');
      for (const token of minted) assert.ok(h.github.revoked.has(token), `every token minted is revoked (${refreshed.stderr})`);
      assert.ok(!existsSync(run.state['refresh-folder']!));
    });

    it('once the post step has begun, a refresh refuses before minting: refresh ended', async () => {
      const api = await peer(h.github.apiBase);
      const run = await runStep();
      const revoking = api.hold();
      const posting = runAction(POST_BUNDLE, {}, { ...later({ GITHUB_API_URL: api.url }), ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v])) });
      await revoking.arrived;
      const oidcBefore = h.issuer.runnerTokenRequests;
      const mintsBefore = h.github.count('access_tokens');
      try {
        nearExpiry(run);
        const command = words(run.outputs['token-command']!);
        const refused = await step(command[0]!, command.slice(1), later());
        assert.equal(refused.code, 1);
        assert.equal(refused.stdout, '');
        assert.deepEqual(onlyReason(refused.stderr), ['Gatehouse token unavailable (refresh ended)']);
        assert.equal(h.issuer.runnerTokenRequests, oidcBefore, 'no OIDC token asked for');
        assert.equal(h.github.count('access_tokens'), mintsBefore, 'nothing minted');
      } finally {
        revoking.release();
      }
      const done = await posting;
      assert.equal(done.code, 0, done.stderr);
      assert.ok(h.github.revoked.has(run.outputs.token!));
    });

    it('a refresh killed while it minted leaves its lock behind: the post step takes it over at once, its holder being gone', async () => {
      const broker = await peer(h.backend.url);
      const run = await runStep({ 'broker-url': broker.url });
      nearExpiry(run);
      const mint = broker.hold();
      const command = words(run.outputs['token-command']!);
      const refresh = spawn(command[0]!, command.slice(1), { env: later(), stdio: 'ignore' });
      const ended = new Promise((resolve) => refresh.on('close', resolve));
      await mint.arrived;
      refresh.kill('SIGKILL');
      await ended;
      assert.ok(existsSync(join(run.state['refresh-folder']!, 'lock')), 'the lock is left behind');
      const started = Date.now();
      // The mint stays held: its asker is gone.
      const done = await post(run);
      assert.equal(done.code, 0, done.stderr);
      assert.ok(Date.now() - started < 10_000, `the post step did not wait out the lock (${Date.now() - started} ms)`);
      assert.ok(h.github.revoked.has(run.outputs.token!));
      assert.ok(!existsSync(run.state['refresh-folder']!));
    });

    it('the folder deleted while a refresh mints (nothing waited for it): the refresh revokes the token it minted; refresh state missing', async () => {
      const broker = await peer(h.backend.url);
      const run = await runStep({ 'broker-url': broker.url });
      nearExpiry(run);
      const mint = broker.hold();
      const command = words(run.outputs['token-command']!);
      const refreshing = step(command[0]!, command.slice(1), later());
      await mint.arrived;
      rmSync(run.state['refresh-folder']!, { recursive: true, force: true });
      mint.release();
      const refreshed = await refreshing;
      assert.equal(refreshed.code, 1);
      assert.equal(refreshed.stdout, '');
      assert.deepEqual(onlyReason(refreshed.stderr), ['Gatehouse token unavailable (refresh state missing)']);
      const minted = tokensIn(broker);
      assert.equal(minted.length, 2);
      assert.ok(h.github.revoked.has(minted[1]!), 'the refresh revoked what it minted');
    });
  });

  describe('the post step cannot edit the global git configuration: it says so, and git is bounded', () => {
    const includeEntries = () => (existsSync(join(home, '.gitconfig')) ? readFileSync(join(home, '.gitconfig'), 'utf8').match(/^\s*path = .*$/gm) ?? [] : []);

    it('a held ~/.gitconfig.lock: a warning names the entry and the command that removes it; the entry left gives git nothing', async () => {
      const run = await runStep();
      assert.equal(includeEntries().length, 1);
      writeFileSync(join(home, '.gitconfig.lock'), '');
      let done: ActionRun;
      try {
        done = await post(run);
      } finally {
        rmSync(join(home, '.gitconfig.lock'));
      }
      assert.equal(done.code, 0, done.stderr);
      const warned = done.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
      assert.equal(warned.length, 1, done.stdout);
      const include = join(run.state['refresh-folder']!, 'git-credentials.config');
      assert.ok(warned[0]!.includes(`include.path=${include}`), warned[0]);
      assert.match(warned[0]!, /could not lock config file/);
      const removal = /remove the entry with: (git config .+)$/.exec(warned[0]!)?.[1];
      assert.ok(removal, warned[0]);
      assert.equal(includeEntries().length, 1, 'the entry is still there');

      const filled = await fill();
      assert.ok(!/password=/.test(filled.stdout), 'the entry left gives git nothing: its file went with the folder');
      const removed = await step('sh', ['-c', removal!], later());
      assert.equal(removed.code, 0, removed.stderr);
      assert.deepEqual(includeEntries(), [], 'the command the warning gives removes it');
    });

    it('a git older than 2.30 (no --fixed-value): the entry is still removed', async () => {
      const bin = gitWrapper(dir, `for a in "$@"; do [ "$a" = --fixed-value ] && { echo "error: unknown option \\\`fixed-value'" >&2; exit 129; }; done`);
      const oldGit = { PATH: `${bin}:${process.env.PATH ?? ''}` };
      const run = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true' }, later(oldGit));
      assert.equal(run.code, 0, run.stderr);
      assert.notEqual(readFileSync(join(home, '.gitconfig'), 'utf8').trim(), '', 'the step added its entry');
      const done = await runAction(POST_BUNDLE, {}, { ...later(oldGit), ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v])) });
      assert.equal(done.code, 0, done.stderr);
      assert.ok(!done.stdout.includes('::warning::'), done.stdout);
      assert.deepEqual(includeEntries(), []);
      assert.ok(readFileSync(join(home, '.gitconfig'), 'utf8').trim() === '', 'nothing of the job is left');
    });

    it('a git that never finishes: the post step gives up after its bound and warns', async function () {
      this.timeout(45_000);
      const run = await runStep();
      const bin = gitWrapper(dir, `case " $* " in *" --unset-all "*) exec sleep 120 ;; esac`);
      const started = Date.now();
      const done = await runAction(POST_BUNDLE, {}, { ...later({ PATH: `${bin}:${process.env.PATH ?? ''}` }), ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v])) });
      assert.equal(done.code, 0, done.stderr);
      assert.ok(Date.now() - started < 25_000, 'bounded');
      const warned = done.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
      assert.equal(warned.length, 1, done.stdout);
      assert.match(warned[0]!, /include\.path=.*\(git did not finish within 10 s\).*remove the entry with: git config --global --unset-all include\.path '/);
      assert.ok(h.github.revoked.has(run.outputs.token!), 'the token was revoked first');
    });
  });

  it('jobs under one OS user (one HOME, a RUNNER_TEMP each; two repositories, and a matrix sibling): each git gets its own job token for its own repository, and nothing else', async () => {
    const OTHER = 'octo-org/other-repo';
    h.github.addRepo(OTHER, 55555, INSTALLATION_ID);
    const repos = join(dir, 'repos');
    await bareRepository(repos, REPO);
    await bareRepository(repos, OTHER);
    const server = await gitHttpServer(repos, validFor);
    try {
      serverUrl = server.url;
      runnerEnv.GITHUB_SERVER_URL = serverUrl;
      const jobA = later({ RUNNER_TEMP: join(dir, 'temp-a') });
      const jobB = later({ RUNNER_TEMP: join(dir, 'temp-b'), GITHUB_REPOSITORY: OTHER, GITHUB_RUN_ID: '8' });
      mkdirSync(jobA.RUNNER_TEMP!);
      mkdirSync(jobB.RUNNER_TEMP!);
      const runA = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true' }, jobA);
      h.issuer.runnerClaims = { repository: OTHER, repository_id: '55555' };
      const runB = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true' }, jobB);
      const [tokenA, tokenB] = [runA.outputs.token!, runB.outputs.token!];
      assert.match(tokenA, /^ghs_/, runA.stdout);
      assert.match(tokenB, /^ghs_/, runB.stdout);

      // Job A set its helper first, so git asks it first in job B too: it must stay silent there.
      const lsRemote = (env: Record<string, string>, fullName: string) => step('git', ['ls-remote', `${server.url}/${fullName}.git`], env);
      const accepted = () => server.accepted.length;
      /** The tokens git's requests since `from` were let through with (ls-remote makes more than one). */
      const usedSince = (from: number) => [...new Set(server.accepted.slice(from))];
      let before = accepted();
      const ownB = await lsRemote(jobB, OTHER);
      assert.equal(ownB.code, 0, ownB.stderr);
      assert.deepEqual(usedSince(before), [tokenB], "job B's git used job B's token");

      before = accepted();
      const crossing = await lsRemote(jobB, REPO);
      assert.notEqual(crossing.code, 0, "job B's git gets no token for job A's repository");
      assert.equal(accepted(), before);
      assert.ok(!`${crossing.stdout}${crossing.stderr}`.includes(tokenA));

      before = accepted();
      const ownA = await lsRemote(jobA, REPO);
      assert.equal(ownA.code, 0, ownA.stderr);
      assert.deepEqual(usedSince(before), [tokenA]);

      // A matrix sibling: job C, job A's repository, its own RUNNER_TEMP. A's helper is asked first and stays silent.
      h.issuer.runnerClaims = {};
      const jobC = later({ RUNNER_TEMP: join(dir, 'temp-c'), GITHUB_RUN_ID: '9' });
      mkdirSync(jobC.RUNNER_TEMP!);
      const runC = await runAction(BUNDLE, { 'broker-url': h.backend.url, refresh: 'true' }, jobC);
      const tokenC = runC.outputs.token!;
      before = accepted();
      const ownC = await lsRemote(jobC, REPO);
      assert.equal(ownC.code, 0, ownC.stderr);
      assert.deepEqual(usedSince(before), [tokenC], "job C's git used job C's token, not job A's");

      // A request without a path (a tool asking for the host alone) is answered by neither helper.
      const { host } = new URL(serverUrl);
      for (const env of [jobA, jobB]) {
        const hostOnly = await step('git', ['credential', 'fill'], env, `protocol=http\nhost=${host}\n\n`);
        assert.ok(!/password=/.test(hostOnly.stdout), hostOnly.stdout);
      }
      // Job A's own helper, run by hand in job B's environment: nothing, not even a reason line.
      const [node, script, , folderA] = words(runA.outputs['token-command']!);
      const direct = await step(node!, [script!, 'credential', folderA!, 'get'], jobB, `protocol=http\nhost=${host}\npath=${REPO}.git\n\n`);
      assert.equal(direct.code, 0);
      assert.equal(direct.stdout + direct.stderr, '');

      for (const [run, env] of [[runA, jobA], [runB, jobB], [runC, jobC]] as const) {
        const done = await runAction(POST_BUNDLE, {}, { ...env, ...Object.fromEntries(Object.entries(run.state).map(([k, v]) => [`STATE_${k}`, v])) });
        assert.equal(done.code, 0, done.stderr);
      }
      assert.ok([tokenA, tokenB, tokenC].every((token) => h.github.revoked.has(token)));
      assert.ok(!readFileSync(join(home, '.gitconfig'), 'utf8').includes('include'));
    } finally {
      await server.close();
    }
  });
});
