/**
 * The ledger as its callers meet it, on the in-memory store, the backend held to one core
 * (taskset: every thread of the process, libuv's pool included; the load generator kept off it):
 * - `POST /v1/deployments` offered at 200 requests a second in an open loop (each sent when due,
 *   answered or not; latency counted from that moment): p99 ≤ 20 ms. That rate is far above the
 *   deployments of any CI fleet.
 * - capacity: new records a second at concurrency 50 (autocannon, closed loop): ≥ 1,000.
 * - for reference: the duplicate answer and `GET /v1/deployments?limit=100` once the store holds
 *   every record of the capacity rounds.
 * Then `GET /v1/deployments/metrics` over 10,000 records of one repository (bench/ledger-figures.ts).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_AUDIENCE, TestIssuer } from '../test/support/oidc-issuer.js';
import { clean, cpuRound, keepOffServerCore, load, openLoop, startBackendProcess, type CpuRound, type LoadRequest } from './http-load.js';
import { FIGURES_RECORDS, ledgerFiguresBench } from './ledger-figures.js';
import { emit, median, type Figure } from './measure.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN_RATE = 200;
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 20);
const P99_LIMIT_MS = 20;
const CAPACITY_LIMIT = 1000;

const deployment = (deliveryId: string) =>
  JSON.stringify({ delivery_id: deliveryId, environment: 'production', status: 'success', version: '1.4.2', commit: 'a'.repeat(40), duration_ms: 93_000 });

async function main(): Promise<void> {
  keepOffServerCore();
  const issuer = await TestIssuer.start();
  const ledger = await startBackendProcess({ OIDC_ISSUER: issuer.url, LEDGER_AUDIENCE: DEFAULT_AUDIENCE, LEDGER_ALLOWED_OWNERS: 'octo-org' }, { oneCore: true });
  try {
    const token = await issuer.mint({ exp: Math.floor(Date.now() / 1000) + 1800 });
    const headers = { authorization: `Bearer ${token}` };
    const postNew: LoadRequest = { path: '/v1/deployments', method: 'POST', headers, body: () => deployment(randomUUID()) };
    const postDuplicate: LoadRequest = { path: '/v1/deployments', method: 'POST', headers, body: deployment('bench-duplicate') };
    const get: LoadRequest = { path: '/v1/deployments?limit=100', headers };
    const opts = { connections: CONNECTIONS, seconds: SECONDS };
    clean('warm-up ledger', await load(ledger.url, postNew, { connections: CONNECTIONS, seconds: 2 }));

    const open = await openLoop('ledger', ledger.url, postNew, { rate: OPEN_RATE, seconds: OPEN_SECONDS });
    const runs = { post_new: [] as CpuRound[], post_duplicate: [] as CpuRound[], get: [] as CpuRound[] };
    for (let i = 0; i < ROUNDS; i++) {
      runs.post_new.push(await cpuRound('POST new', ledger, postNew, opts));
      runs.post_duplicate.push(await cpuRound('POST duplicate', ledger, postDuplicate, opts));
    }
    for (let i = 0; i < ROUNDS; i++) runs.get.push(await cpuRound('GET', ledger, get, opts));
    const rps = (list: CpuRound[]) => median(list.map((r) => r.rps));
    const cpuMs = (list: CpuRound[]) => +(median(list.map((r) => r.cpuPerRequest)) * 1000).toFixed(3);
    const capacity = rps(runs.post_new);
    const figures: Figure[] = [
      { name: 'ledger.post_open_200rps.p99_ms', value: open.p99Ms, limit: P99_LIMIT_MS, limit_name: `${P99_LIMIT_MS} ms`, target: `value <= ${P99_LIMIT_MS} ms`, met: open.p99Ms <= P99_LIMIT_MS },
      { name: 'ledger.post_open_200rps.p50_ms', value: open.p50Ms, limit: P99_LIMIT_MS, limit_name: `${P99_LIMIT_MS} ms`, target: 'reference' },
      { name: 'ledger.post_new.rps', value: Math.round(capacity), limit: CAPACITY_LIMIT, limit_name: `${CAPACITY_LIMIT} records/s on one core`, target: `value >= ${CAPACITY_LIMIT}`, met: capacity >= CAPACITY_LIMIT },
      { name: 'ledger.post_new.cpu_ms_per_record', value: cpuMs(runs.post_new), limit: 1000 / CAPACITY_LIMIT, limit_name: 'one core ÷ the capacity target', target: 'reference' },
      { name: 'ledger.post_duplicate.rps', value: Math.round(rps(runs.post_duplicate)), limit: CAPACITY_LIMIT, limit_name: `${CAPACITY_LIMIT} records/s on one core`, target: 'reference' },
      { name: 'ledger.get.rps', value: Math.round(rps(runs.get)), limit: CAPACITY_LIMIT, limit_name: `${CAPACITY_LIMIT} records/s on one core`, target: 'reference' },
      // The delivery figures over a large history (bench/ledger-figures.ts), after the load rounds.
      ...(await ledgerFiguresBench()),
    ];
    emit(
      'ledger',
      { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, open_rate: OPEN_RATE, open_seconds: OPEN_SECONDS, open_max_ms: open.maxMs, records_at_get: runs.post_new.reduce((n, r) => n + r.requests, 0) + open.sent, metrics_records: FIGURES_RECORDS },
      figures,
    );
  } finally {
    await ledger.stop();
    await issuer.close();
  }
}

await main();
