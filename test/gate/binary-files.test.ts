import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi } from '../../actions/gate/ci.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifResult } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';

/** Bytes git takes for binary: a NUL in the first 8000 (an archive's header, an ELF header). */
const JAR = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(16), Buffer.from('META-INF/MANIFEST.MF')]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(32)]);
const KEYSTORE = Buffer.from([0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2, 0, 0, 0, 1]);

/**
 * git writes no `+++ b/` line for a binary or an empty new file, so these files have no added
 * lines in the diff's text; a file the pull request added is new whatever its content. The
 * reports are in the shapes grype (a package found in an archive, no region) and Scorecard
 * (Binary-Artifacts: a file, line 1) write; the repositories are real ones made by the test.
 */
describe('gate ci: binary and empty files', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('README.md', 'readme\n').write('lib/old.jar', '');
    writeFileSync(join(repo.dir, 'lib', 'old.jar'), JAR);
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-binary-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const grype = (uri: string, pkg: string, version: string): SarifResult => ({
    ruleId: `CVE-2021-44228-${pkg}`,
    level: 'error',
    message: { text: `A critical vulnerability in java-archive package: ${pkg}, version ${version} was found at: /${uri}` },
    locations: [{ physicalLocation: { artifactLocation: { uri } } }],
  });
  const scorecard = (uri: string): SarifResult => ({
    ruleId: 'BinaryArtifactsID',
    level: 'error',
    message: { text: 'score is 9: binary detected' },
    locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: 1 } } }],
  });

  const gate = async (results: SarifResult[]) => {
    const sarif = join(out, 'report.sarif');
    writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'grype' } }, results }] }));
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, countsJson: join(out, 'counts.json') }, {});
    return { outcome, counts: JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts };
  };

  it('a new archive, ELF binary, key store and empty file: their findings are net-new', async () => {
    writeFileSync(join(repo.dir, 'lib-app.jar'), JAR);
    repo.write('bin/tool', '');
    writeFileSync(join(repo.dir, 'bin', 'tool'), ELF);
    repo.write('certs/app.jks', '');
    writeFileSync(join(repo.dir, 'certs', 'app.jks'), KEYSTORE);
    repo.write('config/empty.properties', '');
    repo.commit('binaries');
    const { outcome, counts } = await gate([grype('lib-app.jar', 'log4j-core', '2.14.1'), scorecard('bin/tool'), scorecard('certs/app.jks'), scorecard('config/empty.properties'), scorecard('README.md')]);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [4, 1]);
  });

  it('a changed binary has no lines to judge by: its findings count as net-new (fail closed)', async () => {
    writeFileSync(join(repo.dir, 'lib', 'old.jar'), Buffer.concat([JAR, Buffer.from('changed')]));
    repo.commit('a new version of the archive');
    const { outcome, counts } = await gate([grype('lib/old.jar', 'log4j-core', '2.14.1')]);
    assert.equal(outcome.exitCode, 1);
    assert.equal(counts.net_new_count, 1);
  });

  it('a lockfile that .gitattributes marks -diff is read as text: only the bumped package is net-new', async () => {
    const lock = (version: string) =>
      JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { 'node_modules/lodash': { version: '4.17.20' }, 'node_modules/minimist': { version } } }, null, 2) + '\n';
    repo.write('.gitattributes', 'package-lock.json -diff\n').write('package-lock.json', lock('1.2.5')).commit('lockfile');
    base = repo.git('rev-parse', 'HEAD');
    repo.write('package-lock.json', lock('1.2.6')).commit('bump minimist');
    const osv = (name: string, version: string): SarifResult => ({
      ruleId: `GHSA-${name}`,
      level: 'error',
      message: { text: `Package '${name}@${version}' is vulnerable to 'GHSA-${name}'.` },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'package-lock.json' }, region: { startLine: 1 } } }],
    });
    const { outcome, counts } = await gate([osv('lodash', '4.17.20'), osv('minimist', '1.2.6')]);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [1, 1]);
  });

  it('an unchanged binary, and a binary renamed without change, keep their findings pre-existing', async () => {
    repo.git('mv', 'lib/old.jar', 'lib/renamed.jar');
    repo.write('README.md', lines(3)).commit('rename');
    const { outcome, counts } = await gate([grype('lib/renamed.jar', 'log4j-core', '2.14.1')]);
    assert.equal(outcome.exitCode, 0);
    assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [0, 1]);
  });
});
