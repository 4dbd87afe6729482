import assert from 'node:assert/strict';
import { actionHttp } from '../../actions/shared/http.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { revoke } from '../../actions/request-token/revoke.js';
import { run, type TokenCore } from '../../actions/request-token/run.js';
import { startBroker, type BrokerHarness } from '../support/broker.js';
import { capturedLogger } from '../support/log-capture.js';
import { RecordingCore } from '../support/runner.js';
import { closedPort, listen, type Listening } from '../support/servers.js';

/** RecordingCore plus state, and one ordered event list (to check that masking comes first). */
class TokenRecordingCore extends RecordingCore implements TokenCore {
  readonly state: Record<string, string> = {};
  readonly events: string[] = [];

  constructor(inputs: Record<string, string>) {
    super({ 'broker-url': 'https://broker.gatehouse.dev', audience: 'gatehouse-broker', 'app-name': 'Gatehouse', revoke: 'true', ...inputs });
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

  const failedWith = (core: TokenRecordingCore, reason: string) => {
    assert.deepEqual(core.of('warning'), [WARNING(reason)]);
    assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '' });
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
      failedWith(core, 'broker HTTP 403');
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
        failedWith(core, 'broker HTTP 503');
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
