/**
 * The ledger under load on the in-memory store: `POST /v1/deployments` with a new delivery id
 * each request and with one repeated id (the duplicate answer), and `GET /v1/deployments?limit=100`
 * once the store holds every record of the POST rounds; beside the bare-verify limit measured in
 * the same run (the same token and body, the same method). Rounds alternate; figures are medians.
 * Then `GET /v1/deployments/metrics` over 10,000 records of one repository (bench/ledger-figures.ts).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_AUDIENCE, TestIssuer } from '../test/support/oidc-issuer.js';
import { clean, load, startBackendProcess, startBareVerify, type LoadRequest, type LoadResult } from './http-load.js';
import { FIGURES_RECORDS, ledgerFiguresBench } from './ledger-figures.js';
import { emit, median, type Figure } from './measure.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const deployment = (deliveryId: string) =>
  JSON.stringify({ delivery_id: deliveryId, environment: 'production', status: 'success', version: '1.4.2', commit: 'a'.repeat(40), duration_ms: 93_000 });

async function main(): Promise<void> {
  const issuer = await TestIssuer.start();
  const ledger = await startBackendProcess({ OIDC_ISSUER: issuer.url, LEDGER_AUDIENCE: DEFAULT_AUDIENCE, LEDGER_ALLOWED_OWNERS: 'octo-org' });
  const limit = await startBareVerify(issuer.jwks(), issuer.url, DEFAULT_AUDIENCE);
  try {
    const token = await issuer.mint({ exp: Math.floor(Date.now() / 1000) + 1800 });
    const headers = { authorization: `Bearer ${token}` };
    const requests: Record<'post_new' | 'post_duplicate' | 'get', LoadRequest> = {
      post_new: { path: '/v1/deployments', method: 'POST', headers, body: () => deployment(randomUUID()) },
      post_duplicate: { path: '/v1/deployments', method: 'POST', headers, body: deployment('bench-duplicate') },
      get: { path: '/v1/deployments?limit=100', headers },
    };
    const limitPost: LoadRequest = { path: '/', method: 'POST', headers, body: () => deployment(randomUUID()) };
    const limitGet: LoadRequest = { path: '/', headers };
    const opts = { connections: CONNECTIONS, seconds: SECONDS };
    clean('warm-up ledger', await load(ledger.url, requests.post_new, { connections: CONNECTIONS, seconds: 2 }));
    clean('warm-up limit', await load(limit.url, limitPost, { connections: CONNECTIONS, seconds: 2 }));

    const runs = { post_new: [] as LoadResult[], post_duplicate: [] as LoadResult[], get: [] as LoadResult[], limit_post: [] as LoadResult[], limit_get: [] as LoadResult[] };
    for (let i = 0; i < ROUNDS; i++) {
      runs.limit_post.push(clean('limit POST', await load(limit.url, limitPost, opts)));
      runs.post_new.push(clean('POST new', await load(ledger.url, requests.post_new, opts)));
      runs.post_duplicate.push(clean('POST duplicate', await load(ledger.url, requests.post_duplicate, opts)));
      runs.limit_get.push(clean('limit GET', await load(limit.url, limitGet, opts)));
      runs.get.push(clean('GET', await load(ledger.url, requests.get, opts)));
    }
    const rps = (list: LoadResult[]) => median(list.map((r) => r.rps));
    const p99 = (list: LoadResult[]) => median(list.map((r) => r.p99Ms));
    const limitPostRps = rps(runs.limit_post);
    const limitGetRps = rps(runs.limit_get);
    const figures: Figure[] = [];
    for (const [kind, limitRps, target] of [
      ['post_new', limitPostRps, 0.5],
      ['post_duplicate', limitPostRps, 0.5],
      ['get', limitGetRps, undefined],
    ] as const) {
      const value = rps(runs[kind]);
      figures.push({
        name: `ledger.${kind}_rps`,
        value: Math.round(value),
        limit: Math.round(limitRps),
        limit_name: `bare node:http + jose verify, ${kind === 'get' ? 'GET' : 'POST'}`,
        ratio: value / limitRps,
        ...(target === undefined ? { target: 'reference' } : { target: `ratio >= ${target}`, met: value / limitRps >= target }),
      });
      figures.push({ name: `ledger.${kind}_p99_ms`, value: p99(runs[kind]), limit: p99(kind === 'get' ? runs.limit_get : runs.limit_post), limit_name: 'bare verify p99', target: 'reference' });
    }
    // The delivery figures over a large history (bench/ledger-figures.ts), after the load rounds.
    figures.push(...(await ledgerFiguresBench()));
    emit('ledger', { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, records_at_get: runs.post_new.reduce((n, r) => n + r.requests, 0), metrics_records: FIGURES_RECORDS }, figures);
  } finally {
    await Promise.all([ledger.stop(), limit.stop()]);
    await issuer.close();
  }
}

await main();
