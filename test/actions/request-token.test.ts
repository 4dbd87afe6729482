import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { actionHttp } from '../../actions/shared/http.js';
import { HIDDEN, peerText } from '../../actions/shared/peer-text.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { PERMISSION_INPUTS } from '../../actions/request-token/permission-inputs.js';
import { revoke } from '../../actions/request-token/revoke.js';
import { REPOSITORY_PERMISSIONS } from '../../server/platform/permission-vocabulary.js';
import { run } from '../../actions/request-token/run.js';
import type { StatefulCore } from '../../actions/shared/core.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { capturedLogger } from '../support/log-capture.js';
import { RecordingCore } from '../support/runner.js';
import { REPO_ROOT } from '../support/processes.js';
import { closedPort, listen, readBody, type Listening } from '../support/servers.js';

/** RecordingCore plus state, and one ordered event list (to check that masking comes first). */
class TokenRecordingCore extends RecordingCore implements StatefulCore {
  readonly state: Record<string, string> = {};
  readonly events: string[] = [];

  constructor(inputs: Record<string, string>) {
    // The action.yml defaults; broker-url has none, so an omitted one reads as ''.
    super({ audience: 'gatehouse-broker', 'app-name': 'Gatehouse', revoke: 'true', 'fail-on-error': 'false', ...inputs });
    const setSecret = this.setSecret;
    const setOutput = this.setOutput;
    this.setSecret = (secret: string) => {
      this.events.push(`secret:${secret}`);
      setSecret(secret);
    };
    this.setOutput = (name: string, value: unknown) => {
      this.events.push(`output:${name}=${String(value)}`);
      setOutput(name, value);
    };
  }

  saveState = (name: string, value: unknown) => void (this.state[name] = String(value));
  getState = (name: string) => this.state[name] ?? '';
}

const http = () => actionHttp();
const WARNING = (reason: string) => `Gatehouse token unavailable (${reason}); comments fall back to the default bot`;

describe('request-token action (run, against real brokers on loopback)', () => {
  let h: BrokerHarness;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    h = await startBroker();
    env = {
      ACTIONS_ID_TOKEN_REQUEST_URL: h.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: h.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: '99',
      GITHUB_SHA: 'a'.repeat(40),
      GITHUB_API_URL: h.github.apiBase,
    };
  });
  afterEach(() => h.close());

  /** Fail-soft: the spec's warning line, then what the broker said when it said something. */
  const failedWith = (core: TokenRecordingCore, reason: string, said?: string) => {
    assert.deepEqual(core.of('warning'), said === undefined ? [WARNING(reason)] : [WARNING(reason), `broker said: ${said}`]);
    assert.deepEqual(core.of('failed'), []);
    assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
    assert.deepEqual(core.state, {});
  };

  it('gets a token from the main broker: outputs set, the token masked before anything else', async () => {
    const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
    await run({ core, http: http(), env });
    assert.deepEqual(core.of('warning'), []);
    const token = core.outputs.token!;
    assert.match(token, /^ghs_/);
    assert.equal(core.outputs.repository, 'octo-org/octo-repo');
    assert.match(core.outputs['expires-at']!, /Z$/);
    const firstUse = core.events.findIndex((e) => e.includes(token));
    assert.equal(core.events[firstUse], `secret:${token}`, 'masked first');
    assert.ok(core.secrets.includes(h.issuer.lastRunnerToken!), 'the OIDC token is masked too');
    assert.deepEqual(core.state, { token, 'expires-at': core.outputs['expires-at'] });
    assert.equal(core.outputs.permissions, '{"contents":"write","pull_requests":"write"}');
    const body = h.backend.logs.lines().find((l) => l.msg === 'token minted');
    assert.deepEqual(body?.permissions, { contents: 'write', pull_requests: 'write' }, 'no permission input: the broker ceiling');
    assert.ok(!core.messages.some((m) => m.text.includes(token)));
    const minted = h.backend.logs.lines().find((l) => l.msg === 'token minted');
    assert.deepEqual([minted?.ref, minted?.runId, minted?.sha], ['refs/heads/main', '99', 'a'.repeat(40)]);
  });

  it('gets a token from the minimal broker too', async () => {
    const minimal = await listen(
      createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'test' }),
    );
    try {
      const core = new TokenRecordingCore({ 'broker-url': minimal.url });
      await run({ core, http: http(), env });
      assert.deepEqual(core.of('warning'), []);
      assert.match(core.outputs.token!, /^ghs_/);
    } finally {
      await minimal.close();
    }
  });

  it('revoke: false saves nothing for the post step', async () => {
    const core = new TokenRecordingCore({ 'broker-url': h.backend.url, revoke: 'false' });
    await run({ core, http: http(), env });
    assert.match(core.outputs.token!, /^ghs_/);
    assert.deepEqual(core.state, {});
  });

  it('the post step revokes the token at the platform', async () => {
    const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
    await run({ core, http: http(), env });
    await revoke({ core, http: http(), env });
    assert.ok(h.github.revoked.has(core.outputs.token!));
    assert.ok(core.of('info').includes('token revoked'));
    const again = new TokenRecordingCore({});
    Object.assign(again.state, core.state);
    await revoke({ core: again, http: http(), env });
    assert.ok(again.of('info').includes('token was already revoked or expired'));
  });

  it('the post step does nothing without a token, or for an expired one', async () => {
    const none = new TokenRecordingCore({});
    await revoke({ core: none, http: http(), env });
    assert.deepEqual(none.of('info'), ['no token to revoke']);
    const expired = new TokenRecordingCore({});
    Object.assign(expired.state, { token: 'ghs_old', 'expires-at': '2020-01-01T00:00:00Z' });
    await revoke({ core: expired, http: http(), env });
    assert.deepEqual(expired.of('info'), ['token already expired']);
    assert.equal(h.github.count('revoke'), 0);
  });

  describe('fail-soft: one warning, empty outputs, no failure', () => {
    it('broker disabled: broker-url set to an empty string', async () => {
      const core = new TokenRecordingCore({ 'broker-url': '' });
      await run({ core, http: http(), env });
      failedWith(core, 'broker disabled');
      assert.equal(h.issuer.runnerTokenRequests, 0);
    });

    it('broker-url omitted (the runner passes it as an empty string): broker disabled, and a notice says how to set it', async () => {
      const core = new TokenRecordingCore({});
      await run({ core, http: http(), env });
      failedWith(core, 'broker disabled');
      assert.equal(h.issuer.runnerTokenRequests, 0);
      assert.equal(core.of('notice').length, 1);
      assert.match(core.of('notice')[0]!, /broker-url is empty, so no token was requested\. Set it to your broker's base URL \(there is no default broker/);
    });

    it('broker HTTP 401: a second warning line gives the broker’s error and reason', async () => {
      // The runner mints for the audience asked; the broker accepts only its own.
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url, audience: 'someone-elses-broker' });
      await run({ core, http: http(), env });
      failedWith(core, 'broker HTTP 401', 'invalid_oidc_token (audience_mismatch)');
      assert.ok(!JSON.stringify(core.messages).includes(h.issuer.lastRunnerToken!));
    });

    it('broker HTTP 4xx from the minimal broker: its error alone', async () => {
      const minimal = await listen(createMinimalApp({ env: () => ({ ...h.backend.env, ALLOWED_REPOSITORIES: 'octo-org/other' }), logger: capturedLogger().logger, version: 'test' }));
      try {
        const core = new TokenRecordingCore({ 'broker-url': minimal.url });
        await run({ core, http: http(), env });
        failedWith(core, 'broker HTTP 403', 'repo_not_allowed');
      } finally {
        await minimal.close();
      }
    });

    it('what the broker said is never a token, has no control characters and is bounded; a body without error or reason adds no line', async () => {
      let answer: (oidcToken: string) => { status: number; body: string } = () => ({ status: 500, body: '' });
      const broker = await listen(async (req, res) => {
        const { oidcToken } = JSON.parse(await readBody(req)) as { oidcToken: string };
        const { status, body } = answer(oidcToken);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
      try {
        const said = async (make: typeof answer): Promise<string[]> => {
          answer = make;
          const core = new TokenRecordingCore({ 'broker-url': broker.url });
          await run({ core, http: http(), env });
          assert.equal(core.of('warning')[0], WARNING(`broker HTTP ${make('x').status}`));
          assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
          const all = JSON.stringify(core.messages);
          assert.ok(!all.includes(h.issuer.lastRunnerToken!), 'the OIDC token is never echoed');
          return core.of('warning').slice(1);
        };
        // The broker echoes the OIDC token it was sent, and a platform token.
        assert.deepEqual(await said((t) => ({ status: 400, body: JSON.stringify({ error: `bad token ${t}`, reason: 'ghs_16C7e42F292c6912E7710c838347Ae178B4a' }) })), [
          `broker said: bad token ${HIDDEN} (${HIDDEN})`,
        ]);
        // Control characters cannot start a second workflow command or reorder the line.
        const [injected] = await said(() => ({ status: 401, body: JSON.stringify({ error: 'invalid\r\n::error::forged\u202e\u0007', reason: 'x\u2028y' }) }));
        assert.equal(injected, 'broker said: invalid ::error::forged (x y)');
        const [long] = await said(() => ({ status: 403, body: JSON.stringify({ error: 'e'.repeat(5000), reason: 'r'.repeat(5000) }) }));
        assert.equal(long, `broker said: ${'e'.repeat(63)}… (${'r'.repeat(63)}…)`);
        assert.deepEqual(await said(() => ({ status: 502, body: '<html>Bad gateway</html>' })), []);
        assert.deepEqual(await said(() => ({ status: 503, body: JSON.stringify({ error: { nested: true }, message: 'no' }) })), []);
        assert.deepEqual(await said(() => ({ status: 503, body: JSON.stringify({ reason: 'jwks_unavailable' }) })), ['broker said: (jwks_unavailable)']);
      } finally {
        await broker.close();
      }
    });

    it("missing 'id-token: write': the runner variables are absent", async () => {
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
      await run({ core, http: http(), env: { ...env, ACTIONS_ID_TOKEN_REQUEST_URL: undefined } });
      failedWith(core, "missing 'id-token: write'");
    });

    for (const repository of ['', 'octo-org', 'octo-org/octo-repo/extra', 'octo org/x']) {
      it(`bad GITHUB_REPOSITORY: ${JSON.stringify(repository)}`, async () => {
        const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
        await run({ core, http: http(), env: { ...env, GITHUB_REPOSITORY: repository } });
        failedWith(core, 'bad GITHUB_REPOSITORY');
      });
    }

    it('OIDC request failed: the runner refuses the request token, or cannot be reached', async () => {
      const refused = new TokenRecordingCore({ 'broker-url': h.backend.url });
      await run({ core: refused, http: http(), env: { ...env, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'wrong' } });
      failedWith(refused, 'OIDC request failed');
      const closed = new TokenRecordingCore({ 'broker-url': h.backend.url });
      await run({ core: closed, http: http(), env: { ...env, ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${await closedPort()}/t?x=1` } });
      failedWith(closed, 'OIDC request failed');
    });

    it('OIDC token missing: the runner answers 200 without value', async () => {
      const runner = await listen((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"count":0}'));
      try {
        const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
        await run({ core, http: http(), env: { ...env, ACTIONS_ID_TOKEN_REQUEST_URL: `${runner.url}/t?api-version=2.0` } });
        failedWith(core, 'OIDC token missing');
      } finally {
        await runner.close();
      }
    });

    it('broker unreachable: a closed port and no fallback', async () => {
      const core = new TokenRecordingCore({ 'broker-url': `http://127.0.0.1:${await closedPort()}` });
      await run({ core, http: http(), env });
      failedWith(core, 'broker unreachable');
    });

    it('broker HTTP 403: the broker refuses (repository not allowed)', async () => {
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/other';
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url });
      await run({ core, http: http(), env });
      failedWith(core, 'broker HTTP 403', 'repo_not_allowed');
    });

    it('broker returned no token: 200 without token', async () => {
      const broker = await listen((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"expires_at":"x"}'));
      try {
        const core = new TokenRecordingCore({ 'broker-url': broker.url });
        await run({ core, http: http(), env });
        failedWith(core, 'broker returned no token');
      } finally {
        await broker.close();
      }
    });
  });

  describe('fail-on-error: true', () => {
    it('fails the step with the same reason, outputs empty, and still quotes the broker', async () => {
      h.backend.env.ALLOWED_REPOSITORIES = 'octo-org/other';
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url, 'fail-on-error': 'true' });
      await run({ core, http: http(), env });
      assert.deepEqual(core.of('failed'), ['Gatehouse token unavailable (broker HTTP 403); the step fails because fail-on-error is true']);
      assert.deepEqual(core.of('warning'), ['broker said: repo_not_allowed']);
      assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
      assert.deepEqual(core.state, {});
    });

    it('an empty broker-url fails too: the job said it cannot go on without the token', async () => {
      const core = new TokenRecordingCore({ 'broker-url': '', 'fail-on-error': 'TRUE' });
      await run({ core, http: http(), env });
      assert.deepEqual(core.of('failed'), ['Gatehouse token unavailable (broker disabled); the step fails because fail-on-error is true']);
      assert.equal(h.issuer.runnerTokenRequests, 0);
    });

    it('changes nothing when a token comes back', async () => {
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url, 'fail-on-error': 'True' });
      await run({ core, http: http(), env });
      assert.match(core.outputs.token!, /^ghs_/);
      assert.deepEqual(core.of('failed'), []);
    });
  });

  describe('inputs that mean what they say', () => {
    it('no default broker or fallback host: broker-url is required without a default, fallback-url empty', () => {
      const meta = parse(readFileSync(join(REPO_ROOT, 'actions', 'request-token', 'action.yml'), 'utf8')) as { inputs: Record<string, { required?: boolean; default?: unknown }> };
      assert.equal(meta.inputs['broker-url']!.required, true);
      assert.equal('default' in meta.inputs['broker-url']!, false);
      assert.equal(meta.inputs['fallback-url']!.default, '');
    });

    it('no file the project ships names a broker host of its own (action, shell client, README, docs, demo, test support)', () => {
      const files = (dir: string): string[] =>
        readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
      const shipped = ['README.md', ...files('actions'), ...files('docs'), ...files('demo'), ...files('scripts'), ...files('test/support')];
      for (const file of shipped) assert.doesNotMatch(readFileSync(join(REPO_ROOT, file), 'utf8'), /gatehouse\.dev/, file);
    });

    it('the fallback is only an address the workflow named: an unreachable broker-url is never followed by another host', async () => {
      const asked: string[] = [];
      // Every address refuses the connection, except the runner's token endpoint.
      const transport: typeof fetch = async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        asked.push(`${init?.method ?? 'GET'} ${new URL(url).origin}`);
        if (url.startsWith(h.issuer.runnerTokenUrl.split('?')[0]!)) return fetch(input, init);
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      };
      // The address the action once used as its default, and once followed with a second host of its own.
      const core = new TokenRecordingCore({ 'broker-url': 'https://broker.gatehouse.dev' });
      await run({ core, http: actionHttp({ transport }), env });
      failedWith(core, 'broker unreachable');
      assert.deepEqual(asked.filter((a) => a.startsWith('POST')), ['POST https://broker.gatehouse.dev']);
    });

    for (const [inputs, message] of [
      [{ revoke: 'no' }, 'input "revoke" must be true or false (true, True, TRUE, false, False or FALSE)'],
      [{ revoke: 'tRUE' }, 'input "revoke" must be true or false (true, True, TRUE, false, False or FALSE)'],
      [{ 'fail-on-error': 'yes' }, 'input "fail-on-error" must be true or false (true, True, TRUE, false, False or FALSE)'],
      [{ 'broker-url': 'broker.example.com' }, 'input "broker-url" must be an http(s) URL'],
      [{ 'fallback-url': 'ftp://fallback.example.com' }, 'input "fallback-url" must be an http(s) URL'],
    ] as const) {
      it(`a mistake in the step fails it, before any token is asked for: ${JSON.stringify(inputs)}`, async () => {
        const core = new TokenRecordingCore({ 'broker-url': h.backend.url, ...inputs });
        await run({ core, http: http(), env });
        assert.deepEqual(core.of('failed'), [`Gatehouse token: ${message}`]);
        assert.deepEqual(core.of('warning'), []);
        assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
        assert.equal(h.issuer.runnerTokenRequests, 0);
      });
    }

    it('revoke takes every YAML 1.2 boolean: False and FALSE save nothing for the post step, TRUE does', async () => {
      for (const [revoke, saved] of [['False', false], ['FALSE', false], ['TRUE', true], ['', true]] as const) {
        const core = new TokenRecordingCore({ 'broker-url': h.backend.url, revoke });
        await run({ core, http: http(), env });
        assert.match(core.outputs.token!, /^ghs_/);
        assert.equal('token' in core.state, saved, `revoke: ${JSON.stringify(revoke)}`);
      }
    });
  });

  describe('permission-<name> inputs', () => {
    it('action.yml declares one input per GitHub repository permission, hyphenated as create-github-app-token names them', () => {
      const inputs = Object.keys((parse(readFileSync(join(REPO_ROOT, 'actions', 'request-token', 'action.yml'), 'utf8')) as { inputs: object }).inputs);
      const declared = inputs.filter((name) => name.startsWith('permission-'));
      assert.deepEqual(declared, PERMISSION_INPUTS);
      assert.equal(declared.length, Object.keys(REPOSITORY_PERMISSIONS).length);
      assert.ok(declared.includes('permission-pull-requests') && !declared.some((n) => n.includes('organization')));
    });

    it('the inputs set are asked for; the token and the permissions output carry them narrowed by the broker', async () => {
      h.backend.env.BROKER_POLICY = 'repositories:\n  octo-org/octo-repo:\n    - permissions: { contents: read, pull_requests: write }\n';
      const core = new TokenRecordingCore({ 'broker-url': h.backend.url, 'permission-contents': 'write', 'permission-pull-requests': 'Read', 'permission-issues': 'write' });
      await run({ core, http: http(), env });
      assert.deepEqual(core.of('warning'), []);
      assert.equal(core.outputs.permissions, '{"contents":"read","pull_requests":"read"}');
      assert.deepEqual(h.github.grantOf(core.outputs.token!)?.permissions, { contents: 'read', pull_requests: 'read' });
    });

    for (const [input, value, message] of [
      ['permission-contents', 'admin', 'input "permission-contents" must be read or write'],
      ['permission-workflows', 'read', 'input "permission-workflows" must be write'],
      ['permission-issues', 'yes', 'input "permission-issues" must be read or write'],
    ] as const) {
      it(`${input}: ${value} fails the step before any token is asked for`, async () => {
        const core = new TokenRecordingCore({ 'broker-url': h.backend.url, [input]: value });
        await run({ core, http: http(), env });
        assert.deepEqual(core.of('failed'), [`Gatehouse token: ${message}`]);
        assert.equal(h.issuer.runnerTokenRequests, 0);
        assert.equal(core.outputs.permissions, '');
      });
    }

    it('a broker that does not report permissions leaves the output empty; a malformed report is filtered', async () => {
      const old = await listen(async (req, res) => {
        await readBody(req);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 'ghs_old', expires_at: '2030-01-01T00:00:00Z', repository: 'octo-org/octo-repo' }));
      });
      const odd = await listen(async (req, res) => {
        await readBody(req);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ token: 'ghs_odd', expires_at: '2030-01-01T00:00:00Z', repository: 'octo-org/octo-repo', permissions: { contents: 'read', 'x\n::set-output': 'write', issues: { nested: 1 } } }));
      });
      try {
        const core = new TokenRecordingCore({ 'broker-url': old.url, revoke: 'false' });
        await run({ core, http: http(), env });
        assert.deepEqual([core.outputs.token, core.outputs.permissions], ['ghs_old', '']);
        const second = new TokenRecordingCore({ 'broker-url': odd.url, revoke: 'false' });
        await run({ core: second, http: http(), env });
        assert.equal(second.outputs.permissions, '{"contents":"read"}');
      } finally {
        await old.close();
        await odd.close();
      }
    });

    it('asked for permissions and not confirmed: a warning, whether the broker reports none (an older one) or more than asked', async () => {
      const answering = (permissions?: unknown) =>
        listen(async (req, res) => {
          await readBody(req);
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 'ghs_x', expires_at: '2030-01-01T00:00:00Z', repository: 'octo-org/octo-repo', ...(permissions ? { permissions } : {}) }));
        });
      const silent = await answering();
      const wider = await answering({ contents: 'write', pull_requests: 'write', metadata: 'read' });
      const narrower = await answering({ contents: 'read', metadata: 'read' });
      try {
        const asked = { 'permission-contents': 'read', revoke: 'false' };
        const none = new TokenRecordingCore({ 'broker-url': silent.url, ...asked });
        await run({ core: none, http: http(), env });
        assert.match(none.of('warning')[0]!, /^Gatehouse token: the broker did not say which permissions the token carries, so the permission-\* inputs are not confirmed/);
        assert.equal(none.outputs.permissions, '', 'the output says what the broker reported: nothing');
        const more = new TokenRecordingCore({ 'broker-url': wider.url, ...asked });
        await run({ core: more, http: http(), env });
        assert.deepEqual(more.of('warning'), ['Gatehouse token: the token carries more than the permission-* inputs asked for: contents: write, pull_requests: write']);
        assert.equal(more.outputs.permissions, '{"contents":"write","pull_requests":"write","metadata":"read"}');
        const less = new TokenRecordingCore({ 'broker-url': narrower.url, ...asked });
        await run({ core: less, http: http(), env });
        assert.deepEqual(less.of('warning'), [], 'narrower than asked is the broker narrowing');
        const unasked = new TokenRecordingCore({ 'broker-url': silent.url, revoke: 'false' });
        await run({ core: unasked, http: http(), env });
        assert.deepEqual(unasked.of('warning'), [], 'nothing asked, nothing to confirm');
      } finally {
        await Promise.all([silent.close(), wider.close(), narrower.close()]);
      }
    });

    it('against the minimal broker, permission-contents: read gets a contents: read token, confirmed', async () => {
      const minimal = await listen(createMinimalApp({ env: () => ({ ...h.backend.env, BROKER_POLICY: undefined }), logger: capturedLogger().logger, version: 'test' }));
      try {
        const core = new TokenRecordingCore({ 'broker-url': minimal.url, 'permission-contents': 'read', revoke: 'false' });
        await run({ core, http: http(), env });
        assert.deepEqual(core.of('warning'), []);
        assert.equal(core.outputs.permissions, '{"contents":"read"}');
        assert.deepEqual(h.github.grantOf(core.outputs.token!)?.permissions, { contents: 'read' });
      } finally {
        await minimal.close();
      }
    });
  });

  describe('fallback address', () => {
    let fallbackCalls: number;
    let fallback: Listening;

    beforeEach(async () => {
      fallbackCalls = 0;
      // Forwards to the real broker, counting what it is asked.
      fallback = await listen(async (req, res) => {
        fallbackCalls++;
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const answer = await fetch(`${h.backend.url}${req.url}`, { method: req.method!, body: Buffer.concat(chunks), headers: { 'content-type': 'application/json' } });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    afterEach(() => fallback.close());

    it('is tried when the primary cannot be reached, and its token is used', async () => {
      const core = new TokenRecordingCore({ 'broker-url': `http://127.0.0.1:${await closedPort()}`, 'fallback-url': fallback.url });
      await run({ core, http: http(), env });
      assert.deepEqual(core.of('warning'), []);
      assert.match(core.outputs.token!, /^ghs_/);
      assert.equal(fallbackCalls, 1);
    });

    it('is not tried when the primary answers with an HTTP status', async () => {
      const primary = await listen((_req, res) => void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"x"}'));
      try {
        const core = new TokenRecordingCore({ 'broker-url': primary.url, 'fallback-url': fallback.url });
        await run({ core, http: http(), env });
        failedWith(core, 'broker HTTP 503', 'x');
        assert.equal(fallbackCalls, 0);
      } finally {
        await primary.close();
      }
    });

    it('both unreachable: broker unreachable', async () => {
      const core = new TokenRecordingCore({ 'broker-url': `http://127.0.0.1:${await closedPort()}`, 'fallback-url': `http://127.0.0.1:${await closedPort()}` });
      await run({ core, http: http(), env });
      failedWith(core, 'broker unreachable');
    });
  });
});

describe('peerText: text a peer sent, made fit for one log line', () => {
  it('keeps codes and plain words', () => {
    for (const code of ['invalid_oidc_token', 'platform_installation_lookup_failed', 'Bad Gateway', 'ERR_UPSTREAM_CONNECT_FAILED']) assert.equal(peerText(code), code);
  });

  it('hides what could be a credential: the secrets given, JWTs, platform tokens, hex and base64 keys', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    assert.equal(peerText(`token ${jwt} refused`), `token ${HIDDEN} refused`);
    assert.equal(peerText('ghp_abcdefghijklmnopqrstuvwxyz0123456789'), HIDDEN);
    assert.equal(peerText('a'.repeat(20) + '0123'), HIDDEN);
    assert.equal(peerText('dGhpcyBpcyBhIHNlY3JldA=='), HIDDEN);
    assert.equal(peerText('secret=hunter2hunter2 done', { secrets: ['hunter2hunter2'] }), `secret=${HIDDEN} done`);
    // A zero-width character cannot split a token into harmless-looking halves.
    assert.equal(peerText(`ghs_16C7e42F\u200b292c6912E7710c838347Ae178B4a`), HIDDEN);
  });

  it('turns control characters into spaces, drops format characters, bounds the length, and gives undefined for nothing', () => {
    assert.equal(peerText('a\r\nb\u0000c\u001b[31md\u202e'), 'a b c [31md');
    assert.equal(peerText('x'.repeat(100), { max: 10 }), `${'x'.repeat(9)}…`);
    assert.equal(peerText(' \n\t '), undefined);
    assert.equal(peerText(42), undefined);
    assert.equal(peerText(undefined), undefined);
  });
});
