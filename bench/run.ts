/**
 * `npm run bench`: every benchmark, one after another (they would share two cores otherwise),
 * each in its own process and bounded in time. Collects the JSON figure lines they print into
 * bench/results.json and renders the table of docs/benchmarks.md between its result markers.
 */
import { spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './measure.js';
import { BENCHES, END, renderResults, START, type BenchFigure, type BenchResults } from './report.js';


function runBench(name: string, minutes: number): Promise<BenchFigure[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', `${name}.ts`)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), minutes * 60_000);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`bench/${name}.ts ${signal ? `was stopped after ${minutes} min` : `exited ${code}`}`));
      resolve(out.split('\n').filter((l) => l.startsWith('{"bench":')).map((l) => JSON.parse(l) as BenchFigure));
    });
  });
}

const started = Date.now();
const figures: BenchFigure[] = [];
for (const { name, minutes } of BENCHES) {
  const t = Date.now();
  figures.push(...(await runBench(name, minutes)));
  console.error(`bench/${name}.ts: ${((Date.now() - t) / 1000).toFixed(0)} s`);
}
const cpu = cpus();
const results: BenchResults = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    duration_s: Math.round((Date.now() - started) / 1000),
  },
  figures,
};
writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
const docFile = join(ROOT, 'docs', 'benchmarks.md');
const doc = readFileSync(docFile, 'utf8');
const a = doc.indexOf(START);
const b = doc.indexOf(END);
if (a < 0 || b < a) throw new Error(`docs/benchmarks.md lacks the ${START} … ${END} markers`);
writeFileSync(docFile, `${doc.slice(0, a + START.length)}\n${renderResults(results)}${doc.slice(b)}`);
const missed = figures.filter((f) => f.met === false);
console.log(`\n${figures.length} figures in ${results.meta.duration_s} s; ${missed.length} targets missed${missed.length ? `: ${missed.map((f) => f.name).join(', ')}` : ''}`);
console.log('wrote bench/results.json and the table of docs/benchmarks.md');
