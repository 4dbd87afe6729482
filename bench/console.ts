/**
 * The console's overview (`GET /console?days=30` and `?days=90`) for a person who can see 200
 * repositories, each with three environments and 90 days of records (two a day per environment,
 * every status, most with committed_at): about 108,000 records on the in-memory store. The real
 * app in this process over loopback HTTP, signed in through the console's GitHub fake, one request
 * at a time, interleaved with `GET /healthz` as the floor. Target (DESIGN.md): p95 ≤ 1 s.
 */
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../server/app.js';
import { createLogger } from '../server/logger.js';
import { createMemoryStore } from '../server/store/memory.js';
import type { DeploymentRecord, DeploymentStatus } from '../server/store/types.js';
import { CookieJar } from '../test/support/console-world.js';
import { FakeGitHubUser, type FakeRepository } from '../test/support/fake-github-user.js';
import { emit, median, type Figure } from './measure.js';

const REPOSITORIES = 200;
const ENVIRONMENTS = ['production', 'staging', 'preview'];
const DAYS = 90;
const PER_DAY = 2;
const REQUESTS = Number(process.env.BENCH_CONSOLE_REQUESTS ?? 100);
const LIMIT_MS = 1000;
const DAY = 86_400_000;
const STATUSES: DeploymentStatus[] = ['success', 'success', 'success', 'success', 'success', 'success', 'failure', 'rolled-back', 'skipped'];

const nearest = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.ceil((p * values.length) / 100) - 1]!;

function history(repositories: readonly FakeRepository[], now: number): DeploymentRecord[] {
  const records: DeploymentRecord[] = [];
  let n = 0;
  for (const r of repositories) {
    for (const [e, environment] of ENVIRONMENTS.entries()) {
      for (let i = 0; i < DAYS * PER_DAY; i++) {
        const recordedAt = new Date(now - DAYS * DAY + Math.floor(((i + e / ENVIRONMENTS.length) * DAY) / PER_DAY));
        records.push({
          deploymentId: `0190a5b4-0000-7000-8000-${(n++).toString(16).padStart(12, '0')}`,
          repositoryId: String(r.id),
          repository: `${r.owner}/${r.name}`,
          deliveryId: `bench-${i}-${environment}`,
          environment,
          status: STATUSES[(i * 7 + r.id) % STATUSES.length]!,
          mode: 'deploy',
          version: `1.${i}.0`,
          ...(i % 5 === 0 ? {} : { committedAt: new Date(recordedAt.getTime() - ((i * 7919) % (3 * DAY))) }),
          recordedAt,
          expireAt: new Date(recordedAt.getTime() + 365 * DAY),
        });
      }
    }
  }
  return records;
}

async function main(): Promise<void> {
  const repositories: FakeRepository[] = Array.from({ length: REPOSITORIES }, (_, i) => ({ id: 800_000 + i, owner: i % 2 ? 'octo-org' : 'octo-labs', name: `service-${i}` }));
  const person = { id: 583231, login: 'mona', access: new Map([[41, repositories.filter((r) => r.owner === 'octo-org').map((r) => r.id)], [42, repositories.filter((r) => r.owner === 'octo-labs').map((r) => r.id)]]) };
  let consoleUrl = '';
  const github = await FakeGitHubUser.start({ clientId: 'Iv23liBench', clientSecret: 'bench-secret', callbackUrl: () => `${consoleUrl}/console/callback`, repositories });
  github.addPerson(person);
  github.signedIn = person;
  const store = createMemoryStore();
  const now = Date.now();
  const records = history(repositories, now);
  for (const record of records) await store.deployments.insert(record, new Date(now));
  const env: Record<string, string> = {
    LEDGER_ALLOWED_OWNERS: 'octo-org,octo-labs',
    FORGE_APP_CLIENT_ID: 'Iv23liBench',
    FORGE_APP_CLIENT_SECRET: 'bench-secret',
    CONSOLE_SESSION_KEY: 'be'.repeat(32),
    FORGE_WEB_BASE: github.url,
    FORGE_API_BASE: github.url,
  };
  const server = createServer(createApp({ env: () => env, store, logger: createLogger({ level: 'silent' }), version: 'bench' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  consoleUrl = base;
  env.CONSOLE_URL = base;
  try {
    const jar = new CookieJar();
    const landed = await jar.follow(`${base}/console`, base);
    if (landed.status !== 200) throw new Error(`sign-in: HTTP ${landed.status}`);
    const time = async (path: string): Promise<number> => {
      const started = performance.now();
      const res = await jar.fetch(`${base}${path}`);
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
      if (path.startsWith('/console') && (text.match(/<tr data-repository=/g) ?? []).length !== REPOSITORIES * ENVIRONMENTS.length) throw new Error(`${path}: not every row shown`);
      return ms;
    };
    const shapes = { overview_200_repos_30d: '/console?days=30', overview_200_repos_90d: '/console?days=90' } as const;
    const samples: Record<keyof typeof shapes | 'healthz', number[]> = { overview_200_repos_30d: [], overview_200_repos_90d: [], healthz: [] };
    for (let i = 0; i < 5; i++) for (const path of [...Object.values(shapes), '/healthz']) await time(path);
    // Interleaved: each round takes every shape once, so a noisy moment hits them alike.
    for (let i = 0; i < REQUESTS; i++) {
      for (const [name, path] of Object.entries(shapes) as [keyof typeof shapes, string][]) samples[name].push(await time(path));
      samples.healthz.push(await time('/healthz'));
    }
    const figures: Figure[] = [];
    for (const name of Object.keys(shapes) as (keyof typeof shapes)[]) {
      const p95 = nearest(samples[name], 95);
      figures.push({ name: `console.${name}_p95_ms`, value: p95, limit: LIMIT_MS, limit_name: `${LIMIT_MS} ms`, target: `p95 <= ${LIMIT_MS} ms`, met: p95 <= LIMIT_MS });
      figures.push({ name: `console.${name}_p50_ms`, value: median(samples[name]), limit: median(samples.healthz), limit_name: 'GET /healthz p50, same server', target: 'reference' });
    }
    emit('console', { repositories: REPOSITORIES, environments: ENVIRONMENTS.length, records: records.length, requests: REQUESTS, github_listings: github.calls.filter((c) => c.route === 'GET /user/installations').length }, figures);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await github.close();
  }
}

await main();
