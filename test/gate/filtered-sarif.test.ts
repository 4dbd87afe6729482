import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog, SarifResult, SarifRun } from '../../actions/gate/reports/sarif.js';
import { gateReport } from '../../actions/gate/outputs/summary.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { fixturesDir, readFixture } from '../support/fixtures.js';
import { sarifSchemaErrors } from '../support/sarif-schema.js';

const FIXTURES = fixturesDir('gate');

/**
 * What code scanning and codeql-action's upload-sarif accept, checked independently of the gate's
 * own code: the schema, at least one run (an empty `runs` is refused with HTTP 422), at most 20
 * runs, at most 25,000 results per run, and no two runs with the same driver identity and
 * `automationDetails.id` (refused since July 2025).
 */
function assertUploadable(log: SarifLog, label: string): void {
  assert.deepEqual(sarifSchemaErrors(log), [], `${label}: schema`);
  assert.ok(log.runs.length >= 1, `${label}: at least one run`);
  assert.ok(log.runs.length <= 20, `${label}: ${log.runs.length} runs`);
  const keys = new Set<string>();
  for (const run of log.runs) {
    assert.ok(Array.isArray(run.results), `${label}: every run has a results array`);
    assert.ok(run.results.length <= 25_000, `${label}: ${run.results.length} results in one run`);
    const d = run.tool.driver as Record<string, unknown>;
    const key = JSON.stringify([d.name, d.fullName, d.version, d.semanticVersion, d.guid, (run.automationDetails as { id?: string } | undefined)?.id]);
    assert.ok(!keys.has(key), `${label}: two runs share ${key}`);
    keys.add(key);
  }
  if (log.runs.length > 1) assert.ok(log.runs.every((r) => (r.results?.length ?? 0) > 0), `${label}: no empty run beside others`);
}

const located = (uri: string, line: number, extra: Partial<SarifResult> = {}): SarifResult => ({
  ruleId: 'r1',
  level: 'warning',
  message: { text: `finding at ${uri}:${line}` },
  locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
  ...extra,
});

const toolRun = (name: string, results: SarifResult[], extra: Partial<SarifRun> = {}): SarifRun => ({
  tool: { driver: { name, rules: [{ id: 'r1' }, { id: 'crit', properties: { 'security-severity': '9.8' } }] } },
  results,
  ...extra,
});

describe('gate ci: the filtered SARIF is accepted by code scanning as it is', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('src/old.js', lines(50));
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-filtered-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (log: unknown, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, 'report.sarif');
    writeFileSync(sarif, JSON.stringify(log));
    const outcome = await runCi(
      { sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, filteredOut: join(out, 'filtered.sarif'), countsJson: join(out, 'counts.json'), ...options },
      {},
    );
    const filtered = JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog;
    const counts = JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts;
    return { outcome, filtered, counts };
  };

  describe('every fixture of test/fixtures/gate, its files unchanged and then added by the pull request', () => {
    const files = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((f) => f.endsWith('.sarif')) : [];
    before(function () {
      assert.ok(files.length > 0, 'the fixtures are in the project');
    });

    for (const file of files) {
      it(file, async () => {
        const log = readFixture<SarifLog>('gate', file);
        repo.commit('nothing changed');
        const unchanged = await gate(log);
        if (log.runs.length === 0) {
          // No answer: a valid log without runs, which code scanning refuses; the workflow skips it.
          assert.equal(unchanged.outcome.exitCode, 2);
          assert.deepEqual(sarifSchemaErrors(unchanged.filtered), []);
          assert.deepEqual(unchanged.filtered.runs, []);
          return;
        }
        assertUploadable(unchanged.filtered, `${file} (unchanged)`);
        for (const r of log.runs.flatMap((x) => x.results ?? [])) {
          const uri = r.locations?.[0]?.physicalLocation?.artifactLocation?.uri;
          if (uri && !uri.includes('..') && !uri.startsWith('/') && !/^[a-z]+:/i.test(uri)) repo.write(decodeURIComponent(uri), lines(400));
        }
        repo.commit('add the linted files');
        const added = await gate(log);
        assertUploadable(added.filtered, `${file} (added)`);
        const kept = added.filtered.runs.reduce((n, r) => n + (r.results?.length ?? 0), 0);
        assert.equal(kept + added.counts.filtered_left_out_count, added.counts.net_new_count, `${file}: every net-new result is in the file or counted as left out`);
      });
    }
  });

  it('no answer (a report with zero runs): the file is valid SARIF with no runs, and nothing else is claimed', async () => {
    const { outcome, filtered, counts } = await gate({ version: '2.1.0', runs: [] });
    assert.equal(outcome.exitCode, 2);
    assert.deepEqual(sarifSchemaErrors(filtered), []);
    assert.deepEqual(filtered.runs, []);
    assert.equal(counts.filtered_left_out_count, 0);
  });

  it('no net-new result: one run, the report\'s first, with an empty results list', async () => {
    repo.commit('nothing changed');
    const report = { version: '2.1.0', runs: [toolRun('eslint', [located('src/old.js', 3)]), toolRun('ruff', [])] };
    const { outcome, filtered } = await gate(report);
    assert.equal(outcome.exitCode, 0);
    assertUploadable(filtered, 'no net-new');
    assert.deepEqual(filtered.runs.map((r) => [r.tool.driver.name, r.results?.length]), [['eslint', 0]]);
  });

  it('a MegaLinter-like report of 30 runs: empty runs are left out; past 20, the runs with the worst findings are kept and the rest counted', async () => {
    repo.write('src/new.js', lines(40));
    repo.commit('pr');
    const empty = new Set([5, 11, 17, 23, 26]);
    const critical = new Set([27, 28, 29]); // last in the report
    const runs: SarifRun[] = [];
    for (let i = 0; i < 30; i++) {
      const key = `LINTER_${String(i).padStart(2, '0')}`;
      const results = empty.has(i) ? [] : critical.has(i) ? [located('src/new.js', i, { ruleId: 'crit' })] : [located('src/new.js', i + 1), located('src/new.js', i + 2)];
      runs.push(toolRun(`Tool ${i} (MegaLinter ${key})`, results, { properties: { megalinter: { linterKey: key } } }));
    }
    const { filtered, counts, outcome } = await gate({ version: '2.1.0', runs });
    assertUploadable(filtered, '30 runs');
    // 25 runs have results: the 3 critical ones and the first 17 others, in report order.
    assert.deepEqual(
      filtered.runs.map((r) => Number(/^Tool (\d+)/.exec(r.tool.driver.name as string)![1])),
      [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 18, 19, 27, 28, 29],
    );
    assert.equal(counts.filtered_left_out_count, 5 * 2);
    assert.match(gateReport(outcome, {}), /^10 net-new results are not in the filtered SARIF: code scanning takes at most 20 runs per upload/m);
    assert.equal(counts.net_new_count, 22 * 2 + 3);
    assert.equal(outcome.exitCode, 1);
  });

  it('a run with 30,000 net-new results is cut into 25,000 and 5,000, the second part in a category of its own', async () => {
    repo.write('src/generated.js', lines(30_000));
    repo.commit('pr');
    const results = Array.from({ length: 30_000 }, (_, i) => located('src/generated.js', i + 1));
    const { filtered, counts } = await gate({ version: '2.1.0', runs: [toolRun('semgrep', results)] });
    assertUploadable(filtered, '30,000 results');
    assert.deepEqual(filtered.runs.map((r) => r.results?.length), [25_000, 5_000]);
    assert.equal(filtered.runs[0]!.automationDetails, undefined, 'the first part keeps the workflow\'s category');
    assert.deepEqual(filtered.runs[1]!.automationDetails, { id: 'gatehouse-net-new/part-2/' });
    assert.equal(filtered.runs[1]!.results![0]!.locations![0]!.physicalLocation!.region!.startLine, 25_001, 'report order is kept across the parts');
    assert.equal(counts.filtered_left_out_count, 0);
  });

  it('runs of the same tool are kept apart by category: their own automationDetails.id, extended', async () => {
    repo.write('src/new.js', lines(10));
    repo.commit('pr');
    const trivy = (image: string, extra: Partial<SarifRun> = {}) => toolRun('Trivy', [located('src/new.js', 2, { message: { text: image } })], { ...extra });
    const { filtered } = await gate({
      version: '2.1.0',
      runs: [trivy('a'), trivy('b'), trivy('c', { automationDetails: { id: 'images/web', guid: '5f1a3c52-8a0e-4f43-9a53-3a9f5a0f0c11' } }), trivy('d', { automationDetails: { id: 'images/web' } })],
    });
    assertUploadable(filtered, 'same tool');
    assert.deepEqual(
      filtered.runs.map((r) => r.automationDetails),
      [undefined, { id: 'gatehouse-net-new/part-2/' }, { id: 'images/web', guid: '5f1a3c52-8a0e-4f43-9a53-3a9f5a0f0c11' }, { id: 'images/web/part-2/' }],
    );
  });
});
