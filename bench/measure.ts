import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Measured {
  readonly wallMs: number;
  readonly maxRssKb: number;
  /** Heap in use after a full collection at exit; only when the script ran with --expose-gc. */
  readonly heapAfterGcKb?: number;
  readonly code: number | null;
  readonly stdout: string;
}

/** Runs a node script with the peak-memory reporter; returns wall time, peak RSS and stdout. */
export function measure(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', join(ROOT, 'bench', 'max-rss.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(stderr);
      if (!rss) return reject(new Error(`no memory figure:\n${stderr}`));
      const heap = /BENCH_HEAP_AFTER_GC_KB=(\d+)/.exec(stderr);
      resolve({ wallMs, maxRssKb: Number(rss[1]), ...(heap ? { heapAfterGcKb: Number(heap[1]) } : {}), code, stdout });
    });
  });
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One benchmark figure beside its limit; `met` is absent for reference figures (no target). */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly limit: number;
  readonly limit_name: string;
  /** value ÷ limit unless given (a target may be on another ratio). */
  readonly ratio?: number;
  readonly target: string;
  readonly met?: boolean;
}

/**
 * Prints one JSON line per figure (what `npm run bench` collects) and keeps the benchmark's own
 * file in bench/results/ (gitignored) for runs of a single benchmark.
 */
export function emit(bench: string, meta: Record<string, unknown>, figures: Figure[]): void {
  const lines = figures.map((f) => ({
    bench,
    ...f,
    value: round(f.value),
    limit: round(f.limit),
    ratio: round(f.ratio ?? f.value / f.limit),
  }));
  for (const line of lines) console.log(JSON.stringify(line));
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `${bench}.json`), `${JSON.stringify({ meta: { ...meta, node: process.version, date: new Date().toISOString() }, figures: lines }, null, 2)}\n`);
}

const round = (n: number): number => (Number.isInteger(n) ? n : +n.toPrecision(4));
