/**
 * `npm run bench:sync`: `gatehouse-sync sync` (the dist bundle, as users run it) over 500
 * Dependency-Track projects of 40 findings each, with loopback fakes of Dependency-Track and
 * DefectDojo that answer 20 ms after each request arrives, their own work done meanwhile
 * (`answerAfter`). Wall time beside the bound computed in the same run
 * (requests × latency ÷ concurrency); peak memory at 100 and at 500 projects, which should be
 * flat. Medians of several rounds. Then two runs over unchanged sources (bench/sync-unchanged.ts):
 * uploads and GitHub requests counted against the primary limit in the second run. One JSON line
 * per figure; results in bench/results/sync.json.
 */
import { join } from 'node:path';
import { FakeDefectDojo } from '../test/support/fake-defectdojo.js';
import { FakeDependencyTrack } from '../test/support/fake-dependency-track.js';
import { fpfProject } from '../test/sync/support.js';
import { emit, measure, median, ROOT } from './measure.js';
import { unchangedFigures } from './sync-unchanged.js';

const FINDINGS = 40;
const LATENCY_MS = 20;
const CONCURRENCY = 8;
const PAGE_SIZE = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// DESIGN: peak RSS at 1,000 projects at most 256 MB (the ratio from 100 to 500 projects is information).
const PEAK_RSS_1000_BYTES = 256 * 1024 * 1024;

interface SizeResult {
  readonly projects: number;
  readonly wallMs: number;
  readonly boundMs: number;
  readonly peakRssBytes: number;
  readonly retainedBytes: number;
  readonly exportBytes: number;
}

async function runSize(projects: number): Promise<SizeResult> {
  const dt = await FakeDependencyTrack.start();
  const dd = await FakeDefectDojo.start();
  try {
    dt.delayMs = LATENCY_MS;
    dd.delayMs = LATENCY_MS;
    dd.keepUploads = false;
    for (let i = 0; i < projects; i++) dt.projects.push(fpfProject(i, FINDINGS));
    const env = {
      PATH: process.env.PATH,
      SYNC_DEPENDENCYTRACK_URL: dt.url,
      SYNC_DEFECTDOJO_URL: dd.url,
      DEPENDENCY_TRACK_API_KEY: dt.apiKey,
      DEFECTDOJO_TOKEN: dd.token,
    };
    const cli = join(ROOT, 'dist', 'sync', 'cli', 'index.js');
    const walls: number[] = [];
    const rss: number[] = [];
    const retained: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round sends every report again: the digests of the round before are forgotten (the unchanged case is measured apart).
      for (const test of dd.tests) test.buildId = '';
      const run = await measure(['--expose-gc', cli, 'sync', '--json', '--concurrency', String(CONCURRENCY)], env);
      const report = JSON.parse(run.stdout) as { ok: boolean; totals: { synced: number; findings: number } };
      if (run.code !== 0 || !report.ok || report.totals.synced !== projects || report.totals.findings !== projects * FINDINGS) {
        throw new Error(`sync did not sync all ${projects} projects: ${run.stdout.slice(0, 400)}`);
      }
      walls.push(run.wallMs);
      rss.push(run.maxRssKb * 1024);
      retained.push((run.heapAfterGcKb ?? NaN) * 1024);
    }
    // Every request waits LATENCY_MS; CONCURRENCY of them overlap. The two credential checks
    // (DefectDojo's token and Dependency-Track's key, made together) come first. DefectDojo's
    // product list is read while Dependency-Track lists its projects: not counted apart.
    const requests = Math.ceil(projects / PAGE_SIZE) + 2 * projects;
    const exportBytes = dt.projects.reduce((n, p) => n + Buffer.byteLength(dt.documentOf(p)), 0);
    return { projects, wallMs: median(walls), boundMs: (requests * LATENCY_MS) / CONCURRENCY + LATENCY_MS, peakRssBytes: median(rss), retainedBytes: median(retained), exportBytes };
  } finally {
    await dt.close();
    await dd.close();
  }
}

async function main(): Promise<void> {
  const small = await runSize(100);
  const large = await runSize(500);
  // A third size shows whether peak RSS keeps growing (something retained) or levels off (V8 sizing its heap).
  const larger = await runSize(1000);
  // Two runs over unchanged sources (bench/sync-unchanged.ts), after the sizes: the machine is otherwise idle.
  const unchanged = await unchangedFigures();
  const ratio = large.wallMs / large.boundMs;
  const growth = large.peakRssBytes / small.peakRssBytes;
  const retainedGrowth = large.retainedBytes / small.retainedBytes;
  emit('sync', { findings_per_project: FINDINGS, latency_ms: LATENCY_MS, concurrency: CONCURRENCY, rounds: ROUNDS }, [
    { name: 'sync.wall_ms', value: Math.round(large.wallMs), limit: Math.round(large.boundMs), limit_name: 'requests × 20 ms ÷ concurrency 8, 500 projects', ratio, target: 'ratio <= 1.5', met: ratio <= 1.5 },
    { name: 'sync.wall_ms_100', value: Math.round(small.wallMs), limit: Math.round(small.boundMs), limit_name: 'requests × 20 ms ÷ concurrency 8, 100 projects', target: 'reference' },
    // DESIGN retired this ratio (V8's young generation grows with the allocation rate, not with data): information.
    { name: 'sync.peak_rss_bytes_500', value: large.peakRssBytes, limit: small.peakRssBytes, limit_name: 'peak RSS at 100 projects', ratio: growth, target: 'reference' },
    { name: 'sync.peak_rss_bytes_1000', value: larger.peakRssBytes, limit: PEAK_RSS_1000_BYTES, limit_name: '256 MB', target: 'value <= 256 MB', met: larger.peakRssBytes <= PEAK_RSS_1000_BYTES },
    { name: 'sync.retained_heap_bytes_500', value: large.retainedBytes, limit: small.retainedBytes, limit_name: 'retained heap at 100 projects', ratio: retainedGrowth, target: 'ratio <= 1.2 (flat)', met: retainedGrowth <= 1.2 },
    { name: 'sync.export_bytes_500', value: large.exportBytes, limit: large.peakRssBytes, limit_name: 'peak RSS at 500 projects', target: 'reference' },
    ...unchanged,
  ]);
}

await main();
