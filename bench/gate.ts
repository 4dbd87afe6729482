/**
 * `npm run bench:gate`: `gate ci` (the dist bundle, as users run it) on a generated SARIF of
 * 100,000 results over a generated repository whose pull request changes 2,000 files, beside the
 * lower bound measured in the same run (JSON.parse of the same file plus git diff of the same
 * range). Medians of several rounds; one JSON line per figure; results in bench/results/gate.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emit, measure, median, ROOT } from './measure.js';
const FILES = 2000;
const LINES = 80;
const RESULTS = 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
}

/** 2,000 files at base; the pull request adds 5 lines to each and 20 new files. */
function makeRepository(dir: string): { base: string; head: string } {
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'config', 'user.email', 'bench@example.com');
  git(dir, 'config', 'user.name', 'bench');
  git(dir, 'config', 'commit.gpgsign', 'false');
  const body = (i: number, extra: boolean) =>
    Array.from({ length: LINES }, (_, n) => (extra && n % 16 === 3 ? `changed ${i}:${n}` : `const v${n} = ${i * LINES + n};`)).join('\n') + '\n';
  for (let i = 0; i < FILES; i++) {
    mkdirSync(join(dir, `src/m${i % 50}`), { recursive: true });
    writeFileSync(join(dir, `src/m${i % 50}/f${i}.js`), body(i, false));
  }
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '--quiet', '-b', 'pr');
  for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `src/m${i % 50}/f${i}.js`), body(i, true));
  for (let i = 0; i < 20; i++) writeFileSync(join(dir, `src/new${i}.js`), body(i, false));
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '-m', 'pr');
  return { base, head: git(dir, 'rev-parse', 'HEAD') };
}

function makeSarif(path: string): void {
  const levels = ['error', 'warning', 'note'];
  const results = Array.from({ length: RESULTS }, (_, k) => ({
    ruleId: `rule-${k % 40}`,
    level: levels[k % 3],
    message: { text: `Finding ${k}: something worth a look in this line of code.` },
    locations: [{ physicalLocation: { artifactLocation: { uri: `src/m${(k % FILES) % 50}/f${k % FILES}.js` }, region: { startLine: 1 + (k % LINES), startColumn: 1 } } }],
  }));
  const rules = Array.from({ length: 40 }, (_, i) => ({ id: `rule-${i}`, shortDescription: { text: `Rule ${i}` } }));
  writeFileSync(path, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'bench-linter', rules } }, results }] }));
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-bench-gate-'));
  try {
    const repo = join(work, 'repo');
    mkdirSync(repo);
    const { base, head } = makeRepository(repo);
    const sarif = join(work, 'report.sarif');
    makeSarif(sarif);
    const sarifBytes = statSync(sarif).size;
    // BENCH_GATE_CLI runs another build of the command line (an older dist, kept aside) on the same data.
    const cli = process.env.BENCH_GATE_CLI ?? join(ROOT, 'dist', 'gate', 'cli', 'index.js');
    const gateArgs = [cli, 'ci', '--sarif', sarif, '--base', base, '--head', head, '--repo', repo, '--fail-on', 'high', '--filtered-out', join(work, 'out.sarif'), '--counts-json', join(work, 'counts.json')];
    const boundArgs = [join(ROOT, 'bench', 'parse-bound.mjs'), sarif, repo, base, head];

    const gateRuns = [];
    const boundRuns = [];
    // Alternated, so both see the same machine state; the first pair also warms the page cache.
    await measure(boundArgs);
    for (let i = 0; i < ROUNDS; i++) {
      boundRuns.push(await measure(boundArgs));
      const run = await measure(gateArgs);
      if (run.code !== 1) throw new Error(`gate ci exited ${run.code}, expected 1 (blocked)`);
      gateRuns.push(run);
    }
    const gateMs = median(gateRuns.map((r) => r.wallMs));
    const boundMs = median(boundRuns.map((r) => r.wallMs));
    const gateRss = median(gateRuns.map((r) => r.maxRssKb)) * 1024;
    const boundRss = median(boundRuns.map((r) => r.maxRssKb)) * 1024;
    emit('gate', { results: RESULTS, changed_files: FILES, rounds: ROUNDS, sarif_bytes: sarifBytes, ...(process.env.BENCH_GATE_CLI ? { cli } : {}) }, [
      { name: 'gate.wall_ms', value: Math.round(gateMs), limit: Math.round(boundMs), limit_name: 'JSON.parse + git diff', target: 'ratio <= 1.5', met: gateMs / boundMs <= 1.5 },
      { name: 'gate.peak_rss_bytes', value: gateRss, limit: boundRss, limit_name: 'JSON.parse + git diff', target: 'ratio <= 1.5', met: gateRss / boundRss <= 1.5 },
      { name: 'gate.bound_peak_rss_bytes', value: boundRss, limit: sarifBytes, limit_name: 'SARIF file size', target: 'reference' },
    ]);
  } finally {
    // BENCH_KEEP=1 keeps the generated repository and report, for profiling (node --cpu-prof).
    if (process.env.BENCH_KEEP) console.error(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

await main();
