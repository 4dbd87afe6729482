import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { fixturePath } from '../support/fixtures.js';

// SARIF shapes that tools write beyond the plain `uri` + `startLine`: each must be judged right,
// or be no answer (exit 2), never a silent pass. Real samples where a tool's own repository
// publishes one (test/fixtures/README.md names each source and licence); otherwise a minimal
// input in the shape the SARIF 2.1.0 specification documents, and the test says so.

const fixture = (name: string): SarifLog => JSON.parse(readFileSync(fixturePath('gate', name), 'utf8').replace(/^\uFEFF/, '')) as SarifLog;

describe('gate ci: SARIF shapes', () => {
  let repo: GitRepo;
  let out: string;
  beforeEach(() => {
    repo = GitRepo.create();
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-shapes-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (report: SarifLog, base: string, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, 'report.sarif');
    writeFileSync(sarif, JSON.stringify(report));
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, filteredOut: join(out, 'filtered.sarif'), countsJson: join(out, 'counts.json'), ...options }, {});
    return { outcome, counts: JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts, filtered: JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog };
  };

  describe('results that are not findings of this run', () => {
    it("baselineState absent (the SARIF multitool's own baselined validation output): the tool says the result is gone; on a changed line it does not block", async () => {
      const report = fixture('sarif-sdk-TEST1007.ValidateBaseline.LessResultsThanBaseline.sarif');
      const file = 'FunctionalTestOutput.BaselineOption/ToBeValidated.sarif';
      repo.write(file, lines(40, 'sarif '));
      const base = repo.commit('base');
      // Line 37 changes: the absent SARIF2012 (note) is on it, nothing else.
      repo.write(file, lines(40, 'sarif ').replace('sarif 37\n', 'changed 37\n')).commit('pr');
      const { outcome, counts } = await gate(report, base, { failOn: 'low' });
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.not_a_finding_count, counts.pre_existing_count], [0, 0, 1, 30]);
      assert.equal(counts.not_counted_by_reason['not-a-finding'], 1);
    });

    it('kind pass (Static Driver Verifier through the SARIF SDK: "the property is satisfied"): a check that passed never blocks, even with --fail-on any', async () => {
      const report = fixture('sarif-sdk-StaticDriverVerifier-dispatchroutine_bug1.tt.sarif');
      repo.write('rules/WDM/DispatchRoutine.slic', lines(30, 'rule '));
      const base = repo.commit('base');
      repo.write('rules/WDM/DispatchRoutine.slic', lines(40, 'rule ')).commit('pr: line 34 is added');
      const { outcome, counts } = await gate(report, base, { failOn: 'any', stripPrefixes: ['../../../'] });
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.not_a_finding_count], [0, 0, 1]);
    });

    // A minimal input in the shape SARIF 2.1.0 §3.27.9-10 documents: a kind other than fail has level none when none is given.
    it('kind review or open without a level is level none (info): blocks only with --fail-on any', async () => {
      repo.write('a.js', lines(3));
      const base = repo.commit('base');
      repo.write('a.js', lines(4)).commit('pr');
      const report = { version: '2.1.0', runs: [{ tool: { driver: { name: 'tool', rules: [{ id: 'R1', defaultConfiguration: { level: 'error' } }] } }, results: [{ ruleId: 'R1', kind: 'review', message: { text: 'x' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a.js' }, region: { startLine: 4 } } }] }] }] } as SarifLog;
      const high = await gate(report, base);
      assert.deepEqual([high.outcome.exitCode, high.counts.net_new_by_severity.info], [0, 1]);
      assert.equal((await gate(report, base, { failOn: 'any' })).outcome.exitCode, 1);
    });
  });

  describe('artifactLocation.index into run.artifacts', () => {
    /** Helpers/InvoiceHelper.cs of the Fortify sample, its line 57 (the SQL command) added by the pull request. */
    const invoiceHelper = (withSql: boolean) => {
      const text = lines(70, 'code ').split('\n');
      if (withSql) text[56] = '            "SELECT * FROM invoices WHERE id = @id", conn);';
      return text.join('\n');
    };

    it('the SARIF SDK\'s Fortify FPR conversion (location by index only, the rule by ruleIndex, SRCROOT through originalUriBaseIds): the added line 57 is net-new', async () => {
      const report = fixture('sarif-sdk-fortify-OneResultBasic.fpr.sarif');
      repo.write('Helpers/InvoiceHelper.cs', invoiceHelper(false));
      const base = repo.commit('base');
      repo.write('Helpers/InvoiceHelper.cs', invoiceHelper(true)).commit('sql');
      // Fortify scanned /root/projects/myproject/src/ (SRCROOT): a prefix the gate suggests and strips when told.
      const elsewhere = await gate(report, base, { failOn: 'medium' });
      assert.equal(elsewhere.outcome.exitCode, 2);
      assert.match(elsewhere.outcome.message, /--strip-prefix \/root\/projects\/myproject\/src\/ makes \/root\/projects\/myproject\/src\/Helpers\/InvoiceHelper\.cs a file of the head$/);
      const { outcome, counts, filtered } = await gate(report, base, { failOn: 'medium', stripPrefixes: ['/root/projects/myproject/src/'] });
      // No level anywhere: the rule's defaultConfiguration has none, so `warning` (medium).
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.net_new_by_severity.medium, counts.no_location_count], [1, 1, 1, 0]);
      assert.equal(filtered.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation!.index, 0, 'the result is written as the tool wrote it');
      // At --fail-on high the medium finding does not block.
      assert.equal((await gate(report, base, { stripPrefixes: ['/root/projects/myproject/src/'] })).outcome.exitCode, 0);
    });

    it('the same report on a pull request that leaves line 57 alone: pre-existing', async () => {
      repo.write('Helpers/InvoiceHelper.cs', invoiceHelper(true));
      const base = repo.commit('base');
      repo.write('README.md', 'readme\n').commit('docs');
      const { outcome, counts } = await gate(fixture('sarif-sdk-fortify-OneResultBasic.fpr.sarif'), base, { failOn: 'any', stripPrefixes: ['/root/projects/myproject/src/'] });
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.pre_existing_count], [0, 0, 1]);
    });

    // Minimal inputs in the shapes SARIF 2.1.0 §3.4.5 (artifactLocation.index) and §3.24.3 (artifact.parentIndex) document.
    const indexed = (locations: unknown[], artifacts: unknown[]): SarifLog =>
      ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'tool', rules: [{ id: 'R1', defaultConfiguration: { level: 'error' } }] } }, artifacts, results: [{ ruleIndex: 0, message: { text: 'x' }, locations }] }] }) as SarifLog;

    it('an index the run does not have is no answer (exit 2), never "no location"', async () => {
      repo.write('a.js', lines(3));
      const base = repo.commit('base');
      repo.write('a.js', lines(4)).commit('pr');
      const { outcome, counts } = await gate(indexed([{ physicalLocation: { artifactLocation: { index: 3 }, region: { startLine: 4 } } }], [{ location: { uri: 'a.js' } }]), base);
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /points at artifacts\[3\], which the run does not have \(it lists 1\)/);
      assert.equal(counts.exit_code, 2);
    });

    it('a file inside an archive (parentIndex) is the archive, a file of the repository: new archive, net-new finding', async () => {
      repo.write('README.md', 'x\n');
      const base = repo.commit('base');
      repo.write('lib/bundle.zip', 'PK').commit('archive');
      const report = indexed([{ physicalLocation: { artifactLocation: { index: 1 }, region: { startLine: 12 } } }], [{ location: { uri: 'lib/bundle.zip' } }, { location: { uri: 'config/app.properties' }, parentIndex: 0 }]);
      const { outcome, counts } = await gate(report, base);
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.unmapped_count], [1, 1, 0]);
    });
  });

  describe('multiple runs, relatedLocations, ruleIndex, the level from the rule (github/codeql-action\'s valid-sarif.sarif: an LGTM run and a CodeQL run)', () => {
    const report = () => fixture('codeql-action-valid-sarif.sarif');
    const files = () => repo.write('main.js', lines(5, 'main ')).write('src/promiseUtils.js', lines(5, 'utils ')).write('src/LiveQueryClient.js', lines(170, 'client ')).write('src/ParseObject.js', lines(2300, 'object '));

    it('each run judged on its own: main.js:2 added gives one net-new finding per run; the level is the rule\'s default (note: low)', async () => {
      files();
      const base = repo.commit('base');
      repo.write('main.js', lines(5, 'main ').replace('main 2\n', 'const foo = 1;\n')).commit('pr');
      const { outcome, counts, filtered } = await gate(report(), base, { failOn: 'low' });
      assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.net_new_by_severity.low, counts.pre_existing_count], [1, 2, 2, 1]);
      assert.deepEqual(filtered.runs.map((r) => r.tool.driver.name), ['LGTM.com', 'CodeQL command-line toolchain']);
      assert.equal((await gate(report(), base)).outcome.exitCode, 0, 'a note does not block at high');
    });

    it('a related location on an added line does not make the result net-new: the result is where its locations say', async () => {
      files();
      const base = repo.commit('base');
      repo.write('src/LiveQueryClient.js', lines(170, 'client ').replace('client 166\n', 'new LiveQueryClient();\n')).commit('pr');
      const { counts } = await gate(report(), base, { failOn: 'any' });
      assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [0, 3]);
      repo.write('src/promiseUtils.js', lines(5, 'utils ').replace('utils 2\n', 'resolvingPromise();\n')).commit('the result\'s own line');
      assert.equal((await gate(report(), base, { failOn: 'any' })).counts.net_new_count, 1);
    });
  });

  describe('rules under tool.extensions', () => {
    // Constructed in the shape CodeQL writes (rules of query packs under tool.extensions, results
    // naming them by rule.toolComponent, or by ruleId alone): no real CodeQL report with a
    // redistributable licence small enough for a fixture was found.
    const codeql = (results: unknown[]): SarifLog =>
      ({
        version: '2.1.0',
        runs: [
          {
            tool: {
              driver: { name: 'CodeQL', semanticVersion: '2.20.0' },
              extensions: [
                { name: 'codeql/javascript-queries', rules: [{ id: 'js/code-injection', defaultConfiguration: { level: 'error' }, properties: { 'security-severity': '9.3' } }] },
                { name: 'codeql/custom', guid: 'f1e2d3c4-0000-4000-8000-000000000001', rules: [{ id: 'CA2101', properties: { 'security-severity': '7.5' } }] },
              ],
            },
            results,
          },
        ],
      }) as SarifLog;
    const result = (extra: object) => ({ message: { text: 'x' }, level: 'warning', locations: [{ physicalLocation: { artifactLocation: { uri: 'a.js' }, region: { startLine: 4 } } }], ...extra });

    it('by rule.toolComponent index, by name or guid, by ruleId alone (driver and extensions searched), and a hierarchical id: each finds its rule and its security-severity', async () => {
      repo.write('a.js', lines(3));
      const base = repo.commit('base');
      repo.write('a.js', lines(4)).commit('pr');
      const { counts } = await gate(
        codeql([
          result({ ruleId: 'js/code-injection', rule: { id: 'js/code-injection', index: 0, toolComponent: { index: 0 } } }),
          result({ rule: { index: 0, toolComponent: { name: 'codeql/custom' } } }),
          result({ rule: { index: 0, toolComponent: { guid: 'f1e2d3c4-0000-4000-8000-000000000001' } } }),
          result({ ruleId: 'js/code-injection' }),
          result({ ruleId: 'CA2101/1' }),
        ]),
        base,
      );
      assert.deepEqual(counts.net_new_by_severity, { critical: 2, high: 3, medium: 0, low: 0, info: 0 });
    });
  });

  describe('logicalLocations only (the SARIF SDK\'s Android Studio conversion: a package, no file)', () => {
    const report = () => fixture('sarif-sdk-AndroidStudio-fileEmpty.xml.sarif');
    let base: string;
    beforeEach(() => {
      repo.write('app/build.gradle', lines(3));
      base = repo.commit('base');
      repo.write('app/build.gradle', lines(4)).commit('pr');
    });

    it('below the threshold: counted as no-location, the answer stands', async () => {
      const { outcome, counts } = await gate(report(), base);
      assert.deepEqual([outcome.exitCode, counts.no_location_count, counts.not_counted_by_reason['no-location']], [0, 1, 1]);
    });

    it('at or above it (a warning, at --fail-on medium): no answer, naming --baseline-sarif, never a silent pass', async () => {
      const { outcome, counts } = await gate(report(), base, { failOn: 'medium' });
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /1 result at or above medium names no file \(the first: AndroidStudio Assertions, medium\).*give --baseline-sarif/);
      assert.equal(counts.error, outcome.message.replace(/^no answer: /, ''));
    });

    it('with --baseline-sarif: held by the base report (by its logical location) is pre-existing; missing from it is net-new', async () => {
      const held = join(out, 'held.sarif');
      writeFileSync(held, JSON.stringify(report()));
      const same = await gate(report(), base, { failOn: 'medium', baselineSarif: held });
      assert.equal(same.outcome.exitCode, 0);
      const match = JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as { not_counted: { reason: string; baseline?: { fingerprint: string } }[] };
      assert.deepEqual(match.not_counted.map((n) => [n.reason, n.baseline?.fingerprint]), [['baseline', 'logical:northwindtraders-droid-2\\com.northwindtraders.droid.model']]);
      const empty = join(out, 'empty.sarif');
      writeFileSync(empty, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'AndroidStudio' } }, results: [] }] }));
      const missing = await gate(report(), base, { failOn: 'medium', baselineSarif: empty });
      assert.deepEqual([missing.outcome.exitCode, missing.counts.net_new_count], [1, 1]);
    });
  });

  // Minimal inputs in the shapes SARIF 2.1.0 documents (§3.4.3 percent-encoded URIs, §3.30 regions
  // by charOffset, byteOffset or snippet alone): the real samples that have them (Contrast Security's
  // WebGoat conversion in the SARIF SDK) locate results on web pages, not files of a repository.
  describe('percent-encoded paths and regions without a line', () => {
    const tool = (results: unknown[]): SarifLog => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'tool', rules: [{ id: 'R1', defaultConfiguration: { level: 'error' } }] } }, results }] }) as SarifLog;
    const res = (uri: string, region?: object) => ({ ruleId: 'R1', message: { text: 'x' }, locations: [{ physicalLocation: { artifactLocation: { uri }, ...(region ? { region } : {}) } }] });

    it('percent-escapes are decoded; a name that exists only as written is read as written', async () => {
      repo.write('docs/a b.md', lines(3)).write('lib/x%41.js', lines(3)).write('lib/ünï.js', lines(3));
      const base = repo.commit('base');
      repo.write('docs/a b.md', lines(4)).write('lib/x%41.js', lines(4)).write('lib/ünï.js', lines(4)).commit('pr');
      const { counts } = await gate(tool([res('docs/a%20b.md', { startLine: 4 }), res('lib/x%41.js', { startLine: 4 }), res('lib/%C3%BCn%C3%AF.js', { startLine: 4 })]), base);
      assert.deepEqual([counts.net_new_count, counts.unmapped_count], [3, 0]);
    });

    it('a region by charOffset, byteOffset or snippet alone is placed on its line of the head: an unchanged line is pre-existing, an added one net-new', async () => {
      const text = (added: boolean) => `${lines(5)}${added ? 'eval(input);\n' : ''}${lines(5, 'tail ')}`;
      repo.write('src/app.js', text(false));
      const base = repo.commit('base');
      repo.write('src/app.js', text(true)).commit('pr: line 6 added');
      const head = text(true);
      const sixth = head.indexOf('eval(input);');
      const second = head.indexOf('line 2');
      const { counts } = await gate(
        tool([
          res('src/app.js', { charOffset: sixth, charLength: 12 }),
          res('src/app.js', { byteOffset: Buffer.byteLength(head.slice(0, sixth)) }),
          res('src/app.js', { snippet: { text: 'eval(input);' } }),
          res('src/app.js', { charOffset: second, charLength: 6 }),
          res('src/app.js', { snippet: { text: 'tail 3' } }),
        ]),
        base,
      );
      assert.deepEqual([counts.net_new_count, counts.pre_existing_count, counts.unattributed_count], [3, 2, 0]);
    });

    it('a snippet found twice places nothing: judged as a result without a line (net-new in a changed file unless told otherwise)', async () => {
      repo.write('src/app.js', `${lines(3)}dup();\n`);
      const base = repo.commit('base');
      repo.write('src/app.js', `${lines(3)}dup();\ndup();\n`).commit('pr');
      const { counts } = await gate(tool([res('src/app.js', { snippet: { text: 'dup();' } })]), base);
      assert.deepEqual([counts.net_new_count, counts.unattributed_count], [1, 1]);
    });
  });
});
