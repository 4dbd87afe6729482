/**
 * Sustained load on loopback: autocannon at concurrency 100 against `/token` (with the platform
 * fake) and against the ledger (POSTs over a pool of 1,000 delivery ids, so after the first pass
 * every one is a duplicate and the store stops growing, mixed with history reads), while the
 * server's resident memory and its heap left after a full collection are sampled every second.
 * Zero errors are required; the memory trend is the least-squares slope of the retained-heap
 * samples after a warm-up, as growth over the run (resident memory also moves with V8 sizing
 * its heap, so it is recorded, not judged). Like the ledger's pool of ids, `fillAudit` first
 * brings the broker's one bounded store, the token audit, to its capacity: what grows after
 * that is not bounded.
 * `npm run bench` runs the 30 s form; the load suite (test/load) a short one through tsx.
 */
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROKER_AUDIENCE, INSTALLATION_ID, REPO, REPO_ID } from '../test/support/broker.js';
import { FakeGitHub } from '../test/support/fake-github.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../test/support/oidc-issuer.js';
import { clean, load, residentBytes, startBackendProcess, type LoadRequest, type LoadResult, type ServerProcess } from './http-load.js';

export interface SoakResult extends LoadResult {
  /** Resident memory of the server, one sample per second (where /proc exists). */
  readonly rssSamples: number[];
  /** Heap in use right after a full collection in the server, one sample per second. */
  readonly heapSamples: number[];
  /** Fitted growth of the retained heap after warm-up, as a fraction of its fitted start. */
  readonly heapGrowth: number;
}

export interface SoakOptions {
  readonly seconds: number;
  readonly connections: number;
  /** How the backend runs: compiled from build/ (benchmarks) or through tsx (tests). */
  readonly viaTsx?: boolean;
  /**
   * `/token` only: answered requests sent before the sampled run, so that the in-memory token
   * audit is at its capacity (`MEMORY_AUDIT_CAPACITY`) and drops a record for each it keeps.
   * Without it the audit's bounded growth, one record per token, is what the heap trend shows.
   */
  readonly fillAudit?: number;
}

/** Least-squares line through the samples; its rise over the window relative to its start. */
export function fittedGrowth(samples: number[]): number {
  const n = samples.length;
  if (n < 3) return 0;
  const meanX = (n - 1) / 2;
  const meanY = samples.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  samples.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  const slope = num / den;
  const start = meanY - slope * meanX;
  return (slope * (n - 1)) / start;
}

/** A server started for a soak: it samples its own retained heap into `heapFile`. */
interface SoakServer {
  readonly server: ServerProcess;
  readonly heapFile: string;
  readonly dir: string;
}

async function startSoakServer(env: Record<string, string>, options: SoakOptions): Promise<SoakServer> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-soak-'));
  const heapFile = join(dir, 'heap');
  const server = await startBackendProcess(env, { ...(options.viaTsx ? { viaTsx: true } : {}), heapFile });
  return { server, heapFile, dir };
}

async function stopSoakServer(s: SoakServer): Promise<void> {
  await s.server.stop();
  rmSync(s.dir, { recursive: true, force: true });
}

async function soak(s: SoakServer, request: LoadRequest, options: SoakOptions): Promise<SoakResult> {
  const rss: number[] = [];
  const timer = setInterval(() => {
    const bytes = residentBytes(s.server.pid);
    if (bytes !== undefined) rss.push(bytes);
  }, 1000);
  const skip = existsSync(s.heapFile) ? readFileSync(s.heapFile, 'utf8').split('\n').filter(Boolean).length : 0;
  try {
    const result = await load(s.server.url, request, { connections: options.connections, seconds: options.seconds });
    const heap = existsSync(s.heapFile) ? readFileSync(s.heapFile, 'utf8').split('\n').filter(Boolean).slice(skip).map(Number) : [];
    // The first seconds are caches and JIT warming up, not a trend.
    const warm = heap.slice(Math.min(5, Math.floor(heap.length / 3)));
    return { ...result, rssSamples: rss, heapSamples: heap, heapGrowth: fittedGrowth(warm) };
  } finally {
    clearInterval(timer);
  }
}

const exp = () => Math.floor(Date.now() / 1000) + 3600;

/** `/token` at load: a broker with a zero-latency platform fake. */
export async function soakToken(options: SoakOptions): Promise<SoakResult & { platformCalls: number }> {
  const issuer = await TestIssuer.start();
  const github = await FakeGitHub.start();
  github.addInstallation(INSTALLATION_ID, 'octo-org');
  github.addRepo(REPO, REPO_ID, INSTALLATION_ID);
  const broker = await startSoakServer(
    { OIDC_ISSUER: issuer.url, FORGE_API_BASE: github.apiBase, FORGE_APP_ID: github.appId, FORGE_APP_PRIVATE_KEY: github.privateKeyPem },
    options,
  );
  try {
    const oidcToken = await issuer.mint({ aud: BROKER_AUDIENCE, exp: exp() });
    const request: LoadRequest = { path: '/token', method: 'POST', body: JSON.stringify({ oidcToken, owner: 'octo-org', repo: 'octo-repo' }) };
    if (options.fillAudit) clean('fill the token audit', await load(broker.server.url, request, { connections: options.connections, amount: options.fillAudit }));
    const before = github.count();
    const result = await soak(broker, request, options);
    return { ...result, platformCalls: github.count() - before };
  } finally {
    await stopSoakServer(broker);
    await Promise.all([github.close(), issuer.close()]);
  }
}

/** The ledger at load: one read in four, writes over a fixed pool of delivery ids. */
export async function soakLedger(options: SoakOptions): Promise<SoakResult> {
  const issuer = await TestIssuer.start();
  const ledger = await startSoakServer({ OIDC_ISSUER: issuer.url, LEDGER_AUDIENCE: DEFAULT_AUDIENCE, LEDGER_ALLOWED_OWNERS: 'octo-org' }, options);
  try {
    const token = await issuer.mint({ exp: exp() });
    const body = () => JSON.stringify({ delivery_id: `load-${randomInt(1000)}`, environment: 'production', status: 'success', version: '1.4.2' });
    const writes = await Promise.all([
      soak(ledger, { path: '/v1/deployments', method: 'POST', headers: { authorization: `Bearer ${token}` }, body }, { ...options, connections: Math.ceil((options.connections * 3) / 4) }),
      load(ledger.server.url, { path: '/v1/deployments?limit=100', headers: { authorization: `Bearer ${token}` } }, { connections: Math.floor(options.connections / 4), seconds: options.seconds }),
    ]);
    const [w, r] = writes;
    return {
      ...w,
      requests: w.requests + r.requests,
      sent: w.sent + r.sent,
      rps: w.rps + r.rps,
      p99Ms: Math.max(w.p99Ms, r.p99Ms),
      errors: w.errors + r.errors,
      non2xx: w.non2xx + r.non2xx,
    };
  } finally {
    await stopSoakServer(ledger);
    await issuer.close();
  }
}
