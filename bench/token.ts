/**
 * `/token` under load: autocannon at concurrency 50 against the main broker and the minimal
 * broker (built, own processes) with a zero-latency loopback platform fake, beside the limit
 * measured in the same run: a bare node:http server that verifies the same RS256 token with jose
 * and makes one mint POST to the same fake with Node's own HTTP client (bench/bare-mint.mjs),
 * which is what any broker must do. Rounds alternate limit, broker and minimal broker (the order
 * reversed every other round); figures are medians. CPU per token is each server process's own
 * CPU time over its measured rounds divided by the requests it answered. Platform calls per
 * request come from the fake's counter over the measured rounds (after a warm-up, so the
 * installation is cached).
 */
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { clean, cpuRound, load, startBackendProcess, startBareMint, startMinimalProcess, type CpuRound, type LoadRequest, type ServerProcess } from './http-load.js';
import { emit, median, type Figure } from './measure.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const round = (label: string, server: ServerProcess, request: LoadRequest): Promise<CpuRound> => cpuRound(label, server, request, { connections: CONNECTIONS, seconds: SECONDS });

/**
 * The figures of one broker beside the limit's. Ratios are taken round by round (each broker
 * round next to a limit round) and their median reported: this machine's speed drifts by tens
 * of percent over a run, and a ratio of medians taken at different moments carries that drift.
 */
function figures(prefix: string, runs: CpuRound[], limit: CpuRound[]): Figure[] {
  const paired = (of: (r: CpuRound) => number) => median(runs.map((r, i) => of(r) / of(limit[i]!)));
  const rpsRatio = paired((r) => r.rps);
  const p99Ratio = paired((r) => r.p99Ms);
  const cpuRatio = paired((r) => r.cpuPerRequest);
  return [
    { name: `${prefix}.rps`, value: Math.round(median(runs.map((r) => r.rps))), limit: Math.round(median(limit.map((r) => r.rps))), limit_name: 'bare verify + one mint POST', ratio: rpsRatio, target: 'ratio >= 0.8 (median of per-round ratios)', met: rpsRatio >= 0.8 },
    { name: `${prefix}.p99_ms`, value: median(runs.map((r) => r.p99Ms)), limit: median(limit.map((r) => r.p99Ms)), limit_name: 'its p99', ratio: p99Ratio, target: 'ratio <= 1.25 (median of per-round ratios)', met: p99Ratio <= 1.25 },
    { name: `${prefix}.cpu_us_per_request`, value: Math.round(median(runs.map((r) => r.cpuPerRequest)) * 1e6), limit: Math.round(median(limit.map((r) => r.cpuPerRequest)) * 1e6), limit_name: 'its CPU per request', ratio: cpuRatio, target: 'ratio <= 1.25 (median of per-round ratios)', met: cpuRatio <= 1.25 },
    { name: `${prefix}.p50_ms`, value: median(runs.map((r) => r.p50Ms)), limit: median(limit.map((r) => r.p50Ms)), limit_name: 'its p50', target: 'reference' },
  ];
}

async function main(): Promise<void> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
  const broker = await startBackendProcess(env);
  const minimal = await startMinimalProcess(env);
  const limit = await startBareMint({
    jwks: issuer.jwks(),
    issuer: issuer.url,
    audience: BROKER_AUDIENCE,
    apiBase: github.apiBase,
    appId: github.appId,
    appKey: github.privateKeyPem,
    installationId: INSTALLATION_ID,
    repositoryId: REPO_ID,
  });
  try {
    // One token for the whole run, valid long enough: each server verifies it on every request.
    const oidcToken = await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 1800 });
    const request = { path: '/token', method: 'POST' as const, body: JSON.stringify({ oidcToken, owner: 'octo-org', repo: 'octo-repo' }) };
    for (const [label, server] of [['limit', limit], ['broker', broker], ['minimal', minimal]] as const) {
      clean(`warm-up ${label}`, await load(server.url, request, { connections: CONNECTIONS, seconds: 2 }));
    }

    const runs: Record<'limit' | 'broker' | 'minimal', CpuRound[]> = { limit: [], broker: [], minimal: [] };
    let brokerMints = 0;
    // The order turns round every other round (limit, broker, minimal; then minimal, broker,
    // limit), so that neither side of a ratio is always the one measured first: the fake's own
    // state and the machine drift within a round.
    const servers = [
      ['limit', limit],
      ['broker', broker],
      ['minimal', minimal],
    ] as const;
    for (let i = 0; i < ROUNDS; i++) {
      for (const [label, server] of i % 2 === 0 ? servers : [...servers].reverse()) {
        const before = github.count('access_tokens');
        runs[label].push(await round(label, server, request));
        if (label === 'broker') brokerMints += github.count('access_tokens') - before;
      }
    }
    const sent = runs.broker.reduce((n, r) => n + r.sent, 0);
    // Mints only: the installation lookup is cached for 60 s, so a long run also makes a lookup a
    // minute. autocannon does not count the requests it cuts when a round stops, while the broker
    // may already have minted for them: at most one per connection per round.
    const callsPerRequest = brokerMints / sent;
    const uncounted = CONNECTIONS * ROUNDS;
    const meta = { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, broker_requests_sent: sent, broker_mints: brokerMints };
    emit('token', meta, [
      ...figures('token', runs.broker, runs.limit),
      {
        name: 'token.platform_calls_per_request',
        value: callsPerRequest,
        limit: 1,
        limit_name: 'one mint per request (the cached installation lookup aside)',
        ratio: callsPerRequest,
        target: `mints <= requests sent + ${uncounted} cut when a round stopped`,
        met: brokerMints <= sent + uncounted,
      },
      ...figures('token.minimal', runs.minimal, runs.limit),
    ]);
  } finally {
    await Promise.all([broker.stop(), minimal.stop(), limit.stop()]);
    await Promise.all([github.close(), issuer.close()]);
  }
}

await main();
