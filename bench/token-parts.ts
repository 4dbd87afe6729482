/**
 * What each part of `/token` costs under load, beside the limit of bench/token.ts (a bare server
 * that verifies and mints), at the same concurrency. One server per step, each its own process:
 * - the limit with one of the brokers' parts swapped in (bench/token-ladder.mjs): their OIDC
 *   verification, their mint, their body reading and answer, the minimal broker's outcome line;
 * - the limit with all four (the minimal broker without its settings checks and error tables);
 * - the minimal broker; the main broker with `LOG_LEVEL=silent`; the main broker.
 * Every figure is a reference (no target): CPU per request and its ratio to the limit's, the
 * median of per-round ratios. A part's cost is its ratio minus one; the main broker's request log
 * line is `main` minus `main_unlogged`.
 */
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { clean, cpuRound, load, startBackendProcess, startBareMint, startMinimalProcess, startTokenLadder, type CpuRound, type ServerProcess } from './http-load.js';
import { emit, median, type Figure } from './measure.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** The steps, measured beside the limit; the name is the figure's. */
const STEPS = ['verify', 'mint', 'io', 'log', 'all_four', 'minimal', 'main_unlogged', 'main'] as const;
type Step = (typeof STEPS)[number];

const DESCRIPTIONS: Record<Step, string> = {
  verify: "the limit with the brokers' OIDC verification",
  mint: "the limit with the brokers' mint",
  io: "the limit with the brokers' body reading and answer",
  log: "the limit with the minimal broker's outcome line",
  all_four: 'the limit with all four parts',
  minimal: 'the minimal broker',
  main_unlogged: 'the main broker, LOG_LEVEL=silent',
  main: 'the main broker',
};

async function main(): Promise<void> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
  const limitOptions = {
    jwks: issuer.jwks(),
    issuer: issuer.url,
    audience: BROKER_AUDIENCE,
    apiBase: github.apiBase,
    appId: github.appId,
    appKey: github.privateKeyPem,
    installationId: INSTALLATION_ID,
    repositoryId: REPO_ID,
  };
  const servers: [Step | 'limit', ServerProcess][] = [];
  try {
    servers.push(['limit', await startBareMint(limitOptions)]);
    for (const part of ['verify', 'mint', 'io', 'log'] as const) servers.push([part, await startTokenLadder([part], limitOptions, env)]);
    servers.push(['all_four', await startTokenLadder(['verify', 'mint', 'io', 'log'], limitOptions, env)]);
    servers.push(['minimal', await startMinimalProcess(env)]);
    servers.push(['main_unlogged', await startBackendProcess(env, { silent: true })]);
    servers.push(['main', await startBackendProcess(env)]);

    const oidcToken = await issuer.mint({ aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 1800 });
    const request = { path: '/token', method: 'POST' as const, body: JSON.stringify({ oidcToken, owner: 'octo-org', repo: 'octo-repo' }) };
    for (const [label, server] of servers) clean(`warm-up ${label}`, await load(server.url, request, { connections: CONNECTIONS, seconds: 2 }));

    const runs = new Map<string, CpuRound[]>(servers.map(([label]) => [label, []]));
    // The order turns round every other round, as in bench/token.ts.
    for (let i = 0; i < ROUNDS; i++) {
      for (const [label, server] of i % 2 === 0 ? servers : [...servers].reverse()) {
        runs.get(label)!.push(await cpuRound(label, server, request, { connections: CONNECTIONS, seconds: SECONDS }));
      }
    }
    const limit = runs.get('limit')!;
    const limitUs = Math.round(median(limit.map((r) => r.cpuPerRequest)) * 1e6);
    const figures: Figure[] = STEPS.map((step) => {
      const own = runs.get(step)!;
      return {
        name: `token-parts.${step}.cpu_us_per_request`,
        value: Math.round(median(own.map((r) => r.cpuPerRequest)) * 1e6),
        limit: limitUs,
        limit_name: 'bare verify + one mint POST',
        ratio: median(own.map((r, i) => r.cpuPerRequest / limit[i]!.cpuPerRequest)),
        target: `reference: ${DESCRIPTIONS[step]} (median of per-round ratios)`,
      };
    });
    emit('token-parts', { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS }, figures);
  } finally {
    await Promise.all(servers.map(([, server]) => server.stop()));
    await Promise.all([github.close(), issuer.close()]);
  }
}

await main();
