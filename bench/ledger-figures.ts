/**
 * `GET /v1/deployments/metrics` over a large history: 10,000 records of one repository in the
 * in-memory store (90 days, three environments, every status, most with committed_at), answered
 * by the real app in this process over loopback HTTP, one request at a time. Beside it, in the
 * same run and interleaved with it, `GET /healthz` (same server, same HTTP path, no store work)
 * as the floor. Target: p95 < 50 ms for the metrics (issue 21).
 */
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../server/app.js';
import { createLogger } from '../server/logger.js';
import { createMemoryStore } from '../server/store/memory.js';
import type { DeploymentRecord, DeploymentStatus } from '../server/store/types.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../test/support/oidc-issuer.js';
import { median, type Figure } from './measure.js';

export const FIGURES_RECORDS = 10_000;
const REQUESTS = Number(process.env.BENCH_FIGURES_REQUESTS ?? 300);
const DAY = 86_400_000;
const STATUSES: DeploymentStatus[] = ['success', 'success', 'success', 'success', 'success', 'success', 'failure', 'rolled-back', 'skipped'];
const ENVIRONMENTS = ['production', 'staging', 'preview'];

const nearest = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.ceil((p * values.length) / 100) - 1]!;

/** 10,000 records spread over the last 90 days, oldest first, as the ledger would have recorded them. */
function history(now: number): DeploymentRecord[] {
  const records: DeploymentRecord[] = [];
  for (let i = 0; i < FIGURES_RECORDS; i++) {
    const recordedAt = new Date(now - 90 * DAY + Math.floor((i * 90 * DAY) / FIGURES_RECORDS));
    records.push({
      deploymentId: `0190a5b4-0000-7000-8000-${i.toString(16).padStart(12, '0')}`,
      repositoryId: '123456789',
      repository: 'octo-org/octo-repo',
      deliveryId: `bench-${i}`,
      environment: ENVIRONMENTS[i % ENVIRONMENTS.length]!,
      status: STATUSES[(i * 7) % STATUSES.length]!,
      mode: 'deploy',
      version: `1.${i}.0`,
      commit: 'a'.repeat(40),
      ...(i % 5 === 0 ? {} : { committedAt: new Date(recordedAt.getTime() - ((i * 7919) % (3 * DAY))) }),
      recordedAt,
      expireAt: new Date(recordedAt.getTime() + 365 * DAY),
    });
  }
  return records;
}

/** The metrics figures: p95 and median of each query shape, and the /healthz floor of the same run. */
export async function ledgerFiguresBench(): Promise<Figure[]> {
  const issuer = await TestIssuer.start();
  const store = createMemoryStore();
  const now = Date.now();
  for (const record of history(now)) await store.deployments.insert(record, new Date(now));
  const env = {
    OIDC_ISSUER: issuer.url,
    LEDGER_AUDIENCE: DEFAULT_AUDIENCE,
    LEDGER_ALLOWED_OWNERS: 'octo-org',
    // Pinned keys: no key-set fetch inside the measured requests.
    LEDGER_JWKS_DOCUMENT: JSON.stringify(issuer.jwks()),
  };
  const server = createServer(createApp({ env: () => env, store, logger: createLogger({ level: 'silent' }), version: 'bench' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const headers = { authorization: `Bearer ${await issuer.mint({ exp: Math.floor(now / 1000) + 3600 })}` };
    const time = async (path: string): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = (await res.json()) as { deployments?: { total: number } };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
      if (path.includes('metrics') && !(body.deployments && body.deployments.total > 0)) throw new Error(`${path}: no records counted`);
      return ms;
    };
    const shapes = {
      all_30d: '/v1/deployments/metrics',
      production_30d: '/v1/deployments/metrics?environment=production',
      all_90d: '/v1/deployments/metrics?days=90',
    } as const;
    const samples: Record<keyof typeof shapes | 'healthz', number[]> = { all_30d: [], production_30d: [], all_90d: [], healthz: [] };
    for (let i = 0; i < 20; i++) for (const path of [...Object.values(shapes), '/healthz']) await time(path);
    // Interleaved: each round takes every shape once, so a noisy moment hits them alike.
    for (let i = 0; i < REQUESTS; i++) {
      for (const [name, path] of Object.entries(shapes) as [keyof typeof shapes, string][]) samples[name].push(await time(path));
      samples.healthz.push(await time('/healthz'));
    }
    const floor = nearest(samples.healthz, 95);
    const figures: Figure[] = [];
    for (const name of Object.keys(shapes) as (keyof typeof shapes)[]) {
      const p95 = nearest(samples[name], 95);
      figures.push({ name: `ledger.metrics_${name}_p95_ms`, value: p95, limit: floor, limit_name: 'GET /healthz p95, same server', ratio: p95 / 50, target: 'p95 < 50 ms', met: p95 < 50 });
      figures.push({ name: `ledger.metrics_${name}_p50_ms`, value: median(samples[name]), limit: median(samples.healthz), limit_name: 'GET /healthz p50, same server', target: 'reference' });
    }
    return figures;
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await issuer.close();
  }
}
