import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_PACKAGE } from '../../server/version.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';

const exec = promisify(execFile);
const PACKAGE_DIR = join(REPO_ROOT, 'packages', 'cli');
const manifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { version: string };
const ROOT = manifest(join(REPO_ROOT, 'package.json'));
const CLI = manifest(join(PACKAGE_DIR, 'package.json'));

/** npm, offline: nothing here may reach the registry (or fetch someone else's package). */
const npm = (args: string[], cwd: string) => exec('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });

describe(`the CLIs' npm package (packages/cli, ${CLI_PACKAGE})`, function () {
  // Packing and installing a tarball are whole npm runs.
  this.timeout(180_000);

  it('is public and carries the root version, the two bins, node >= the root\'s, and only its bundles', () => {
    assert.equal(CLI.name, CLI_PACKAGE);
    assert.equal(CLI.private, undefined);
    assert.equal(CLI.version, ROOT.version, 'release-please bumps both (extra-files): they must agree');
    assert.deepEqual(CLI.bin, { gate: 'dist/gate/index.js', 'gatehouse-sync': 'dist/sync/index.js' });
    assert.deepEqual(CLI.files, ['dist/']);
    assert.deepEqual(CLI.engines, ROOT.engines);
    assert.equal(CLI.license, ROOT.license);
    assert.equal(CLI.dependencies, undefined, 'the bundles hold their dependencies');
    // The root stays private (never published): its bins serve a clone only.
    assert.equal(ROOT.private, true);
  });

  describe('packed, installed into a project offline, and run', () => {
    let work: string;
    let repo: GitRepo;
    let bin: (name: string) => string;
    let packed: { files: { path: string }[]; filename: string }[];

    before(async () => {
      assert.ok(existsSync(join(REPO_ROOT, 'dist', 'gate', 'cli', 'index.js')), 'run npm run build first');
      work = mkdtempSync(join(tmpdir(), 'gatehouse-cli-package-'));
      // prepack copies the bundles from dist/, as npm publish does.
      const { stdout } = await npm(['pack', '--json', '--pack-destination', work], PACKAGE_DIR);
      packed = JSON.parse(stdout) as typeof packed;
      const project = join(work, 'project');
      await exec('mkdir', ['-p', project]);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
      await npm(['install', join(work, packed[0]!.filename)], project);
      bin = (name) => join(project, 'node_modules', '.bin', name);
      repo = GitRepo.create();
    });
    after(() => {
      repo?.cleanup();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('the tarball holds the two bundles with their chunks and licenses, the manifest, README and LICENSE, nothing else', () => {
      const files = packed[0]!.files.map((f) => f.path).sort();
      for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/gate/index.js', 'dist/gate/package.json', 'dist/gate/licenses.txt', 'dist/sync/index.js', 'dist/sync/package.json', 'dist/sync/licenses.txt']) {
        assert.ok(files.includes(file), `${file} not packed`);
      }
      assert.deepEqual(files.filter((f) => !/^(package\.json|README\.md|LICENSE)$/.test(f) && !/^dist\/(gate|sync)\/[^/]+$/.test(f)), []);
      // Lazily loaded chunks travel with their entry (serve's service, the YAML parser).
      assert.ok(files.some((f) => /^dist\/sync\/\d+\.index\.js$/.test(f)));
      assert.ok(files.some((f) => /^dist\/gate\/\d+\.index\.js$/.test(f)));
    });

    it('gate --version and gatehouse-sync --version print the version; each --help is its own', async () => {
      for (const name of ['gate', 'gatehouse-sync']) {
        const version = await runToEnd(bin(name), ['--version']);
        assert.equal(version.code, 0, version.stderr);
        assert.equal(version.stdout, `${ROOT.version}\n`);
      }
      const ci = await runToEnd(bin('gate'), ['ci', '--help']);
      assert.match(ci.stdout, /^Usage: gate ci \[options\]/);
      const sonar = await runToEnd(bin('gatehouse-sync'), ['sync-sonarqube', '--help']);
      assert.match(sonar.stdout, /^Usage: gatehouse-sync sync-sonarqube \[options\][\s\S]*--all-issue-types/);
    });

    it('gate ci answers on a real repository: a finding on a line the branch added blocks (exit 1), then NO ANSWER on a report with no runs (exit 2)', async () => {
      repo.write('app.js', lines(5));
      const base = repo.commit('base');
      repo.git('checkout', '--quiet', '-b', 'feature');
      repo.write('app.js', `${lines(5)}added\n`);
      repo.commit('feature');
      const sarif = join(work, 'report.sarif');
      const finding = { ruleId: 'r1', level: 'error', message: { text: 'x' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'app.js' }, region: { startLine: 6 } } }] };
      writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint', rules: [{ id: 'r1' }] } }, results: [finding] }] }));
      const blocked = await runToEnd(bin('gate'), ['ci', '--base', base, '--sarif', sarif], { cwd: repo.dir });
      assert.equal(blocked.code, 1, blocked.stderr);
      assert.match(blocked.stdout, /^BLOCKING high +app\.js:6 eslint r1$/m);
      assert.match(blocked.stderr, /gate: blocked by 1 net-new finding at or above high \(exit 1\)\n$/);

      writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [] }));
      const none = await runToEnd(bin('gate'), ['ci', '--base', base, '--sarif', sarif], { cwd: repo.dir });
      assert.equal(none.code, 2);
      assert.match(none.stderr, /gate: NO ANSWER \(exit 2\): the SARIF report has no runs: nothing was scanned\n$/);
    });
  });
});
