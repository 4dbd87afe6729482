import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCHES, END, renderResults, START, type BenchResults } from '../../bench/report.js';
import { REPO_ROOT } from '../support/processes.js';

// The shape of what `npm run bench` wrote last (committed with docs/benchmarks.md), not the speed.
describe('bench/results.json', () => {
  const results = JSON.parse(readFileSync(join(REPO_ROOT, 'bench', 'results.json'), 'utf8')) as BenchResults;

  it('names the machine, the Node version, the date and how long the run took', () => {
    const { meta } = results;
    assert.match(meta.date, /^\d{4}-\d\d-\d\dT/);
    assert.match(meta.node, /^v\d+\.\d+\.\d+$/);
    assert.match(meta.cpus, /^\d+ × /);
    assert.equal(typeof meta.platform, 'string');
    assert.ok(Number.isInteger(meta.memory_gib) && meta.memory_gib > 0);
    assert.ok(meta.duration_s > 0 && meta.duration_s < 600, `the run took ${meta.duration_s} s (under 10 minutes is the bound)`);
  });

  it('holds figures of every benchmark, each beside its limit with its ratio and target', () => {
    assert.deepEqual([...new Set(results.figures.map((f) => f.bench))].sort(), BENCHES.map((b) => b.name).sort());
    const names = new Set<string>();
    for (const f of results.figures) {
      assert.ok(f.name.startsWith(`${f.bench}.`), f.name);
      assert.ok(!names.has(f.name), `${f.name} twice`);
      names.add(f.name);
      for (const n of [f.value, f.limit, f.ratio]) assert.ok(typeof n === 'number' && Number.isFinite(n), `${f.name}: ${n}`);
      assert.ok(f.limit_name.length > 0 && f.target.length > 0, f.name);
      // A figure with a target says whether it was met; a reference figure does not.
      if (f.target.startsWith('reference')) assert.equal(f.met, undefined, f.name);
      else assert.equal(typeof f.met, 'boolean', f.name);
    }
  });

  it('has every figure the issue asks for', () => {
    const names = new Set(results.figures.map((f) => f.name));
    for (const name of ['token.direct_mint.p99_ms', 'token.p99_ms', 'token.cpu_ms_per_token', 'token.github_calls_per_token', 'token.minimal.p99_ms', 'token.minimal.cpu_ms_per_token', 'webhook.slow_uploads.rss_growth_bytes', 'webhook.token_during.failed', 'ledger.post_open_200rps.p99_ms', 'ledger.post_new.rps', 'ledger.post_duplicate.rps', 'ledger.get.rps', 'gate.wall_ms', 'gate.peak_rss_bytes', 'sync.wall_ms', 'load.token.failed_requests', 'load.ledger.failed_requests', 'load.token.heap_growth', 'load.ledger.heap_growth']) {
      assert.ok(names.has(name), `${name} missing`);
    }
    for (const bundle of ['gate', 'gate/cli', 'record-deployment', 'request-token', 'request-token/post', 'sync', 'sync/cli']) {
      assert.ok(names.has(`actions.${bundle}.startup_above_node.ms`), `start-up of ${bundle} missing`);
      assert.ok(names.has(`actions.${bundle}.bytes`), `size of ${bundle} missing`);
    }
  });

  it('is what docs/benchmarks.md shows', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'benchmarks.md'), 'utf8');
    const between = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END));
    assert.equal(between, `\n${renderResults(results)}`);
  });
});
