import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { fixturePath } from '../support/fixtures.js';

// Real reports of scanners other than MegaLinter (test/fixtures/README.md names each source and
// licence), judged on repositories that hold the files they name, with the change each case needs.

const fixture = (name: string): string => readFileSync(fixturePath('gate', name), 'utf8');

/** The distinct `uri`s of a report, with the largest line each is reported at. */
function reportedFiles(report: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const run of (JSON.parse(report) as SarifLog).runs) {
    for (const result of run.results ?? []) {
      for (const location of result.locations ?? []) {
        const uri = location.physicalLocation?.artifactLocation?.uri;
        if (uri) files.set(uri, Math.max(files.get(uri) ?? 1, location.physicalLocation?.region?.startLine ?? 1));
      }
    }
  }
  return files;
}

describe('gate ci on real reports of other scanners', () => {
  let repo: GitRepo;
  let out: string;
  beforeEach(() => {
    repo = GitRepo.create();
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (report: string, base: string, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, 'report.sarif');
    writeFileSync(sarif, report);
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, filteredOut: join(out, 'filtered.sarif'), countsJson: join(out, 'counts.json'), ...options }, {});
    return { outcome, counts: JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts, filtered: JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog };
  };

  it('Snyk Container, stakater/Reloader 7b088be..d0a50d3: the final stage switched to ubuntu:groovy-20210416 brings 20 findings on line 1, 10 at high or above: blocked', async () => {
    repo.write('Dockerfile', fixture('stakater-reloader-7b088be.Dockerfile')).write('main.go', 'package main\n');
    const base = repo.commit('7b088be');
    repo.write('Dockerfile', fixture('stakater-reloader-d0a50d3.Dockerfile')).commit('d0a50d3');
    const { outcome, counts } = await gate(fixture('snyk-container-stakater-reloader.sarif'), base);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual([counts.net_new_count, counts.blocking_count], [20, 10]);
    // The same report on a pull request that leaves the base image alone: pre-existing.
    const unchanged = repo.git('rev-parse', 'HEAD');
    repo.write('main.go', 'package main\n\nfunc main() {}\n').commit('code only');
    const later = await gate(fixture('snyk-container-stakater-reloader.sarif'), unchanged);
    assert.deepEqual([later.outcome.exitCode, later.counts.net_new_count, later.counts.pre_existing_count], [0, 0, 20]);
  });

  it("Trivy's 2020 SARIF template (aquasecurity/trivy-sarif-demo): four OpenSSL CVEs (level error) on Dockerfile:1, the package named only in the rule's help; a pull request that changes the FROM line is blocked, one that does not passes", async () => {
    const report = fixture('trivy-sarif-demo-trivy-results.sarif');
    // The demo's own Dockerfile (line 1 a comment, FROM on line 2), at the merge-base built from node:6.
    const dockerfile = fixture('trivy-sarif-demo.Dockerfile');
    repo.write('Dockerfile', dockerfile.replace('FROM ubuntu:xenial', 'FROM library/node:6')).write('app.js', 'module.exports = 1;\n');
    const base = repo.commit('FROM library/node:6');
    repo.write('Dockerfile', dockerfile).commit("the report's image");
    const { outcome, counts } = await gate(report, base);
    assert.equal(outcome.exitCode, 1, JSON.stringify(counts));
    assert.deepEqual([counts.net_new_count, counts.blocking_count], [4, 4]);
    // The same on a one-line Dockerfile whose FROM line is line 1.
    repo.write('Dockerfile', 'FROM library/node:6\n');
    const oneLine = repo.commit('one line');
    repo.write('Dockerfile', 'FROM alpine:3.10\n').commit('alpine');
    assert.equal((await gate(report, oneLine)).outcome.exitCode, 1);
    // A pull request that leaves the Dockerfile alone brings none of them.
    const unchanged = repo.git('rev-parse', 'HEAD');
    repo.write('app.js', 'module.exports = 2;\n').commit('code only');
    const later = await gate(report, unchanged);
    assert.deepEqual([later.outcome.exitCode, later.counts.net_new_count, later.counts.pre_existing_count], [0, 0, 4]);
  });

  it('nodejsscan (NodeGoat): a pull request adding two matches of a rule written with seven locations is net-new, shown at the first added one', async () => {
    const report = fixture('nodejsscan-sechub-njsscan_mock.sarif');
    for (const [file, last] of reportedFiles(report)) repo.write(file, lines(last + 5, `${file} `));
    const base = repo.commit('NodeGoat');
    // Lines 16 and 17 of session.js (locations 4 and 5 of node_insecure_random_generator) become new.
    const session = lines(212, 'NodeGoat/app/routes/session.js ').split('\n');
    session[15] = 'const a = Math.random();';
    session[16] = 'const b = Math.random();';
    repo.write('NodeGoat/app/routes/session.js', session.join('\n')).commit('weak random');
    const { outcome, counts, filtered } = await gate(report, base, { failOn: 'any' });
    assert.equal(outcome.exitCode, 1);
    assert.equal(counts.net_new_count, 1);
    const result = filtered.runs[0]!.results![0]!;
    assert.equal(result.ruleId, 'node_insecure_random_generator');
    assert.deepEqual([result.locations![0]!.physicalLocation!.artifactLocation!.uri, result.locations![0]!.physicalLocation!.region!.startLine], ['NodeGoat/app/routes/session.js', 16]);
  });

  it('gosec on Windows (C:\\github\\webhook_bridge\\…): no answer without --strip-prefix, naming the option and the first path; judged with it', async () => {
    const report = fixture('gosec-windows-webhook_bridge.sarif');
    const files = reportedFiles(report);
    for (const [file, last] of files) repo.write(file.replace(/^C:\\github\\webhook_bridge\\/, '').replace(/\\/g, '/'), lines(last + 5));
    const base = repo.commit('base');
    const config = lines(175).split('\n');
    config[169] = 'data, err := os.ReadFile(path)';
    repo.write('internal/config/config.go', config.join('\n')).commit('read the file');
    const unmapped = await gate(report, base);
    assert.equal(unmapped.outcome.exitCode, 2);
    assert.match(unmapped.outcome.message, /the first is C:\/github\/webhook_bridge\/.*--strip-prefix C:\/github\/webhook_bridge\/ makes C:\/github\/webhook_bridge\/[a-z/]+\.go a file of the head$/);
    const mapped = await gate(report, base, { stripPrefixes: ['C:/github/webhook_bridge/'] });
    assert.deepEqual([mapped.outcome.exitCode, mapped.counts.net_new_count, mapped.counts.unmapped_count], [1, 1, 0]);
  });

  it('zizmor on Windows writes .github/workflows\\x.yml: read as .github/workflows/x.yml', async () => {
    const report = fixture('zizmor-windows-development-environment.sarif');
    for (const [file, last] of reportedFiles(report)) repo.write(file.replace(/\\/g, '/'), lines(last + 5));
    const base = repo.commit('base');
    const checks = lines(85).split('\n');
    checks[22] = '      - uses: actions/checkout@v4';
    repo.write('.github/workflows/code-checks.yml', checks.join('\n')).commit('a new unpinned action');
    const { outcome, counts } = await gate(report, base, { failOn: 'medium' });
    assert.deepEqual([outcome.exitCode, counts.net_new_count, counts.unmapped_count], [1, 1, 0]);
  });

  it('KICS in its action writes ../../path/…: --strip-prefix ../../path/ maps it', async () => {
    const report = fixture('kics-security-tools-showdown.trimmed.sarif');
    for (const [file, last] of reportedFiles(report)) repo.write(file.replace(/^\.\.\/\.\.\/path\//, ''), lines(last + 5));
    const base = repo.commit('base');
    const sql = lines(14).split('\n');
    sql[8] = 'resource "azurerm_sql_server" "example" {';
    repo.write('iac/terragoat/terraform/azure/sql.tf', sql.join('\n')).commit('sql server');
    assert.equal((await gate(report, base)).outcome.exitCode, 2);
    const { counts } = await gate(report, base, { stripPrefixes: ['../../path/'] });
    assert.deepEqual([counts.net_new_count, counts.pre_existing_count, counts.unmapped_count], [1, 2, 0]);
  });

  it('Trivy on a pom.xml: bumps of gson (2.8.4 → 2.8.5, fixed in 2.8.9) and httpclient (4.5.10 → 4.5.11, fixed in 4.5.13) stay vulnerable: pre-existing', async () => {
    const head = fixture('trivy-sonar-trivy-plugin.pom.xml');
    repo.write('pom.xml', head.replace('<version>2.8.5</version>', '<version>2.8.4</version>').replace('<version>4.5.11</version>', '<version>4.5.10</version>'));
    const base = repo.commit('base');
    repo.write('pom.xml', head).commit('bump gson and httpclient');
    // Trivy ran elsewhere: its ROOTPATH is file:///Volumes/opsbox/tmp/sonar-sarif-plugin/, which the gate suggests stripping.
    const elsewhere = await gate(fixture('trivy-sonar-trivy-plugin.sarif'), base);
    assert.equal(elsewhere.outcome.exitCode, 2);
    assert.match(elsewhere.outcome.message, /--strip-prefix \/Volumes\/opsbox\/tmp\/sonar-sarif-plugin\/ makes \/Volumes\/opsbox\/tmp\/sonar-sarif-plugin\/pom\.xml a file of the head$/);
    const { outcome, counts } = await gate(fixture('trivy-sonar-trivy-plugin.sarif'), base, { stripPrefixes: ['/Volumes/opsbox/tmp/sonar-sarif-plugin/'] });
    assert.equal(outcome.exitCode, 0, JSON.stringify(counts));
    assert.deepEqual([counts.net_new_count, counts.still_affected_count, counts.pre_existing_count], [0, 2, 5]);
  });
});
