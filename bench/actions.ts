/**
 * Start-up of every bundle in dist/: time from spawn to its first output, on a path that needs no
 * network (the runs the bundle test makes), beside `node -e 0` measured in the same run (spawn
 * to exit); and the size of each bundle file. Rounds alternate bundles and the baseline; medians.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI_ARGS, MAIN_INPUTS, POST_INPUTS } from '../test/support/bundle-runs.js';
import { actionEnv } from '../test/support/runner.js';
import { emit, median, ROOT, type Figure } from './measure.js';

const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 15);
const DIST = join(ROOT, 'dist');
const MB2 = 2 * 1024 * 1024;

interface Entry {
  readonly label: string;
  readonly file: string;
  readonly args: string[];
  readonly inputs?: Record<string, string>;
}

/** Milliseconds from spawn to the first byte on stdout or stderr (or to exit, if it prints nothing). */
function firstOutputMs(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let at: number | undefined;
    const mark = () => (at ??= Number(process.hrtime.bigint() - started) / 1e6);
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', mark);
    child.stderr.on('data', mark);
    child.on('error', reject);
    child.on('close', () => resolve(mark()));
  });
}

function entries(): Entry[] {
  const list: Entry[] = [];
  for (const name of readdirSync(DIST).sort()) {
    if (!existsSync(join(DIST, name, 'index.js'))) continue;
    list.push({ label: name, file: join(DIST, name, 'index.js'), args: [], inputs: MAIN_INPUTS[name] ?? {} });
    if (existsSync(join(DIST, name, 'post', 'index.js'))) list.push({ label: `${name}/post`, file: join(DIST, name, 'post', 'index.js'), args: [], inputs: POST_INPUTS[name] ?? {} });
    if (existsSync(join(DIST, name, 'cli', 'index.js'))) list.push({ label: `${name}/cli`, file: join(DIST, name, 'cli', 'index.js'), args: CLI_ARGS });
  }
  return list;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-actions-'));
  try {
    const list = entries();
    const times = new Map<string, number[]>(list.map((e) => [e.label, []]));
    const baseline: number[] = [];
    const run = (e: Entry) => {
      const env = e.inputs ? actionEnv(e.file, e.inputs, work) : { PATH: process.env.PATH ?? '' };
      return firstOutputMs([e.file, ...e.args], env, work);
    };
    for (const e of list) await run(e); // warms the page cache
    for (let i = 0; i < ROUNDS; i++) {
      baseline.push(await firstOutputMs(['-e', '0'], { PATH: process.env.PATH ?? '' }, work));
      for (const e of list) times.get(e.label)!.push(await run(e));
    }
    const base = median(baseline);
    const figures: Figure[] = [{ name: 'actions.node_e_0.ms', value: base, limit: base, limit_name: 'node -e 0, spawn to exit', target: 'reference' }];
    for (const e of list) {
      const above = median(times.get(e.label)!) - base;
      figures.push({ name: `actions.${e.label}.startup_above_node.ms`, value: above, limit: 150, limit_name: 'target above node -e 0', target: 'value < 150', met: above < 150 });
    }
    // Each entry file, and per bundle folder its largest lazily loaded chunk (ncc numbers chunks
    // by content, so a chunk's file name is not a stable figure name).
    for (const e of list) {
      const size = statSync(e.file).size;
      figures.push({ name: `actions.${e.label}.bytes`, value: size, limit: MB2, limit_name: '2 MB', target: 'value < 2 MB', met: size < MB2 });
      const dir = dirname(e.file);
      const chunks = readdirSync(dir).filter((f) => /^\d+\.index\.js$/.test(f)).map((f) => statSync(join(dir, f)).size);
      if (chunks.length > 0) {
        const largest = Math.max(...chunks);
        figures.push({ name: `actions.${e.label}.largest_chunk.bytes`, value: largest, limit: MB2, limit_name: `2 MB (${chunks.length} chunks, loaded on demand)`, target: 'value < 2 MB', met: largest < MB2 });
      }
    }
    emit('actions', { rounds: ROUNDS, baseline: 'node -e 0, spawn to exit' }, figures);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
