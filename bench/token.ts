/**
 * `/token` under load: autocannon at concurrency 50 against the broker (built backend, own
 * process) with a zero-latency loopback platform fake, beside the limit measured in the same
 * run: a bare node:http server that only verifies the same RS256 token with jose. Rounds
 * alternate broker and limit; figures are medians. Platform calls per request come from the
 * fake's own counter over the measured rounds (after a warm-up, so the installation is cached).
 */
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { load, startBackendProcess, startBareVerify, type LoadResult } from './http-load.js';
import { emit, median } from './measure.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function clean(label: string, r: LoadResult): LoadResult {
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${label}: ${r.errors} errors and ${r.non2xx} non-2xx answers in ${r.requests} requests`);
  return r;
}

async function main(): Promise<void> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const broker = await startBackendProcess({
    OIDC_ISSUER: issuer.url,
    FORGE_API_BASE: github.apiBase,
    FORGE_APP_ID: github.appId,
    FORGE_APP_PRIVATE_KEY: github.privateKeyPem,
  });
  const limit = await startBareVerify(issuer.jwks(), issuer.url, BROKER_AUDIENCE);
  try {
    // One token for the whole run, valid long enough: the broker verifies it on every request.
    const oidcToken = await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 1800 });
    const request = { path: '/token', method: 'POST' as const, body: JSON.stringify({ oidcToken, owner: 'octo-org', repo: 'octo-repo' }) };
    const opts = { connections: CONNECTIONS, seconds: SECONDS };
    clean('warm-up broker', await load(broker.url, request, { connections: CONNECTIONS, seconds: 2 }));
    clean('warm-up limit', await load(limit.url, request, { connections: CONNECTIONS, seconds: 2 }));

    const brokerRuns: LoadResult[] = [];
    const limitRuns: LoadResult[] = [];
    const callsBefore = github.count();
    for (let i = 0; i < ROUNDS; i++) {
      limitRuns.push(clean('limit', await load(limit.url, request, opts)));
      brokerRuns.push(clean('broker', await load(broker.url, request, opts)));
    }
    const platformCalls = github.count() - callsBefore;
    const sent = brokerRuns.reduce((n, r) => n + r.sent, 0);
    const rps = median(brokerRuns.map((r) => r.rps));
    const limitRps = median(limitRuns.map((r) => r.rps));
    const p99 = median(brokerRuns.map((r) => r.p99Ms));
    const callsPerRequest = platformCalls / sent;
    const meta = { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, requests_sent: sent, platform_calls: platformCalls };
    emit('token', meta, [
      { name: 'token.rps', value: Math.round(rps), limit: Math.round(limitRps), limit_name: 'bare node:http + jose verify', ratio: rps / limitRps, target: 'ratio >= 0.4', met: rps / limitRps >= 0.4 },
      { name: 'token.p50_ms', value: median(brokerRuns.map((r) => r.p50Ms)), limit: median(limitRuns.map((r) => r.p50Ms)), limit_name: 'bare verify p50', target: 'reference' },
      { name: 'token.p99_ms', value: p99, limit: 20, limit_name: 'target', ratio: p99 / 20, target: 'value < 20', met: p99 < 20 },
      { name: 'token.platform_calls_per_request', value: callsPerRequest, limit: 1, limit_name: 'one mint per request', ratio: callsPerRequest, target: 'value <= 1', met: callsPerRequest <= 1 },
    ]);
  } finally {
    await Promise.all([broker.stop(), limit.stop()]);
    await Promise.all([github.close(), issuer.close()]);
  }
}

await main();
