/**
 * HTTP load against a server in another process: closed loop with autocannon, open loop at a
 * fixed rate with undici; and the servers those runs need, the real backend and the minimal
 * broker (compiled, and started with the flags they are deployed with). Shared by the /token and
 * ledger benchmarks, the 30 s load runs and the load suite's short form.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { ROOT } from './measure.js';

export interface LoadRequest {
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  /** A fixed body, or one made for each request (for example a fresh delivery id). */
  readonly body?: string | (() => string);
}

export interface LoadResult {
  /** Requests answered within the run. */
  readonly requests: number;
  /** Requests sent, answered or not when the run ended (what the server may have worked on). */
  readonly sent: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
}

/** A closed loop of `connections` clients for `seconds`, or until `amount` requests were answered. */
export async function load(url: string, request: LoadRequest, options: { connections: number } & ({ seconds: number } | { amount: number })): Promise<LoadResult> {
  const { body } = request;
  const result = await autocannon({
    url: url + request.path,
    connections: options.connections,
    ...('amount' in options ? { amount: options.amount } : { duration: options.seconds }),
    timeout: 10,
    requests: [
      {
        method: request.method ?? 'GET',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
        ...(typeof body === 'function' ? { setupRequest: (req) => ({ ...req, body: body() }) } : body === undefined ? {} : { body }),
      },
    ],
  });
  return {
    requests: result.requests.total,
    sent: result.requests.sent,
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface OpenLoopResult {
  readonly sent: number;
  /** From the moment each request was due, so a server that falls behind shows it (no coordinated omission). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** The latencies of one open loop, unsorted, and how many of its requests failed. */
interface OpenLoopSamples {
  readonly sent: number;
  readonly failed: number;
  readonly latencies: number[];
}

/**
 * Open loop: `rate` requests a second for `seconds`, each sent when it is due whether or not the
 * earlier ones were answered (as independent CI jobs arrive), over as many connections as needed.
 * A loop with failed requests is refused (as `clean` refuses a load run).
 */
export async function openLoop(label: string, url: string, request: LoadRequest, options: { rate: number; seconds: number }): Promise<OpenLoopResult> {
  return summarised(label, [await openLoopSamples(url, request, options)]);
}

async function openLoopSamples(url: string, request: LoadRequest, options: { rate: number; seconds: number }): Promise<OpenLoopSamples> {
  const pool = new Pool(url, { connections: 256 });
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let failed = 0;
  const send = async (due: number) => {
    const body = typeof request.body === 'function' ? request.body() : request.body;
    try {
      const res = await pool.request({
        path: request.path,
        method: request.method ?? 'GET',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
        ...(body === undefined ? {} : { body }),
      });
      await res.body.dump();
      if (res.statusCode >= 300) failed++;
    } catch {
      failed++;
    }
    latencies.push(performance.now() - due);
  };
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  await pool.close();
  return { sent: total, failed, latencies };
}

/** Percentiles over every latency of the runs, taken together; refused when any request failed. */
function summarised(label: string, runs: readonly OpenLoopSamples[]): OpenLoopResult {
  const sent = runs.reduce((n, r) => n + r.sent, 0);
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  if (failed > 0) throw new Error(`${label} open loop: ${failed} of ${sent} requests failed`);
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const at = (q: number) => +latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
  return { sent, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

/** One target of `alternatingOpenLoops`; `counter` (GitHub calls, say) is read around each of its slices. */
export interface OpenLoopArm {
  readonly label: string;
  readonly url: string;
  readonly request: LoadRequest;
  readonly counter?: () => number;
}

/**
 * Open loops of several targets at the same rate (each refused if a request failed), in
 * `rounds` alternating slices of `seconds / rounds` each (the order rotating every round), each
 * slice after a one-second loop whose latencies are not kept (new connections). A target's
 * figures are taken over all its slices together. Runs one after another would put a slow spell of a shared machine (seen here:
 * 20-30 ms more at p99 for half a minute, with the server's own collections unchanged) on one
 * target alone; alternated, it falls on each alike, and a p99 is compared with its floor's under
 * the same conditions, as DESIGN asks ("in the same run").
 */
export async function alternatingOpenLoops(
  arms: readonly OpenLoopArm[],
  options: { rate: number; seconds: number; rounds: number },
): Promise<Map<string, OpenLoopResult & { counted: number }>> {
  const samples = new Map(arms.map((arm) => [arm.label, [] as OpenLoopSamples[]]));
  const counted = new Map(arms.map((arm) => [arm.label, 0]));
  const slice = options.seconds / options.rounds;
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < arms.length; k++) {
      const arm = arms[(round + k) % arms.length]!;
      await openLoopSamples(arm.url, arm.request, { rate: options.rate, seconds: 1 });
      const before = arm.counter?.() ?? 0;
      samples.get(arm.label)!.push(await openLoopSamples(arm.url, arm.request, { rate: options.rate, seconds: slice }));
      counted.set(arm.label, counted.get(arm.label)! + (arm.counter?.() ?? 0) - before);
    }
  }
  return new Map(arms.map((arm) => [arm.label, { ...summarised(arm.label, samples.get(arm.label)!), counted: counted.get(arm.label)! }]));
}

/** Refuses a run with failed requests: its figures would measure failures, not the route. */
export function clean(label: string, r: LoadResult): LoadResult {
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${label}: ${r.errors} errors and ${r.non2xx} non-2xx answers in ${r.requests} requests`);
  return r;
}

export interface CpuRound extends LoadResult {
  /** CPU seconds the server process used per answered request. */
  readonly cpuPerRequest: number;
}

/** One load run against `server`, with the CPU its process used over the run per answered request. */
export async function cpuRound(label: string, server: ServerProcess, request: LoadRequest, options: { connections: number; seconds: number }): Promise<CpuRound> {
  const before = cpuSeconds(server.pid) ?? NaN;
  const result = clean(label, await load(server.url, request, options));
  const after = cpuSeconds(server.pid) ?? NaN;
  return { ...result, cpuPerRequest: (after - before) / result.requests };
}

/**
 * The flags the servers are deployed with (the Dockerfile's ENTRYPOINT, `npm start`): measured as
 * they run. test/packaging/dockerfiles.test.ts keeps the three in step.
 */
export const DEPLOYED_NODE_FLAGS: readonly string[] = ['--v8-pool-size=1'];

export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a server entry on port 0 with its output going to a file, as a container runtime keeps
 * it (a pipe read by this process would put the server's logging on the load generator's CPU),
 * and waits for its JSON "listening" line there. A server that logs nothing (`LOG_LEVEL=silent`)
 * is given a free port instead and is ready when its `GET /healthz` answers.
 */
async function startServer(entry: string, env: Record<string, string>, ready: string | { readonly healthz: true }, nodeArgs: string[] = [], oneCore = false): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-server-'));
  const logFile = join(dir, 'output.log');
  const fd = openSync(logFile, 'w');
  const quietPort = typeof ready === 'string' ? undefined : await freePort();
  // oneCore: every thread of the process (libuv's pool included) on the last CPU, with taskset.
  const command = oneCore ? ['taskset', '-c', String(cpus().length - 1), process.execPath] : [process.execPath];
  const child = spawn(command[0]!, [...command.slice(1), ...DEPLOYED_NODE_FLAGS, ...nodeArgs, entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(quietPort ?? 0), ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const port = typeof ready === 'string' ? listeningPort(logFile, ready) : (await answers(`http://127.0.0.1:${quietPort}/healthz`)) ? quietPort : undefined;
    if (port !== undefined) return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop };
    await sleep(50);
  }
  const output = readFileSync(logFile, 'utf8');
  await stop();
  throw new Error(`${entry} did not become ready (${typeof ready === 'string' ? `no "${ready}" line` : 'no answer on /healthz'}):\n${output}`);
}

function listeningPort(logFile: string, readyMessage: string): number | undefined {
  const line = readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes(readyMessage));
  return line ? (JSON.parse(line) as { address: { port: number } }).address.port : undefined;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** A port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The backend logging as in production: compiled from build/ (npm run build first), or through
 * tsx from the sources (tests, where build/ may not exist). `heapFile`: once a second the heap
 * left after a full collection is appended there (bench/heap-sampler.mjs).
 * BENCH_CPU_PROF=<dir> writes its CPU profile there (summarise with bench/profile-summary.mjs).
 */
export function startBackendProcess(env: Record<string, string>, options: { viaTsx?: boolean; heapFile?: string; silent?: boolean; oneCore?: boolean } = {}): Promise<ServerProcess> {
  const nodeArgs = [
    ...(options.viaTsx ? ['--import', 'tsx'] : []),
    ...(options.heapFile ? ['--expose-gc', '--import', join(ROOT, 'bench', 'heap-sampler.mjs')] : []),
    ...profileArgs(),
  ];
  const entry = options.viaTsx ? join(ROOT, 'server', 'main.ts') : join(ROOT, 'build', 'server', 'main.js');
  const serverEnv = { ...env, ...(options.heapFile ? { BENCH_HEAP_FILE: options.heapFile } : {}), ...(options.silent ? { LOG_LEVEL: 'silent' } : {}) };
  return startServer(entry, serverEnv, options.silent ? { healthz: true } : 'gatehouse listening', nodeArgs, options.oneCore);
}

/**
 * Moves this process (the load generator and the fakes, every thread) off the CPU that `oneCore`
 * servers run on, so that they have that core to themselves.
 */
export function keepOffServerCore(): void {
  const last = cpus().length - 1;
  if (last > 0) execFileSync('taskset', ['-a', '-p', '-c', `0-${last - 1}`, String(process.pid)], { stdio: 'ignore' });
}

/** The minimal broker, compiled from build/ (npm run build first). */
export function startMinimalProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startServer(join(ROOT, 'build', 'server', 'minimal', 'main.js'), env, 'minimal broker listening', profileArgs());
}

/**
 * `BENCH_CPU_PROF=<dir>`: the servers under load write a CPU profile there. `BENCH_CPU_PROF_INTERVAL`: the sampling
 * interval in µs (V8's default, 1000, is too coarse for a request of a few hundred µs).
 */
function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  const interval = process.env.BENCH_CPU_PROF_INTERVAL;
  return ['--cpu-prof', '--cpu-prof-dir', dir, ...(interval ? ['--cpu-prof-interval', interval] : [])];
}

/** CPU time (user + system) a process has used so far, in seconds, from /proc (Linux). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** Resident memory of a process, from /proc (Linux); undefined where there is no /proc. */
export function residentBytes(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
