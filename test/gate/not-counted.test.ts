import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import type { CountsDocument } from '../../actions/gate/outputs/report.js';
import { gateReport, SUMMARY_LIMIT } from '../../actions/gate/outputs/summary.js';
import { COMMENT_LIMIT } from '../../actions/gate/outputs/pr-comment.js';
import type { SarifLog, SarifResult } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { fixturePath } from '../support/fixtures.js';

const fixture = (name: string): string => readFileSync(fixturePath('gate', name), 'utf8');

/**
 * "Not counted, and why": every result of the head report that is not net-new carries exactly one
 * reason in the counts document, with what a reviewer checks it against; the job summary counts
 * them per reason and lists the first of each. Real repositories made by the test; real reports
 * where one exists (the fixtures' README names each source and licence).
 */
describe('gate ci: not counted, and why', () => {
  let repo: GitRepo;
  let out: string;
  beforeEach(() => {
    repo = GitRepo.create();
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-why-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (report: SarifLog | string, base: string, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, `report-${Math.random()}.sarif`);
    writeFileSync(sarif, typeof report === 'string' ? report : JSON.stringify(report));
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, countsJson: join(out, 'counts.json'), ...options }, {});
    const counts = JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as CountsDocument;
    return { outcome, counts };
  };
  const at = (uri: string, line: number | undefined, extra: Partial<SarifResult> = {}): SarifResult => ({
    ruleId: 'no-eval',
    level: 'error',
    message: { text: 'eval can be harmful' },
    locations: [{ physicalLocation: { artifactLocation: { uri }, ...(line ? { region: { startLine: line } } : {}) } }],
    ...extra,
  });
  const eslint = (...results: SarifResult[]): SarifLog => ({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint', rules: [{ id: 'no-eval' }] } }, results }] });

  it('unchanged-line, moved (from where), suppressed (kind and justification), unmapped (the path as written), no-location, not-a-finding: one reason each, and the partition holds', async () => {
    const fn = ['function add(a, b) {', '  const total = eval(a + b);', '  return total;', '}'];
    repo.write('src/math.js', `${lines(10)}${fn.join('\n')}\n`).write('src/app.js', lines(10)).write('README.md', 'readme\n');
    const base = repo.commit('base');
    // The function moves from math.js (lines 11-14) to other.js (lines 3-6), re-indented.
    repo.write('src/math.js', lines(10)).write('src/other.js', `${lines(2, 'other ')}${fn.map((l) => `  ${l}`).join('\n')}\n`);
    repo.commit('move add() to other.js');
    const report = eslint(
      at('src/other.js', 4),
      at('src/app.js', 3),
      at('src/app.js', 5, { suppressions: [{ kind: 'inSource', justification: 'reviewed: input is a constant' }] }),
      at('node_modules/left-pad/index.js', 2),
      { ruleId: 'no-eval', level: 'note', message: { text: 'somewhere' } },
      at('src/other.js', 4, { baselineState: 'absent' }),
    );
    const { outcome, counts } = await gate(report, base);
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual(
      counts.not_counted.map((n) => n.reason),
      ['moved', 'unchanged-line', 'suppressed', 'unmapped', 'no-location', 'not-a-finding'],
    );
    const [moved, unchanged, suppressed, unmapped, noLocation, notAFinding] = counts.not_counted;
    assert.deepEqual(moved, { reason: 'moved', tool: 'eslint', rule: 'no-eval', severity: 'high', path: 'src/other.js', line: 4, run: 0, result: 0, moved_from: { path: 'src/math.js', line: 12 } });
    assert.deepEqual(unchanged, { reason: 'unchanged-line', tool: 'eslint', rule: 'no-eval', severity: 'high', path: 'src/app.js', line: 3, run: 0, result: 1 });
    assert.deepEqual(suppressed!.suppression, { kind: 'inSource', justification: 'reviewed: input is a constant' });
    assert.deepEqual([unmapped!.path, unmapped!.path_as_written], ['node_modules/left-pad/index.js', 'node_modules/left-pad/index.js']);
    assert.deepEqual([noLocation!.path, noLocation!.severity], [undefined, 'low']);
    assert.equal(notAFinding!.baseline_state, 'absent');
    assert.deepEqual(counts.not_counted_by_reason, {
      'unchanged-line': 1,
      moved: 1,
      baseline: 0,
      'bump-still-vulnerable': 0,
      'image-unchanged': 0,
      'package-unchanged': 0,
      suppressed: 1,
      unmapped: 1,
      unattributed: 0,
      'no-location': 1,
      'sops-encrypted': 0,
      'not-a-finding': 1,
    });
    // Exactly one reason for every result that is not net-new.
    assert.equal(counts.not_counted.length + counts.net_new_count, counts.total_count);
    assert.equal(counts.schema_version, 1, 'fields were added, none changed: the schema stays 1');
  });

  it('baseline: the base report\'s matching result (rule, path, line, the fingerprint used)', async () => {
    repo.write('src/app.js', lines(10));
    const base = repo.commit('base');
    repo.write('src/app.js', `${lines(10)}eval(x);\n`).commit('pr');
    const print = { partialFingerprints: { primaryLocationLineHash: 'a1b2c3d4:1' } };
    const baseline = join(out, 'baseline.sarif');
    writeFileSync(baseline, JSON.stringify(eslint(at('src/app.js', 9, print))));
    const { outcome, counts } = await gate(eslint(at('src/app.js', 11, print)), base, { baselineSarif: baseline });
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual(counts.not_counted[0], {
      reason: 'baseline',
      tool: 'eslint',
      rule: 'no-eval',
      severity: 'high',
      path: 'src/app.js',
      line: 11,
      run: 0,
      result: 0,
      baseline: { rule: 'no-eval', path: 'src/app.js', line: 9, fingerprint: 'partialFingerprints/primaryLocationLineHash=a1b2c3d4:1' },
    });
  });

  it('bump-still-vulnerable (Trivy on a real pom.xml): package, base version, head version, the fixed version the report names', async () => {
    const head = fixture('trivy-sonar-trivy-plugin.pom.xml');
    repo.write('pom.xml', head.replace('<version>2.8.5</version>', '<version>2.8.4</version>').replace('<version>4.5.11</version>', '<version>4.5.10</version>'));
    const base = repo.commit('base');
    repo.write('pom.xml', head).commit('bump gson and httpclient');
    const { counts } = await gate(fixture('trivy-sonar-trivy-plugin.sarif'), base, { stripPrefixes: ['/Volumes/opsbox/tmp/sonar-sarif-plugin/'] });
    const bumps = counts.not_counted.filter((n) => n.reason === 'bump-still-vulnerable').map((n) => n.bump);
    assert.deepEqual(bumps, [
      { package: 'com.google.code.gson:gson', base_version: '2.8.4', head_version: '2.8.5', fixed_version: '2.8.9', crosses_major: false },
      { package: 'org.apache.httpcomponents:httpclient', base_version: '4.5.10', head_version: '4.5.11', fixed_version: '4.5.13', crosses_major: false },
    ]);
    // The report's other findings name packages the pull request did not touch.
    assert.ok(counts.not_counted.filter((n) => n.reason !== 'bump-still-vulnerable').every((n) => n.reason === 'package-unchanged' && n.package?.name));
  });

  it('bump-still-vulnerable flags a bump that crosses a major version: the report cannot say whether the base version was affected', async () => {
    // A Trivy result in the shape of its SARIF template (the package, versions and fix in the message).
    const trivy = (name: string, version: string, fixed: string): SarifResult => ({
      ruleId: `CVE-2021-44906-${name}`,
      level: 'error',
      message: { text: `Package: ${name}\nInstalled Version: ${version}\nVulnerability CVE-2021-44906\nSeverity: CRITICAL\nFixed Version: ${fixed}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'package-lock.json' }, region: { startLine: 1 } } }],
    });
    const lock = (version: string) => `{\n  "packages": {\n    "node_modules/minimist": {\n      "version": "${version}"\n    }\n  }\n}\n`;
    repo.write('package-lock.json', lock('0.2.0'));
    const base = repo.commit('base');
    repo.write('package-lock.json', lock('1.2.5')).commit('bump minimist across a major');
    const { outcome, counts } = await gate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'Trivy' } }, results: [trivy('minimist', '1.2.5', '1.2.6')] }] }, base);
    assert.equal(outcome.exitCode, 0, 'the verdict does not change: the flag is for the reviewer');
    assert.deepEqual(counts.not_counted[0]!.bump, { package: 'minimist', base_version: '0.2.0', head_version: '1.2.5', fixed_version: '1.2.6', crosses_major: true });
  });

  it('image-unchanged (Snyk Container on stakater/Reloader, a pull request that leaves the FROM lines alone): the package', async () => {
    repo.write('Dockerfile', fixture('stakater-reloader-d0a50d3.Dockerfile')).write('main.go', 'package main\n');
    const base = repo.commit('base');
    repo.write('main.go', 'package main\n\nfunc main() {}\n').commit('code only');
    const { counts } = await gate(fixture('snyk-container-stakater-reloader.sarif'), base);
    assert.equal(counts.not_counted_by_reason['image-unchanged'], 20);
    const first = counts.not_counted[0]!;
    assert.equal(first.path, 'Dockerfile');
    assert.ok(first.package?.name && first.package.version, JSON.stringify(first));
  });

  it('the job summary: counts per reason, the first 20 of each in a collapsed section, the report\'s text escaped; the comment has the counts only', async () => {
    repo.write('src/app.js', lines(30));
    const base = repo.commit('base');
    repo.write('README.md', 'x\n').commit('docs');
    const hostile = '<img src=x onerror=alert(1)> ping @octo-org/admins about #12 [click](https://evil.example) **bold**';
    const results = Array.from({ length: 25 }, (_, i) => at('src/app.js', i + 1, { message: { text: i === 0 ? hostile : `finding ${i + 1}` } }));
    const { outcome } = await gate(eslint(...results), base);
    const summary = gateReport(outcome, {}, SUMMARY_LIMIT);
    assert.match(summary, /\*\*Not counted, and why\*\*/);
    assert.match(summary, /\| `unchanged-line` \| 25 \|/);
    assert.match(summary, /<details><summary>The first findings of each reason<\/summary>/);
    assert.match(summary, /\*\*unchanged-line\*\* \(20 of 25\):/);
    assert.equal((summary.match(/^- src\/app\.js:\d+ · high · eslint no-eval/gm) ?? []).length, 20);
    assert.doesNotMatch(summary, /<img/);
    assert.match(summary, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(summary, /@\u200bocto-org\/admins about #\u200b12/);
    // No link of the report's making; emphasis may stay (server/markdown.ts says why).
    assert.match(summary, /\\\[click\\\]\(https:\/\/evil\.example\) \*\*bold\*\*/);
    assert.doesNotMatch(summary, /[^\u200b]@octo-org/);
    const comment = gateReport(outcome, {}, COMMENT_LIMIT);
    assert.match(comment, /\| `unchanged-line` \| 25 \|/);
    assert.doesNotMatch(comment, /<details>/);
  });
});
