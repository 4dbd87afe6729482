/**
 * `/token` under a 1,000-repository BROKER_POLICY against `/token` without one (issue 20's target:
 * within 5 %). Two backend processes (built, as deployed) differ only in BROKER_POLICY; in each
 * round autocannon loads both at once (25 connections each), and each figure is the median of the
 * per-round ratios (policy ÷ none), so the machine's drift over the run cancels. The token's
 * repository has its own entry in the middle of the policy, and the rule that applies is the first
 * whose conditions (ref, event_name, a job_workflow_ref glob) all hold. Also, in this process: the
 * cost of one decision, as a reference figure, and of parsing the policy (once per distinct value)
 * in the run's meta.
 */
import { decide } from '../server/broker/policy/evaluate.js';
import { parsePolicy } from '../server/broker/policy/parse.js';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { TestIssuer } from '../test/support/oidc-issuer.js';
import { cpuRound, load, startBackendProcess, type CpuRound, type LoadRequest, type ServerProcess } from './http-load.js';
import { emit, median, type Figure } from './measure.js';

/** Per server: both are loaded at once, so the machine sees 50 connections as in bench/token.ts. */
const CONNECTIONS = 25;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REPOSITORIES = 1000;

/**
 * 999 repositories with a rule each, the benchmarked one among them with the issue's example
 * rules, an owner entry and `*`. JSON, on one line: an environment variable holds at most 128 KiB
 * on Linux, and this stays well under it.
 */
function thousandRepositoryPolicy(): string {
  const repositories: Record<string, unknown> = {};
  for (let i = 0; i < REPOSITORIES - 1; i++) {
    if (i === (REPOSITORIES >> 1)) {
      repositories[REPO] = [
        { if: { ref: 'refs/heads/main', event_name: ['push', 'workflow_dispatch'], job_workflow_ref: `${REPO}/.github/workflows/*.yml@refs/heads/main` }, permissions: { contents: 'write', pull_requests: 'write' } },
        { if: { event_name: 'pull_request' }, permissions: { contents: 'read', pull_requests: 'write' } },
      ];
    }
    repositories[`acme/service-${i}`] = [{ if: { ref: 'refs/heads/main' }, permissions: { contents: i % 2 ? 'read' : 'write' } }];
  }
  repositories['octo-org/*'] = [{ if: { ref: 'refs/tags/v*' }, permissions: { contents: 'write' } }];
  repositories['*'] = [{ permissions: { contents: 'read' } }];
  return JSON.stringify({ repositories });
}

const round = (label: string, server: ServerProcess, request: LoadRequest): Promise<CpuRound> => cpuRound(label, server, request, { connections: CONNECTIONS, seconds: SECONDS });

/** Nanoseconds per call of `fn`, the median of a few timed batches. */
function nanosPer(fn: () => unknown, calls: number): number {
  const batches: number[] = [];
  for (let b = 0; b < 7; b++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    batches.push(Number(process.hrtime.bigint() - t) / calls);
  }
  return median(batches);
}

async function main(): Promise<void> {
  const text = thousandRepositoryPolicy();
  const policy = parsePolicy(text);
  if (policy.entries.size !== REPOSITORIES + 2) throw new Error(`the policy has ${policy.entries.size} entries`);

  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const env = { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem };
  const none = await startBackendProcess(env);
  const withPolicy = await startBackendProcess({ ...env, BROKER_POLICY: text });
  try {
    const claims = { aud: BROKER_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 1800, event_name: 'push' };
    const oidcToken = await issuer.mint(claims);
    const tokenClaims = issuer.claims(claims);
    const decideNs = nanosPer(() => decide(policy, REPO, tokenClaims), 20_000);
    const parseMs = nanosPer(() => parsePolicy(text), 3) / 1e6;

    const request = { path: '/token', method: 'POST' as const, body: JSON.stringify({ oidcToken, owner: 'octo-org', repo: 'octo-repo' }) };
    for (const server of [none, withPolicy]) await load(server.url, request, { connections: CONNECTIONS, seconds: 2 });
    const runs = { none: [] as CpuRound[], policy: [] as CpuRound[] };
    for (let i = 0; i < ROUNDS; i++) {
      // Both at once: each round's ratio is taken under the same machine conditions (other
      // processes, clock speed), which on a shared machine drift more than 5 % between rounds.
      // Which one autocannon starts first alternates, so neither always opens its connections first.
      const [a, b] =
        i % 2 === 0
          ? await Promise.all([round('none', none, request), round('policy', withPolicy, request)])
          : await Promise.all([round('policy', withPolicy, request), round('none', none, request)]).then(([p, n]) => [n, p] as const);
      runs.none.push(a);
      runs.policy.push(b);
    }
    const paired = (of: (r: CpuRound) => number) => median(runs.policy.map((r, i) => of(r) / of(runs.none[i]!)));
    const rpsRatio = paired((r) => r.rps);
    const cpuRatio = paired((r) => r.cpuPerRequest);
    const p99Ratio = paired((r) => r.p99Ms);
    const figures: Figure[] = [
      { name: 'token-policy.rps', value: Math.round(median(runs.policy.map((r) => r.rps))), limit: Math.round(median(runs.none.map((r) => r.rps))), limit_name: '/token without a policy', ratio: rpsRatio, target: 'ratio >= 0.95 (median of per-round ratios)', met: rpsRatio >= 0.95 },
      { name: 'token-policy.cpu_us_per_request', value: Math.round(median(runs.policy.map((r) => r.cpuPerRequest)) * 1e6), limit: Math.round(median(runs.none.map((r) => r.cpuPerRequest)) * 1e6), limit_name: 'its CPU per request without a policy', ratio: cpuRatio, target: 'ratio <= 1.05 (median of per-round ratios)', met: cpuRatio <= 1.05 },
      { name: 'token-policy.p99_ms', value: median(runs.policy.map((r) => r.p99Ms)), limit: median(runs.none.map((r) => r.p99Ms)), limit_name: 'its p99 without a policy', ratio: p99Ratio, target: 'reference' },
      { name: 'token-policy.decide_ns', value: Math.round(decideNs), limit: Math.round(median(runs.none.map((r) => r.cpuPerRequest)) * 1e9), limit_name: "a request's CPU without a policy (ns)", target: 'reference' },
    ];
    emit('token-policy', { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, repositories: REPOSITORIES, policy_bytes: text.length, policy_parse_ms: parseMs }, figures);
  } finally {
    await Promise.all([none.stop(), withPolicy.stop()]);
    await Promise.all([github.close(), issuer.close()]);
  }
}

await main();
