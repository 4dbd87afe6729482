import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Counts } from '../../actions/gate/outputs/report.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';

const CLI = join(REPO_ROOT, 'dist', 'gate', 'cli', 'index.js');

/**
 * The diff must not depend on the git configuration of the machine it runs on: the gate's command
 * line, run from its bundle in a real repository whose own configuration sets every diff option
 * that changes git's output, must judge the pull request as it does with none.
 */
describe('gate ci: the diff is the same whatever the git configuration (bundle, real repository)', function () {
  this.timeout(60_000);
  let repo: GitRepo;
  let out: string;
  let base: string;

  /**
   * main: b/app.js (10 lines; a top-level folder named `b`), svc/x.js (5 lines).
   * pr:   b/app.js gains lines 6 and 12 (five unchanged lines between them); svc/x.js gains line 3.
   */
  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('b/app.js', lines(10)).write('svc/x.js', lines(5, 'svc '));
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    const app = lines(10).split('\n');
    app.splice(5, 0, 'eval(input);');
    app.splice(11, 0, 'const last = 1;');
    repo.write('b/app.js', app.join('\n'));
    const svc = lines(5, 'svc ').split('\n');
    svc.splice(2, 0, 'eval(other);');
    repo.write('svc/x.js', svc.join('\n'));
    repo.commit('pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-config-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  /** ESLint-like findings: the two added lines (net-new), and line 9 of b/app.js, near the added one but unchanged. */
  const report = (): string => {
    const at = (uri: string, line: number) => ({ ruleId: 'no-eval', level: 'error', message: { text: 'eval' }, locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }] });
    const path = join(out, 'report.sarif');
    writeFileSync(path, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint' } }, results: [at('b/app.js', 6), at('svc/x.js', 3), at('b/app.js', 9)] }] }));
    return path;
  };

  const gate = async (repoDir: string, env: NodeJS.ProcessEnv = {}) => {
    assert.ok(existsSync(CLI), 'run npm run build first');
    const counts = join(out, 'counts.json');
    const run = await runToEnd(process.execPath, [CLI, 'ci', '--sarif', report(), '--base', base, '--repo', repoDir, '--counts-json', counts], {
      env: { PATH: process.env.PATH ?? '', HOME: out, ...env },
    });
    return { ...run, counts: JSON.parse(readFileSync(counts, 'utf8')) as Counts };
  };

  it('with no configuration: the two added lines are net-new, the unchanged one pre-existing', async () => {
    const run = await gate(repo.dir);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual([run.counts.net_new_count, run.counts.pre_existing_count, run.counts.unmapped_count], [2, 1, 0]);
  });

  /** Each setting git reads that changes its diff's text or lines, with how to set it up here. */
  const settings: { name: string; repo?: string; env?: NodeJS.ProcessEnv; setUp: () => void }[] = [
    // A top-level folder named `b`: without its prefix, `+++ b/app.js` reads as app.js.
    { name: 'diff.noprefix', setUp: () => repo.git('config', 'diff.noprefix', 'true') },
    { name: 'diff.mnemonicPrefix', setUp: () => repo.git('config', 'diff.mnemonicPrefix', 'true') },
    // With --repo in a subfolder, git would list only its files, relative to it.
    { name: 'diff.relative (--repo svc)', repo: 'svc', setUp: () => repo.git('config', 'diff.relative', 'true') },
    {
      name: 'diff.external (a program that says nothing changed)',
      setUp: () => {
        const external = join(out, 'ext-diff.sh');
        writeFileSync(external, '#!/bin/sh\nexit 0\n');
        chmodSync(external, 0o755);
        repo.git('config', 'diff.external', external);
      },
    },
    { name: 'color.ui and color.diff always', setUp: () => (repo.git('config', 'color.ui', 'always'), repo.git('config', 'color.diff', 'always')) },
    // A text conversion (a driver named in attributes) that drops the first line shifts every line by one.
    {
      name: 'a textconv driver',
      setUp: () => {
        repo.git('config', 'diff.shift.textconv', 'sed 1d');
        writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), '*.js diff=shift\n');
      },
    },
    // Hunks closer than 10 lines merged: the unchanged lines between them would be in the hunk.
    { name: 'diff.interHunkContext', setUp: () => repo.git('config', 'diff.interHunkContext', '10') },
    { name: 'diff.algorithm patience', setUp: () => repo.git('config', 'diff.algorithm', 'patience') },
    // GIT_DIFF_OPTS overrides --unified: context lines in every hunk.
    { name: 'GIT_DIFF_OPTS=--unified=5', env: { GIT_DIFF_OPTS: '--unified=5' }, setUp: () => {} },
  ];

  for (const setting of settings) {
    it(`${setting.name} changes nothing`, async () => {
      setting.setUp();
      const run = await gate(setting.repo ? join(repo.dir, setting.repo) : repo.dir, setting.env);
      assert.equal(run.code, 1, run.stderr);
      assert.deepEqual([run.counts.net_new_count, run.counts.pre_existing_count, run.counts.unmapped_count], [2, 1, 0], run.stdout);
      assert.match(run.stdout, /BLOCKING high +b\/app\.js:6 /);
      assert.match(run.stdout, /BLOCKING high +svc\/x\.js:3 /);
    });
  }

  it('all of them at once change nothing', async () => {
    for (const setting of settings) setting.setUp();
    const run = await gate(join(repo.dir, 'svc'), { GIT_DIFF_OPTS: '--unified=5' });
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual([run.counts.net_new_count, run.counts.pre_existing_count, run.counts.unmapped_count], [2, 1, 0], run.stdout);
  });
});
