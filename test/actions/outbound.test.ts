import assert from 'node:assert/strict';
import { ACTION_RETRY } from '../../server/http/retry.js';
import { run as recordDeployment } from '../../actions/record-deployment/run.js';
import { revoke } from '../../actions/request-token/revoke.js';
import { run as requestToken } from '../../actions/request-token/run.js';
import type { StatefulCore } from '../../actions/shared/core.js';
import { actionHttp } from '../../actions/shared/http.js';
import { timed } from '../faults/support.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import { RecordingCore } from '../support/runner.js';
import { stallingPeer, STALLS, type StallingPeer } from '../support/stalling.js';

/**
 * The actions' calls are bounded (docs/outbound-calls.md): a runner, broker, ledger or API that
 * accepts the connection and never answers, or sends headers and stalls the body, ends in the
 * action's fail-soft warning within the bound. Bounds are shortened by name here.
 */
const SHORT = { connectMs: 300, totalMs: 500 };
const http = () => actionHttp({ bounds: { 'runner-oidc': SHORT, 'broker-token': SHORT, 'token-revoke': SHORT, 'ledger-post': SHORT } });
const SLACK_MS = 1500;
const within = (ms: number, bound: number) => assert.ok(ms < bound + SLACK_MS, `ended after ${Math.round(ms)} ms (bound ${bound} ms)`);
/** request-token and record-deployment ask the runner twice, a second apart, before giving up. */
const OIDC_WORST_MS = 2 * SHORT.totalMs + 1000;

class TokenCoreWithState extends RecordingCore implements StatefulCore {
  readonly state: Record<string, string> = {};
  saveState = (name: string, value: unknown) => void (this.state[name] = String(value));
  getState = (name: string) => this.state[name] ?? '';
}

describe('faults: the actions against peers that stall', () => {
  let issuer: TestIssuer;
  let peer: StallingPeer;
  before(async () => {
    issuer = await TestIssuer.start();
  });
  after(() => issuer.close());
  afterEach(() => peer?.close());

  const runner = () => ({
    ACTIONS_ID_TOKEN_REQUEST_URL: issuer.runnerTokenUrl,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.runnerRequestToken,
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
  });

  for (const stall of STALLS) {
    it(`request-token: the runner's OIDC endpoint ${stall} → "OIDC request failed" warning within two bounded attempts`, async () => {
      peer = await stallingPeer(stall);
      const core = new TokenCoreWithState({ 'broker-url': 'http://127.0.0.1:9/' });
      const env = { ...runner(), ACTIONS_ID_TOKEN_REQUEST_URL: `${peer.url}/token?api-version=2.0` };
      const { ms } = await timed(() => requestToken({ core, http: http(), env }));
      assert.deepEqual(core.of('warning'), ['Gatehouse token unavailable (OIDC request failed); comments fall back to the default bot']);
      assert.deepEqual(core.outputs, { token: '', 'expires-at': '', repository: '', permissions: '' });
      assert.equal(peer.requests, 2, 'asked twice');
      within(ms, OIDC_WORST_MS);
    });

    it(`request-token: the broker ${stall} → "broker unreachable" within the broker bound; a stalling fallback adds one more`, async () => {
      peer = await stallingPeer(stall);
      const core = new TokenCoreWithState({ 'broker-url': peer.url });
      const alone = await timed(() => requestToken({ core, http: http(), env: runner() }));
      assert.deepEqual(core.of('warning'), ['Gatehouse token unavailable (broker unreachable); comments fall back to the default bot']);
      assert.ok(core.of('info').some((m) => m.includes('no complete answer within 0.5 s')), JSON.stringify(core.messages));
      within(alone.ms, SHORT.totalMs);

      const withFallback = new TokenCoreWithState({ 'broker-url': peer.url, 'fallback-url': `${peer.url}/second` });
      const both = await timed(() => requestToken({ core: withFallback, http: http(), env: runner() }));
      assert.deepEqual(withFallback.of('warning'), ['Gatehouse token unavailable (broker unreachable); comments fall back to the default bot']);
      assert.ok(withFallback.of('info').some((m) => m.startsWith(`broker unreachable at ${peer.url}`)));
      within(both.ms, 2 * SHORT.totalMs);
    });

    it(`request-token post step: the API ${stall} → "token not revoked" warning within the revoke bound`, async () => {
      peer = await stallingPeer(stall);
      const core = new TokenCoreWithState({});
      Object.assign(core.state, { token: 'ghs_still_valid', 'expires-at': new Date(Date.now() + 3_600_000).toISOString() });
      const { ms } = await timed(() => revoke({ core, http: http(), env: { GITHUB_API_URL: peer.url } }));
      assert.deepEqual(core.of('warning'), ['token not revoked (API unreachable: no complete answer within 0.5 s); it expires on its own']);
      within(ms, SHORT.totalMs);
    });

    it(`record-deployment: the ledger ${stall} → a warning after its bounded, retried attempts`, async () => {
      peer = await stallingPeer(stall);
      const core = new RecordingCore({ 'api-url': peer.url, environment: 'production', status: 'success', 'delivery-id': `stall-${stall}` });
      const retry = { ...ACTION_RETRY, minDelayMs: 10, maxDelayMs: 80 };
      const { ms } = await timed(() => recordDeployment({ core, http: http(), env: runner(), retry }));
      assert.deepEqual(core.of('warning'), ['deployment not recorded: the ledger did not answer: no complete answer within 0.5 s']);
      assert.deepEqual(core.of('failed'), []);
      assert.equal(peer.requests, 4, 'the first attempt and 3 retries');
      // Four bounded attempts and three short back-offs (each at most its doubling minimum).
      within(ms, 4 * SHORT.totalMs + 3 * 80);
    });

    it(`record-deployment: the runner's OIDC endpoint ${stall} → a warning within two bounded attempts`, async () => {
      peer = await stallingPeer(stall);
      const core = new RecordingCore({ 'api-url': 'http://127.0.0.1:9', environment: 'production', status: 'success', 'delivery-id': 'x' });
      const env = { ...runner(), ACTIONS_ID_TOKEN_REQUEST_URL: `${peer.url}/token?api-version=2.0` };
      const { ms } = await timed(() => recordDeployment({ core, http: http(), env, retry: ACTION_RETRY }));
      assert.deepEqual(core.of('warning'), ['deployment not recorded: OIDC request failed (no complete answer within 0.5 s)']);
      within(ms, OIDC_WORST_MS);
    });
  }
});
