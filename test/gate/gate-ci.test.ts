import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import { runnerEvent } from '../../actions/gate/runner-event.js';
import { gateCommand } from '../../actions/gate/command.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog, SarifResult, SarifRun } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { fixturesDir, readFixture } from '../support/fixtures.js';

/** The project's real-world fixtures (test/fixtures/gate; sources and licences in its README). */
const FIXTURES = fixturesDir('gate');

const result = (path: string | undefined, line: number | undefined, extra: Partial<SarifResult> = {}): SarifResult => ({
  ruleId: 'rule-1',
  level: 'error',
  message: { text: 'finding' },
  ...(path === undefined
    ? {}
    : { locations: [{ physicalLocation: { artifactLocation: { uri: path }, ...(line === undefined ? {} : { region: { startLine: line } }) } }] }),
  ...extra,
});

const run = (results: SarifResult[], extra: Partial<SarifRun> = {}): SarifRun => ({
  tool: { driver: { name: 'eslint', rules: [{ id: 'rule-1' }, { id: 'critical-rule', properties: { 'security-severity': '9.5' } }] } },
  results,
  ...extra,
});

describe('gate ci', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;

  /**
   * main: src/app.js (20 lines), lib/moved.js (10 lines).
   * pr:   src/app.js gains line 6 and changes line 10; src/new.js is new; lib/moved.js is renamed
   *       to lib/renamed.js with line 11 added.
   */
  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('src/app.js', lines(20)).write('lib/moved.js', lines(10, 'moved ')).write('README.md', 'readme\n');
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    const app = lines(20).split('\n');
    app.splice(5, 0, 'inserted line');
    app[10] = 'changed line 10';
    repo.write('src/app.js', app.join('\n'));
    repo.write('src/new.js', lines(3, 'new '));
    repo.git('mv', 'lib/moved.js', 'lib/renamed.js');
    repo.write('lib/renamed.js', lines(10, 'moved ') + 'added at 11\n');
    repo.commit('pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (log: unknown, options: Partial<CiOptions> = {}) => {
    const sarif = join(out, `report-${Math.random()}.sarif`);
    writeFileSync(sarif, JSON.stringify(log));
    const outcome = await runCi(
      {
        sarif,
        base,
        head: 'HEAD',
        repo: repo.dir,
        failOn: 'high',
        strict: false,
        filteredOut: join(out, 'filtered.sarif'),
        countsJson: join(out, 'counts.json'),
        ...options,
      },
      {},
    );
    const counts = JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts;
    const filtered = JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog;
    return { outcome, counts, filtered };
  };
  const sarif = (...runs: SarifRun[]): SarifLog => ({ version: '2.1.0', runs });

  it('an added line and a new file are net-new; unchanged lines are pre-existing; exit 1 on a blocking one', async () => {
    const { outcome, counts, filtered } = await gate(
      sarif(run([result('src/app.js', 6), result('src/app.js', 3), result('src/new.js', 2, { level: 'warning' }), result('README.md', 1)])),
    );
    assert.equal(outcome.exitCode, 1);
    assert.equal(counts.exit_code, 1);
    assert.equal(counts.total_count, 4);
    assert.equal(counts.net_new_count, 2);
    assert.equal(counts.pre_existing_count, 2);
    assert.equal(counts.blocking_count, 1);
    assert.deepEqual(counts.net_new_by_severity, { critical: 0, high: 1, medium: 1, low: 0, info: 0 });
    assert.equal(counts.schema_version, 1);
    assert.match(outcome.message, /blocked by 1 net-new finding/);
    const results = filtered.runs[0]!.results!;
    assert.deepEqual(
      results.map((r) => [r.locations![0]!.physicalLocation!.artifactLocation!.uri, r.baselineState]),
      [
        ['src/app.js', 'new'],
        ['src/new.js', 'new'],
      ],
    );
    assert.deepEqual(filtered.runs[0]!.tool.driver.rules, run([]).tool.driver.rules, 'tool and rule metadata kept');
    assert.equal(filtered.version, '2.1.0');
  });

  it('a changed line counts as added; the lines shifted by an insertion do not', async () => {
    const { counts } = await gate(sarif(run([result('src/app.js', 11), result('src/app.js', 12), result('src/app.js', 21)])));
    assert.equal(counts.net_new_count, 1, 'line 11 is the changed line 10, shifted by the insertion');
  });

  it('a renamed file is matched by its new path: only its added line is net-new', async () => {
    const { counts } = await gate(sarif(run([result('lib/renamed.js', 11), result('lib/renamed.js', 2), result('lib/moved.js', 2)])));
    assert.equal(counts.net_new_count, 1);
    assert.equal(counts.pre_existing_count, 1);
    assert.equal(counts.unmapped_count, 1, 'the old path is no file of the head: not judged, never pre-existing');
  });

  it('exit 0 when no net-new finding reaches --fail-on; critical from the security-severity band', async () => {
    const log = sarif(run([result('src/app.js', 6), result('src/new.js', 1, { ruleId: 'critical-rule', ruleIndex: 1, level: 'note' })]));
    const critical = await gate(log, { failOn: 'critical' });
    assert.equal(critical.outcome.exitCode, 1);
    assert.deepEqual(critical.counts.net_new_by_severity, { critical: 1, high: 1, medium: 0, low: 0, info: 0 });
    assert.equal(critical.counts.blocking_count, 1);
    assert.equal((await gate(sarif(run([result('src/app.js', 6)])), { failOn: 'critical' })).outcome.exitCode, 0);
    assert.equal((await gate(log, { failOn: 'none' })).outcome.exitCode, 0);
    const any = await gate(sarif(run([result('src/app.js', 6, { level: 'none' })])), { failOn: 'any' });
    assert.equal(any.outcome.exitCode, 1);
  });

  it('normalises file:// URIs, absolute workspace paths, uriBaseId and MegaLinter container prefixes', async () => {
    const uris: [string, string | undefined][] = [
      [`file://${repo.dir}/src/app.js`, undefined],
      [`${repo.dir}/src/app.js`, undefined],
      ['/tmp/lint/src/app.js', undefined],
      ['/github/workspace/src/app.js', undefined],
      ['./src/app.js', undefined],
      ['src/app.js', '%SRCROOT%'],
      ['app.js', 'SRC'],
      ['src%2Fapp.js', undefined],
    ];
    const results = uris.map(([uri, uriBaseId]) => ({
      ruleId: 'rule-1',
      level: 'error',
      message: { text: 'x' },
      locations: [{ physicalLocation: { artifactLocation: { uri, ...(uriBaseId ? { uriBaseId } : {}) }, region: { startLine: 6 } } }],
    }));
    const { counts } = await gate(
      sarif(run(results, { originalUriBaseIds: { '%SRCROOT%': { uri: `file://${repo.dir}/` }, SRC: { uri: 'src/', uriBaseId: '%SRCROOT%' } } })),
    );
    assert.equal(counts.net_new_count, uris.length);
  });

  it('a result without a file is counted apart and, at or above --fail-on, is no answer rather than a pass; one without a line in a modified file is net-new unless told otherwise', async () => {
    const log = sarif(run([result(undefined, undefined), result('src/app.js', undefined), result('README.md', undefined)]));
    const { outcome, counts } = await gate(log);
    assert.equal(outcome.exitCode, 1, 'a finding the gate cannot place in a changed file is not passed');
    assert.equal(counts.no_location_count, 1);
    assert.equal(counts.net_new_count, 1);
    assert.equal(counts.unattributed_count, 1);
    assert.equal(counts.pre_existing_count, 1, 'README.md is unchanged');
    const lenient = await gate(log, { unattributed: 'pre-existing' });
    assert.equal(lenient.outcome.exitCode, 2, 'an error without a file cannot be placed: no answer, never a pass');
    assert.match(lenient.outcome.message, /^no answer: 1 result at or above high names no file \(the first: eslint rule-1, high\): the diff cannot tell whether the pull request introduced it; give --baseline-sarif/);
    assert.equal(lenient.counts.pre_existing_count, 2);
    assert.equal(lenient.counts.unattributed_count, 1);
    // Below the threshold it could not block even if new: counted, and the answer stands.
    const warning = await gate(sarif(run([result(undefined, undefined, { level: 'warning' }), result('README.md', undefined)])));
    assert.deepEqual([warning.outcome.exitCode, warning.counts.no_location_count], [0, 1]);
  });

  it('suppressed results never block; an empty suppressions list is no suppression; rejected and under review still count', async () => {
    const { counts } = await gate(
      sarif(
        run([
          result('src/app.js', 6, { suppressions: [{ kind: 'inSource' }] }),
          result('src/app.js', 6, { suppressions: [{ kind: 'external', status: 'accepted' }] }),
          result('src/app.js', 6, { suppressions: [] }),
          result('src/app.js', 6, { suppressions: [{ kind: 'external', status: 'rejected' }] }),
          result('src/app.js', 6, { suppressions: [{ kind: 'external', status: 'underReview' }] }),
        ]),
      ),
    );
    assert.equal(counts.suppressed_count, 2);
    assert.equal(counts.net_new_count, 3);
    assert.equal(counts.blocking_count, 3);
  });

  describe('SOPS-encrypted secrets (the SOPS project\'s own example file)', () => {
    before(function () {
    });

    beforeEach(() => {
      const sops = readFileSync(join(FIXTURES, 'sops-example.yaml'), 'utf8');
      repo.write('config/secrets.yaml', `${sops}plaintext_password: hunter2-not-encrypted\n`);
      repo.commit('add secrets');
    });

    it('a secret-scanner result on an ENC[AES256_GCM,…] line is dropped; a plaintext secret beside it still gates', async () => {
      const text = readFileSync(join(repo.dir, 'config/secrets.yaml'), 'utf8').split('\n');
      const encLine = text.findIndex((l) => l.includes('ENC[AES256_GCM,')) + 1;
      const plainLine = text.findIndex((l) => l.includes('hunter2')) + 1;
      assert.ok(encLine > 0 && plainLine > 0);
      const secrets = run(
        [
          // The snippet is redacted by the scanner and never trusted.
          result('config/secrets.yaml', encLine, { ruleId: 'generic-api-key', locations: [{ physicalLocation: { artifactLocation: { uri: 'config/secrets.yaml' }, region: { startLine: encLine, snippet: { text: 'REDACTED' } } } }] }),
          result('config/secrets.yaml', plainLine, { ruleId: 'generic-api-key' }),
        ],
        { tool: { driver: { name: 'gitleaks' } } },
      );
      const { outcome, counts } = await gate(sarif(secrets));
      assert.equal(counts.sops_ignored_count, 1);
      assert.equal(counts.net_new_count, 1);
      assert.equal(outcome.exitCode, 1);
    });

    it('the same line reported by a tool that is not a secret scanner is not dropped', async () => {
      const text = readFileSync(join(repo.dir, 'config/secrets.yaml'), 'utf8').split('\n');
      const encLine = text.findIndex((l) => l.includes('ENC[AES256_GCM,')) + 1;
      const { counts } = await gate(sarif(run([result('config/secrets.yaml', encLine)])));
      assert.equal(counts.sops_ignored_count, 0);
      assert.equal(counts.net_new_count, 1);
    });
  });

  describe('exit 2: no answer, never a guess', () => {
    /** The spec's "counts document of zeros": every count, the severity breakdown, nothing missing, not stale. */
    const zeroCounts = (counts: Counts) => {
      assert.equal(counts.exit_code, 2);
      assert.equal(counts.total_count, 0);
      assert.equal(counts.net_new_count, 0);
      assert.equal(counts.blocking_count, 0);
      const countKeys = Object.keys(counts).filter((k) => k.endsWith('_count'));
      assert.ok(countKeys.length >= 10, `${countKeys.length} count fields`);
      for (const key of countKeys) assert.equal(counts[key as keyof Counts], 0, key);
      assert.ok(Object.values(counts.net_new_by_severity).every((n) => n === 0), JSON.stringify(counts.net_new_by_severity));
      assert.deepEqual(counts.linters_missing, []);
      assert.equal(counts.stale_report, false);
    };

    it('a shallow clone names fetch-depth: 0, and still writes the outputs', async () => {
      const shallow = mkdtempSync(join(tmpdir(), 'gatehouse-shallow-'));
      try {
        execFileSync('git', ['clone', '--quiet', '--depth', '1', '--branch', 'pr', `file://${repo.dir}`, shallow]);
        const { outcome, counts, filtered } = await gate(sarif(run([result('src/app.js', 6)])), { repo: shallow, base: 'origin/main' });
        assert.equal(outcome.exitCode, 2);
        assert.match(outcome.message, /fetch-depth: 0/);
        zeroCounts(counts);
        assert.match(counts.error!, /shallow/);
        assert.deepEqual(filtered.runs, []);
      } finally {
        rmSync(shallow, { recursive: true, force: true });
      }
    });

    it('an unreachable base', async () => {
      const { outcome, counts } = await gate(sarif(run([result('src/app.js', 6)])), { base: 'f'.repeat(40) });
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /not reachable.*fetch-depth: 0/);
      zeroCounts(counts);
    });

    it('no merge-base (unrelated histories)', async () => {
      repo.git('checkout', '--quiet', '--orphan', 'unrelated');
      repo.write('other.txt', 'x\n');
      const orphan = repo.commit('unrelated root');
      repo.git('checkout', '--quiet', 'pr');
      const { outcome } = await gate(sarif(run([result('src/app.js', 6)])), { base: orphan });
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /share no commit \(no merge-base\): the base's history was rewritten \(force-pushed\) .* or the two branches are unrelated/);
      assert.doesNotMatch(outcome.message, /fetch-depth/, 'not a shallow clone: fetch-depth is not the cause');
    });

    it('a report with zero runs, on its own (no --strict): a counts document of zeros', async () => {
      const { outcome, counts } = await gate({ version: '2.1.0', runs: [] });
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /no runs/);
      zeroCounts(counts);
    });

    it('a file that is not SARIF, or missing', async () => {
      assert.equal((await gate({ hello: 'world' })).outcome.exitCode, 2);
      const missing = await runCi({ sarif: join(out, 'nope.sarif'), base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false }, {});
      assert.equal(missing.exitCode, 2);
    });

    it('a report problem is answered once git is done: no git diff is left running behind the answer', async () => {
      // git diff writes into a folder of the system's temporary folder, removed when it is done.
      const temporary = mkdtempSync(join(tmpdir(), 'gatehouse-gate-tmp-'));
      const before = process.env.TMPDIR;
      process.env.TMPDIR = temporary;
      try {
        const missing = await runCi({ sarif: join(out, 'nope.sarif'), base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false }, {});
        assert.equal(missing.exitCode, 2);
        assert.match(missing.message, /^no answer: cannot read the SARIF report .*nope\.sarif: ENOENT$/);
        assert.equal(missing.diff, undefined, 'the report is reported, not the diff');
        assert.deepEqual(readdirSync(temporary), [], 'git diff had ended, its output removed');
      } finally {
        if (before === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = before;
        rmSync(temporary, { recursive: true, force: true });
      }
    });

    it('a report problem in a folder git cannot read: the report is the answer, and git\'s failures are not left unhandled', async () => {
      const notARepository = mkdtempSync(join(tmpdir(), 'gatehouse-not-git-'));
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        const outcome = await runCi({ sarif: join(out, 'nope.sarif'), base, head: 'HEAD', repo: notARepository, failOn: 'high', strict: false, countsJson: join(out, 'counts.json') }, {});
        assert.equal(outcome.exitCode, 2);
        assert.match(outcome.message, /^no answer: cannot read the SARIF report /);
        zeroCounts(JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts);
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(unhandled, []);
      } finally {
        process.off('unhandledRejection', record);
        rmSync(notARepository, { recursive: true, force: true });
      }
    });
  });

  it('a run whose results is null or absent computed none: no answer (exit 2) naming the tool; results [] is a clean run', async () => {
    const { results: _absent, ...withoutResults } = run([]);
    for (const uncomputed of [{ ...run([]), results: null }, withoutResults]) {
      const { counts, outcome } = await gate({ version: '2.1.0', runs: [{ ...uncomputed, tool: { driver: { name: 'codeql' } } } as SarifRun, run([result('src/app.js', 6)])] });
      assert.equal(outcome.exitCode, 2);
      assert.match(outcome.message, /^no answer: the run of codeql produced no results \("results" is null or absent/);
      assert.equal(counts.error, outcome.message.replace(/^no answer: /, ''));
      assert.deepEqual((JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog).runs, []);
    }
    const clean = await gate({ version: '2.1.0', runs: [{ ...run([]), results: [] }, run([result('src/app.js', 3)])] });
    assert.equal(clean.outcome.exitCode, 0);
    assert.equal(clean.counts.total_count, 1);
  });

  describe('MegaLinter', () => {
    const megalinterRun = (key: string, results: SarifResult[], extra: Partial<SarifRun> = {}): SarifRun =>
      run(results, { tool: { driver: { name: `${key.toLowerCase()} (MegaLinter ${key})` } }, properties: { megalinter: { linterKey: key } }, ...extra });

    it('an enabled linter without SARIF output is listed in linters_skipped with its reason; --strict makes it exit 2', async () => {
      const log = { ...sarif(megalinterRun('JAVASCRIPT_ES', [result('src/app.js', 6, { level: 'warning' })])), properties: { dockerImage: { buildVersion: 'v8.3.0' } } };
      const lenient = await gate(log, { linters: 'JAVASCRIPT_ES,ACTION_ACTIONLINT,PYTHON_PYLINT,POWERSHELL_POWERSHELL' });
      assert.equal(lenient.outcome.exitCode, 0);
      assert.deepEqual(
        lenient.counts.linters_skipped.map((s) => s.linter),
        ['ACTION_ACTIONLINT', 'POWERSHELL_POWERSHELL', 'PYTHON_PYLINT'],
      );
      assert.match(lenient.counts.linters_skipped[0]!.reason, /cannot write SARIF/);
      const strict = await gate(log, { linters: 'ACTION_ACTIONLINT', strict: true });
      assert.equal(strict.outcome.exitCode, 2);
      assert.match(strict.outcome.message, /^no answer: --strict: ACTION_ACTIONLINT is enabled but cannot write SARIF/);
    });

    it('enabled linters come from ENABLE_LINTERS, else .mega-linter.yml', async () => {
      repo.write('.mega-linter.yml', 'ENABLE_LINTERS:\n  - PYTHON_PYLINT\n  - JAVASCRIPT_ES\n');
      const fromFile = await gate(sarif(megalinterRun('JAVASCRIPT_ES', [])));
      assert.deepEqual(fromFile.counts.linters_skipped.map((s) => s.linter), ['PYTHON_PYLINT']);
      const sarifPath = join(out, 'env.sarif');
      writeFileSync(sarifPath, JSON.stringify(sarif(megalinterRun('JAVASCRIPT_ES', []))));
      const fromEnv = await runCi({ sarif: sarifPath, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false }, { ENABLE_LINTERS: 'ACTION_ACTIONLINT' });
      assert.deepEqual(fromEnv.counts.linters_skipped.map((s) => s.linter), ['ACTION_ACTIONLINT']);
    });

    it('the linter key comes from the driver-name suffix when properties lack it (even written twice); SBOM runs are not linters', async () => {
      const doubled = run([result('src/app.js', 6)], { tool: { driver: { name: 'Trivy (MegaLinter PYTHON_PYLINT) (MegaLinter PYTHON_PYLINT)' } } });
      const sbom = run([], { tool: { driver: { name: 'trivy' } }, properties: { megalinter: { sbom: { bomFormat: 'CycloneDX' } } } });
      const { counts } = await gate(sarif(doubled, sbom), { linters: 'PYTHON_PYLINT' });
      assert.equal(counts.net_new_count, 0, 'a skipped linter yields no findings');
      assert.deepEqual(counts.linters_skipped.map((s) => s.linter), ['PYTHON_PYLINT']);
    });

    it('a run whose invocation failed is reported, and is a tool error under --strict', async () => {
      const failed = megalinterRun('JAVASCRIPT_ES', [], { invocations: [{ executionSuccessful: false, exitCode: 2 }] });
      const lenient = await gate(sarif(failed));
      assert.equal(lenient.outcome.exitCode, 0);
      assert.deepEqual(lenient.counts.failed_invocations, ['JAVASCRIPT_ES']);
      assert.equal((await gate(sarif(failed), { strict: true })).outcome.exitCode, 2);
    });
  });

  describe('every fixture of test/fixtures/gate', () => {
    before(function () {
    });

    const files = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((f) => f.endsWith('.sarif')) : [];

    it('the fixtures folder is present', function () {
      assert.ok(files.length > 0, 'the fixtures are in the project');
      assert.ok(files.length >= 11);
    });

    for (const file of files) {
      it(`${file}: every result is accounted for; zero runs is exit 2`, async () => {
        const log = readFixture<SarifLog>('gate', file);
        const results = log.runs.reduce((n, r) => n + (r.results?.length ?? 0), 0);
        const { outcome, counts, filtered } = await gate(log);
        if (log.runs.length === 0) {
          assert.equal(outcome.exitCode, 2);
          return;
        }
        assert.equal(counts.total_count, results);
        assert.equal(
          counts.net_new_count + counts.pre_existing_count + counts.suppressed_count + counts.sops_ignored_count + counts.no_location_count + counts.unmapped_count + counts.not_a_finding_count,
          results,
        );
        // Runs without net-new results are left out (one is kept when none has any): at most 20.
        assert.ok(filtered.runs.length >= 1 && filtered.runs.length <= Math.min(20, log.runs.length));
        // The fixtures' files are not in this repository: located results are unmapped, and a
        // report none of whose located results maps is no answer.
        const mapped = counts.net_new_count + counts.pre_existing_count + counts.sops_ignored_count;
        if (counts.unmapped_count > 0 && mapped === 0) {
          assert.equal(outcome.exitCode, 2);
          assert.match(outcome.message, /paths do not match this checkout/);
        } else if (outcome.exitCode === 2) {
          // A result at or above the threshold without a file (the SARIF SDK's Fingerprints sample has one).
          assert.match(outcome.message, /names? no file/);
          assert.ok(counts.no_location_count > 0);
        } else {
          assert.ok([0, 1].includes(outcome.exitCode));
        }
      });
    }

    it('a fixture whose files the pull request adds: its results become net-new', async () => {
      const log = readFixture<SarifLog>('gate', 'megalinter-v6.6.0-janderssonse-sariftool.sarif');
      for (const r of log.runs.flatMap((x) => x.results ?? [])) {
        const uri = r.locations?.[0]?.physicalLocation?.artifactLocation?.uri;
        if (uri) repo.write(uri, lines(200));
      }
      repo.commit('add the linted sources');
      const { counts, outcome } = await gate(log);
      assert.equal(counts.net_new_count, counts.total_count);
      assert.equal(outcome.exitCode, 1, 'checkstyle errors are high');
    });
  });

  describe('CLI', () => {
    const io = () => {
      const lines: string[] = [];
      return { lines, io: { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) } };
    };

    it('--help lists the commands, and no command does too; ci --help lists the options of ci only', async () => {
      for (const argv of [['--help'], []]) {
        const c = io();
        assert.equal(await gateCommand(argv, {}, repo.dir, c.io), 0);
        const text = c.lines.join('\n');
        assert.match(text, /^Usage: gate <command> \[options\]/);
        assert.match(text, /^ {2}ci {2,}/m);
        assert.doesNotMatch(text, /--sarif|--fail-on/);
      }
      const c = io();
      assert.equal(await gateCommand(['ci', '--help'], {}, repo.dir, c.io), 0);
      const text = c.lines.join('\n');
      assert.match(text, /^Usage: gate ci \[options\]/);
      const options = [...text.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
      assert.deepEqual(options, ['--sarif', '--base', '--head', '--repo', '--fail-on', '--strict', '--filtered-out', '--counts-json', '--linters', '--unattributed-dependency', '--baseline-sarif', '--strip-prefix', '--help', '--version']);
    });

    it('--version prints the package version alone', async () => {
      const version = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
      for (const argv of [['--version'], ['ci', '--version']]) {
        const c = io();
        assert.equal(await gateCommand(argv, {}, repo.dir, c.io), 0);
        assert.deepEqual(c.lines, [version]);
      }
    });

    it('usage errors exit 2: an unknown option or command, a bad --fail-on, no base; the last line says NO ANSWER and why', async () => {
      for (const [argv, reason] of [
        [['ci', '--nope'], /Unknown option '--nope'/],
        [['scan'], /unknown command "scan"/],
        [['ci', '--base', 'x', '--fail-on', 'severe'], /--fail-on must be one of/],
        [['ci'], /no --base given/],
      ] as const) {
        const c = io();
        assert.equal(await gateCommand(argv, {}, repo.dir, c.io), 2, argv.join(' '));
        const last = c.lines.at(-1)!.split('\n').at(-1)!;
        assert.match(last, /^gate: NO ANSWER \(exit 2\): /, argv.join(' '));
        assert.match(last, reason);
      }
    });

    it('exit 2 after a run ends with the NO ANSWER line on stderr, and no "0 net-new" counts when nothing was classified; exit 0 keeps its line', async () => {
      const empty = join(out, 'empty.sarif');
      writeFileSync(empty, JSON.stringify({ version: '2.1.0', runs: [] }));
      const printed: string[] = [];
      const errors: string[] = [];
      const code = await gateCommand(['ci', '--base', base, '--sarif', empty], {}, repo.dir, { out: (l) => printed.push(`out ${l}`), err: (l) => (printed.push(`err ${l}`), errors.push(l)) });
      assert.equal(code, 2);
      assert.ok(!printed.some((l) => /net-new \(/.test(l)), printed.join('\n'));
      assert.equal(printed.at(-1), 'err gate: NO ANSWER (exit 2): the SARIF report has no runs: nothing was scanned');
      assert.ok(!errors.some((l) => /^gate: no answer/.test(l)), 'one NO ANSWER line, not a second lowercase one');

      const passing = join(out, 'pass.sarif');
      writeFileSync(passing, JSON.stringify(sarif(run([]))));
      const c = io();
      assert.equal(await gateCommand(['ci', '--base', base, '--sarif', passing], {}, repo.dir, c.io), 0);
      assert.match(c.lines.at(-2)!, /^gate: 0 net-new \(0 blocking\), 0 pre-existing/);
      assert.match(c.lines.at(-1)!, /^gate: no blocking net-new findings .*\(exit 0\)$/);
    });

    it("the command line reads the runner's event file as @actions/github does: an absent, unreadable or non-object file is no payload", () => {
      const event = join(out, 'event.json');
      writeFileSync(event, JSON.stringify({ pull_request: { base: { sha: base } } }));
      assert.deepEqual(runnerEvent({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event }), { eventName: 'pull_request', payload: { pull_request: { base: { sha: base } } } });
      assert.deepEqual(runnerEvent({}), { eventName: undefined, payload: {} });
      assert.deepEqual(runnerEvent({ GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: join(out, 'absent.json') }), { eventName: 'push', payload: {} });
      writeFileSync(event, '[1, 2]');
      assert.deepEqual(runnerEvent({ GITHUB_EVENT_PATH: event }).payload, {});
      writeFileSync(event, '{not json');
      assert.deepEqual(runnerEvent({ GITHUB_EVENT_PATH: event }).payload, {});
    });

    it('reads the base from the pull-request event and the report from MegaLinter\'s default path', async () => {
      repo.write('megalinter-reports/megalinter-report.sarif', JSON.stringify(sarif(run([result('src/app.js', 6)]))));
      const c = io();
      assert.equal(await gateCommand(['ci'], {}, repo.dir, c.io, { eventName: 'pull_request', payload: { pull_request: { base: { sha: base } } } }), 1);
      assert.match(c.lines.join('\n'), /BLOCKING high +src\/app\.js:6/);
      assert.match(c.lines.join('\n'), /blocked by 1 net-new finding/);
    });
  });
});
