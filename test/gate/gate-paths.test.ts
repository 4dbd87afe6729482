import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import { gateCommand } from '../../actions/gate/command.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog, SarifResult } from '../../actions/gate/reports/sarif.js';
import { gateReport } from '../../actions/gate/outputs/summary.js';
import { GitRepo, lines } from '../support/git-repo.js';

const at = (uri: string, line: number, level = 'error'): SarifResult => ({
  ruleId: 'rule-1',
  level,
  message: { text: 'finding' },
  locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
});
const report = (...results: SarifResult[]): SarifLog => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'scanner', rules: [{ id: 'rule-1' }] } }, results }] });

describe('gate ci: the report\'s paths and the checkout', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;
  let svc: string;

  /**
   * main: README.md and svc/README.md (5 lines each), pnpm-lock.yaml, tools/build.py,
   *       svc/src/app.py (20 lines).
   * pr:   line 6 of svc/src/app.py, line 2 of README.md (the top one) and line 3 of
   *       pnpm-lock.yaml change; svc/README.md does not.
   */
  beforeEach(() => {
    repo = GitRepo.create();
    repo
      .write('README.md', lines(5, 'top '))
      .write('svc/README.md', lines(5, 'svc '))
      .write('pnpm-lock.yaml', lines(10, 'lock '))
      .write('tools/build.py', lines(10, 'build '))
      .write('svc/src/app.py', lines(20));
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    const change = (path: string, count: number, prefix: string, line: number) =>
      repo.write(path, lines(count, prefix).replace(`${prefix}${line}\n`, `changed ${line}\n`));
    change('svc/src/app.py', 20, 'line ', 6);
    change('README.md', 5, 'top ', 2);
    change('pnpm-lock.yaml', 10, 'lock ', 3);
    repo.commit('pr');
    svc = join(repo.dir, 'svc');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-paths-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (log: SarifLog, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, `report-${Math.random()}.sarif`);
    writeFileSync(sarif, JSON.stringify(log));
    const outcome = await runCi(
      { sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, countsJson: join(out, 'counts.json'), ...options },
      {},
    );
    return { outcome, counts: JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts };
  };

  it('--repo at a subdirectory: paths relative to it are read from there', async () => {
    const { outcome, counts } = await gate(report(at('src/app.py', 6), at('src/app.py', 3)), { repo: svc });
    assert.equal(counts.net_new_count, 1);
    assert.equal(counts.pre_existing_count, 1);
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.classification!.netNew[0]!.path, 'svc/src/app.py', 'findings are named from the top level, like the diff');
  });

  it('--repo at a subdirectory: paths relative to the top level still match', async () => {
    const { outcome, counts } = await gate(report(at('svc/src/app.py', 6), at('tools/build.py', 1)), { repo: svc });
    assert.equal(counts.net_new_count, 1);
    assert.equal(counts.pre_existing_count, 1);
    assert.equal(outcome.exitCode, 1);
  });

  it('a path that exists under both is read against the base the run\'s other paths were found in', async () => {
    // Relative to svc: src/app.py exists only there, so README.md:2 is svc/README.md, unchanged.
    const fromSvc = await gate(report(at('src/app.py', 3), at('README.md', 2)), { repo: svc });
    assert.equal(fromSvc.counts.net_new_count, 0);
    assert.equal(fromSvc.counts.pre_existing_count, 2);
    // Relative to the top: tools/build.py exists only there, so README.md:2 is the changed top one.
    const fromTop = await gate(report(at('tools/build.py', 1), at('README.md', 2)), { repo: svc });
    assert.equal(fromTop.counts.net_new_count, 1);
    assert.equal(fromTop.outcome.classification!.netNew[0]!.path, 'README.md');
  });

  it('the run\'s artifacts list votes before the results: an ambiguous first result is read against the right base', async () => {
    const log = report(at('README.md', 2), at('tools/build.py', 1));
    const run = log.runs[0]!;
    assert.equal((await gate(log, { repo: svc })).counts.net_new_count, 0, 'without artifacts, the first result falls to --repo on the tie');
    run.artifacts = [{ location: { uri: 'README.md' } }, { location: { uri: 'tools/build.py' } }, { location: { uri: 'pnpm-lock.yaml' } }];
    const { counts, outcome } = await gate(log, { repo: svc });
    assert.equal(counts.net_new_count, 1);
    assert.equal(outcome.classification!.netNew[0]!.path, 'README.md');
  });

  it('the CLI run from a subdirectory reads the report against the top level when that is where its files are', async () => {
    const sarif = join(out, 'cli.sarif');
    writeFileSync(sarif, JSON.stringify(report(at('pnpm-lock.yaml', 1), at('svc/src/app.py', 6))));
    const printed: string[] = [];
    const io = { out: (l: string) => printed.push(l), err: (l: string) => printed.push(l) };
    assert.equal(await gateCommand(['ci', '--base', base, '--sarif', sarif], {}, svc, io), 1);
    assert.match(printed.join('\n'), /BLOCKING high +svc\/src\/app\.py:6/);
  });

  it('root-relative paths (/pnpm-lock.yaml, /svc/src/app.py) are the repository\'s files', async () => {
    const { outcome, counts } = await gate(report(at('/pnpm-lock.yaml', 3), at('/svc/src/app.py', 6), at('/svc/src/app.py', 1)));
    assert.equal(counts.net_new_count, 2);
    assert.equal(counts.pre_existing_count, 1);
    assert.equal(counts.unmapped_count, 0);
    assert.equal(outcome.exitCode, 1);
    // With --repo at the subdirectory, /src/app.py (a scan at / of a container holding svc) is svc's.
    const sub = await gate(report(at('/src/app.py', 6)), { repo: svc });
    assert.equal(sub.counts.net_new_count, 1);
  });

  it('absolute paths, file:// URIs and MegaLinter container prefixes, with --repo at a subdirectory', async () => {
    const uris = [`${repo.dir}/svc/src/app.py`, `file://${repo.dir}/svc/src/app.py`, `${svc}/src/app.py`, '/github/workspace/svc/src/app.py', '/tmp/lint/src/app.py'];
    const { counts } = await gate(report(...uris.map((u) => at(u, 6))), { repo: svc });
    assert.equal(counts.net_new_count, uris.length);
  });

  it('a scanner in a container writes file:////src/… (four slashes): --strip-prefix /src/, as the docs recommend, maps it', async () => {
    const container = report(at('file:////src/svc/src/app.py', 6), at('file:////src/README.md', 3), at('file:///src//tools/build.py', 1));
    const stripped = await gate(container, { stripPrefixes: ['/src/'] });
    assert.deepEqual([stripped.outcome.exitCode, stripped.counts.net_new_count, stripped.counts.pre_existing_count, stripped.counts.unmapped_count], [1, 1, 2, 0]);
    // Without it the paths are the container's: no answer, and the prefix is named.
    const elsewhere = await gate(container);
    assert.equal(elsewhere.outcome.exitCode, 2);
    assert.match(elsewhere.outcome.message, /the first is \/src\/svc\/src\/app\.py.*--strip-prefix \/src\/ makes \/src\/svc\/src\/app\.py a file of the head$/);
  });

  it('a result whose file is not in the head commit is unmapped: counted apart, listed in the summary, never pre-existing', async () => {
    repo.write('node_modules/left-pad/index.js', lines(3)); // in the working tree, not in git
    const { outcome, counts } = await gate(
      report(at('svc/src/app.py', 6), at('node_modules/left-pad/index.js', 1), at('src/deleted.py', 2), at('src/deleted.py', 4), at('svc/src/app.py', 2)),
    );
    assert.equal(counts.unmapped_count, 3);
    assert.equal(counts.net_new_count, 1);
    assert.equal(counts.pre_existing_count, 1);
    assert.equal(counts.total_count, 5);
    assert.equal(outcome.exitCode, 1);
    const summary = gateReport(outcome, {});
    assert.match(summary, /Not in the repository\*\*: 3 results/);
    assert.match(summary, /`node_modules\/left-pad\/index\.js`, `src\/deleted\.py`/);
  });

  it('no located result maps into the repository: exit 2, saying the paths do not match this checkout', async () => {
    const elsewhere = report(at('/home/runner/work/other/src/main.go', 6), at('cmd/tool/main.go', 2), { ruleId: 'rule-1', message: { text: 'no location' } });
    const { outcome, counts } = await gate(elsewhere);
    assert.equal(outcome.exitCode, 2);
    assert.match(outcome.message, /paths do not match this checkout/);
    assert.match(outcome.message, /home\/runner\/work\/other\/src\/main\.go/);
    // Every remedy is named: the right checkout, --repo, or a prefix to strip (none fits here).
    assert.match(outcome.message, /; run the gate on the checkout the report was made from, point --repo at the directory it scanned, or remove the prefix the scanner saw the repository under with --strip-prefix <prefix> \(no ending of \S+ names a file of the head, so no prefix is suggested\)$/);
    assert.equal(counts.exit_code, 2);
    assert.equal(counts.unmapped_count, 2);
    assert.equal(counts.no_location_count, 1);
    assert.match(counts.error!, /paths do not match/);
    // A report relative to a subdirectory the gate was not pointed at is the same mistake.
    const wrongRoot = await gate(report(at('app.py', 6), at('app.py', 2)));
    assert.equal(wrongRoot.outcome.exitCode, 2);
  });

  it('results without a location, or all suppressed, are not a path mismatch', async () => {
    const { outcome } = await gate(report({ ruleId: 'rule-1', level: 'warning', message: { text: 'x' } }, { ...at('elsewhere.py', 1), suppressions: [{ kind: 'inSource' }] }));
    assert.equal(outcome.exitCode, 0);
    // An error without a file is no answer for its own reason, not a path mismatch.
    const error = await gate(report({ ruleId: 'rule-1', level: 'error', message: { text: 'x' } }, { ...at('elsewhere.py', 1), suppressions: [{ kind: 'inSource' }] }));
    assert.equal(error.outcome.exitCode, 2);
    assert.doesNotMatch(error.outcome.message, /paths do not match/);
    assert.match(error.outcome.message, /names no file/);
  });
});
