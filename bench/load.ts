/**
 * `npm run bench`'s load runs: 30 s at concurrency 100 on `/token` (its token audit filled to
 * capacity first) and on the ledger (see soak.ts). Zero errors and no growth trend of the
 * retained heap are the targets; p99 is recorded.
 */
import { MEMORY_AUDIT_CAPACITY } from '../server/store/audit-memory.js';
import { emit, type Figure } from './measure.js';
import { soakLedger, soakToken, type SoakResult } from './soak.js';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const CONNECTIONS = 100;
/** Growth of the fitted memory line over the run that still counts as flat (GC sawtooth, JIT). */
const FLAT = 0.1;

function figures(kind: 'token' | 'ledger', r: SoakResult): Figure[] {
  const failed = r.errors + r.non2xx;
  return [
    { name: `load.${kind}.failed_requests`, value: failed, limit: r.requests, limit_name: 'requests made', target: 'value = 0', met: failed === 0 },
    { name: `load.${kind}.p99_ms`, value: r.p99Ms, limit: r.p50Ms, limit_name: 'its p50', target: 'reference' },
    { name: `load.${kind}.rps`, value: r.rps, limit: r.rps, limit_name: 'itself', target: 'reference' },
    { name: `load.${kind}.heap_growth`, value: r.heapGrowth, limit: FLAT, limit_name: 'fitted growth of the heap left after full GCs, flat below', ratio: r.heapGrowth / FLAT, target: `value < ${FLAT}`, met: r.heapGrowth < FLAT },
    { name: `load.${kind}.heap_last_bytes`, value: r.heapSamples.at(-1) ?? 0, limit: r.heapSamples[0] ?? 0, limit_name: 'at the first sample', target: 'reference' },
    { name: `load.${kind}.rss_last_bytes`, value: r.rssSamples.at(-1) ?? 0, limit: r.rssSamples[0] ?? 0, limit_name: 'RSS at the first sample', target: 'reference' },
  ];
}

// The audit keeps one record per token up to its capacity, then drops the oldest: filled first, so the trend shows what is not bounded.
const token = await soakToken({ seconds: SECONDS, connections: CONNECTIONS, fillAudit: MEMORY_AUDIT_CAPACITY });
const ledger = await soakLedger({ seconds: SECONDS, connections: CONNECTIONS });
emit('load', { seconds: SECONDS, connections: CONNECTIONS, token_audit_filled: MEMORY_AUDIT_CAPACITY, token_requests: token.requests, ledger_requests: ledger.requests, token_platform_calls: token.platformCalls, token_requests_sent: token.sent }, [
  ...figures('token', token),
  ...figures('ledger', ledger),
]);
