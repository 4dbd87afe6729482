import assert from 'node:assert/strict';
import { SHUTDOWN_GRACE_MS } from '../../server/lifecycle.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../support/broker.js';
import { FakeChat } from '../support/fake-chat.js';
import { FakeGitHub } from '../support/fake-github.js';
import { call } from '../support/http.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../support/oidc-issuer.js';
import { startEntry, type Started } from '../support/processes.js';
import { eventually } from './support.js';

/** How long the fakes take to answer: long enough that SIGTERM lands while requests wait on them. */
const SLOW_MS = 1200;

describe('faults: SIGTERM while requests are in flight (real processes)', () => {
  let issuer: TestIssuer;
  let github: FakeGitHub;
  let chat: FakeChat;
  let started: Started | undefined;

  before(async () => {
    issuer = await TestIssuer.start();
    github = await FakeGitHub.start();
    github.addInstallation(INSTALLATION_ID, 'octo-org');
    github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
    chat = await FakeChat.start();
  });
  after(async () => {
    await chat.close();
    await github.close();
    await issuer.close();
  });
  beforeEach(() => {
    github.delayMs = SLOW_MS;
    chat.delayMs = SLOW_MS;
  });
  afterEach(async () => {
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
    started = undefined;
  });

  const platformEnv = () => ({
    OIDC_ISSUER: issuer.url,
    FORGE_API_BASE: github.apiBase,
    FORGE_APP_ID: github.appId,
    FORGE_APP_PRIVATE_KEY: github.privateKeyPem,
  });
  const tokenBody = async () => ({ oidcToken: await issuer.mint({ aud: BROKER_AUDIENCE }), owner: 'octo-org', repo: 'octo-repo' });

  /** SIGTERM, then: no new connection is accepted. Resolves when the exit code is known, with the time it took. */
  async function terminate(proc: Started): Promise<{ code: number | null; ms: number }> {
    const sentAt = performance.now();
    proc.child.kill('SIGTERM');
    await eventually(() => proc.output().includes('shutting down'), 'the shutdown is logged');
    await assert.rejects(fetch(`${proc.url}/healthz`), 'a new connection was accepted during shutdown');
    const code = await proc.exited;
    return { code, ms: performance.now() - sentAt };
  }

  it('backend: a /token waiting on a slow platform and a deployment waiting on a slow chat sink both complete normally; the process exits 0 within its grace', async () => {
    started = await startEntry('server/main.ts', {
      ...platformEnv(),
      LEDGER_AUDIENCE: DEFAULT_AUDIENCE,
      LEDGER_ALLOWED_OWNERS: 'octo-org',
      LEDGER_CHAT_WEBHOOK_URL: chat.webhookUrl,
    });
    const callsBefore = github.calls.length;
    const chatBefore = chat.received;
    const token = call(`${started.url}/token`, { json: await tokenBody() });
    const deployment = call<{ notified: Record<string, boolean> }>(`${started.url}/v1/deployments`, {
      token: await issuer.mint(),
      json: { delivery_id: 'sigterm-1', environment: 'production', status: 'success' },
    });
    // Both requests are past the point of no return: each is waiting on its slow collaborator.
    await eventually(() => github.calls.length > callsBefore && chat.received > chatBefore, 'both requests in flight');

    const stop = terminate(started);
    const [tokenAnswer, deploymentAnswer] = await Promise.all([token, deployment]);
    assert.equal(tokenAnswer.status, 200, JSON.stringify(tokenAnswer.body));
    assert.equal(github.grantOf(tokenAnswer.body.token as string)?.installationId, INSTALLATION_ID, 'a real minted token');
    assert.equal(deploymentAnswer.status, 201);
    assert.deepEqual(deploymentAnswer.body.notified, { chat: true });

    const { code, ms } = await stop;
    assert.equal(code, 0);
    assert.ok(ms < SHUTDOWN_GRACE_MS, `exited ${Math.round(ms)} ms after SIGTERM, past its grace`);
    assert.match(started.output(), /"msg":"stopped"/);
    assert.doesNotMatch(started.output(), /grace period over/, 'nothing had to be cut off');
  });

  it('minimal broker: a /token waiting on a slow platform completes with its token; the process exits 0', async () => {
    started = await startEntry('server/minimal/main.ts', platformEnv(), 'gatehouse minimal broker listening');
    const callsBefore = github.calls.length;
    const token = call(`${started.url}/token`, { json: await tokenBody() });
    await eventually(() => github.calls.length > callsBefore, 'the request is waiting on the platform');

    const stop = terminate(started);
    const answer = await token;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ['expires_at', 'permissions', 'repository', 'token']);
    const { code, ms } = await stop;
    assert.equal(code, 0);
    assert.ok(ms < SHUTDOWN_GRACE_MS);
    await eventually(() => started!.output().includes('"outcome":"mint_ok"'), 'its one outcome line was written before exit');
  });
});
