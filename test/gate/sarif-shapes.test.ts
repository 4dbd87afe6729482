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
});
