import assert from 'node:assert/strict';
import type { Classification, Finding } from '../../actions/gate/rules/classify.js';
import type { NotCounted } from '../../actions/gate/rules/not-counted.js';
import type { Severity } from '../../actions/gate/rules/severity.js';
import { verdict, type Facts, type ToolFacts } from '../../actions/gate/rules/verdict.js';

const finding = (severity: Severity, blocking: boolean): Finding => ({
  runIndex: 0,
  index: 0,
  result: { message: { text: 'x' } },
  locationIndex: 0,
  tool: 'eslint',
  ruleId: 'rule-1',
  path: 'src/app.js',
  startLine: 6,
  severity,
  blocking,
});

const noLocation = (severity: Severity, ruleId: string | undefined): NotCounted => ({
  reason: 'no-location',
  runIndex: 0,
  index: 1,
  result: { message: { text: 'x' } },
  tool: 'dotnet',
  ruleId,
  severity,
  path: undefined,
  line: undefined,
  detail: undefined,
});

const classified = (c: Partial<Classification> = {}): Classification => ({
  total: 0,
  netNew: [],
  preExisting: 0,
  suppressed: 0,
  sopsIgnored: 0,
  noLocation: 0,
  unmapped: 0,
  unmappedExamples: [],
  moved: 0,
  unattributed: 0,
  baselineMatched: 0,
  stillAffected: 0,
  notFindings: 0,
  noLocationBlocking: 0,
  notCounted: [],
  ...c,
});

const clean: ToolFacts = { skipped: [], missing: [], failed: [] };
/** Every --strict tool error at once. */
const toolTrouble: ToolFacts = {
  skipped: [{ linter: 'ACTION_ACTIONLINT', reason: 'cannot write SARIF' }],
  missing: [{ linter: 'PYTHON_BANDIT', reason: 'no run' }],
  failed: ['eslint'],
  stale: 'megalinter-reports/megalinter-report.sarif',
  settings: { problem: 'the MegaLinter configuration .mega-linter.yml cannot be read (not valid YAML)' },
};
const judged = (c: Partial<Classification>, tools: ToolFacts = clean): Facts => ({ ...tools, classification: classified(c), topLevel: '/work/repo' });

const high = { failOn: 'high', strict: false } as const;
const strict = { failOn: 'high', strict: true } as const;

/** Every rule's case at once, for the rules before it to win over. */
const unmapped = { unmapped: 2, unmappedExamples: ['/elsewhere/src/main.go', 'cmd/main.go'] };
const unplaced = { noLocation: 1, noLocationBlocking: 1, notCounted: [noLocation('high', 'CA2100')] };

describe('gate ci: the verdict, first rule that applies', () => {
  it('1. a setup problem is no answer, before any other rule', () => {
    const facts: Facts = { ...toolTrouble, problem: 'the SARIF report has no runs: nothing was scanned' };
    assert.deepEqual(verdict(facts, strict), {
      exitCode: 2,
      message: 'no answer: the SARIF report has no runs: nothing was scanned',
      error: 'the SARIF report has no runs: nothing was scanned',
    });
  });

  it('2. under --strict, every tool error, in one line: skipped, missing, failed, stale, unknown linters', () => {
    const error =
      '--strict: ACTION_ACTIONLINT is enabled but cannot write SARIF; PYTHON_BANDIT is enabled but has no run in the report; eslint failed to run; ' +
      'the report megalinter-reports/megalinter-report.sarif is unchanged from the committed file at head (stale); ' +
      'the enabled linters are unknown (the MegaLinter configuration .mega-linter.yml cannot be read (not valid YAML))';
    // Before a path mismatch, and a blocking finding.
    const facts = judged({ ...unmapped, netNew: [finding('critical', true)] }, toolTrouble);
    assert.deepEqual(verdict(facts, strict), { exitCode: 2, message: `no answer: ${error}`, error });
    assert.equal(verdict(facts, { ...strict, naming: 'input' }).error, error.replace(/^--strict/, 'the input strict'));
    // Linters known from the environment despite the file's problem: not a tool error.
    assert.equal(verdict(judged({}, { ...clean, settings: { ...toolTrouble.settings, enabled: ['PYTHON_RUFF'] } }), strict).exitCode, 0);
    // Without --strict they are not errors; the other rules decide.
    assert.equal(verdict(judged({ netNew: [finding('critical', true)] }, toolTrouble), high).exitCode, 1);
  });

  it('3. no located result names a file of the head: no answer, before a result that names no file', () => {
    const error =
      "the report's paths do not match this checkout: none of the 2 located results names a file of the head commit under /work/repo " +
      '(the first is /elsewhere/src/main.go; also cmd/main.go); run the gate on the checkout the report was made from, point --repo at the directory it scanned, ' +
      'or remove the prefix the scanner saw the repository under with --strip-prefix <prefix> (no ending of /elsewhere/src/main.go names a file of the head, so no prefix is suggested)';
    assert.deepEqual(verdict(judged({ ...unmapped, ...unplaced }), high), { exitCode: 2, message: `no answer: ${error}`, error });
    const one = verdict(judged({ unmapped: 1, unmappedExamples: ['/elsewhere/src/main.go'], strippable: '/elsewhere/' }), { ...high, naming: 'input' });
    assert.equal(
      one.error,
      "the report's paths do not match this checkout: none of the 1 located result names a file of the head commit under /work/repo (the first is /elsewhere/src/main.go); " +
        'run the gate on the checkout the report was made from, point the input repo at the directory it scanned, or remove the prefix the scanner saw the repository under ' +
        'with the input strip-prefix: the input strip-prefix /elsewhere/ makes /elsewhere/src/main.go a file of the head',
    );
    // One result that maps (net-new, pre-existing or SOPS ciphertext) and the paths match.
    for (const mapped of [{ netNew: [finding('low', false)] }, { preExisting: 1 }, { sopsIgnored: 1 }]) {
      assert.equal(verdict(judged({ ...unmapped, ...mapped }), high).exitCode, 0);
    }
  });

  it('4. a blocking net-new finding blocks, before a result that names no file', () => {
    assert.deepEqual(verdict(judged({ netNew: [finding('critical', true), finding('low', false)], ...unplaced }), high), {
      exitCode: 1,
      message: 'blocked by 1 net-new finding at or above high',
    });
    assert.equal(verdict(judged({ netNew: [finding('critical', true), finding('high', true)] }), high).message, 'blocked by 2 net-new findings at or above high');
  });

  it('5. a result at or above the threshold that names no file is no answer', () => {
    const error =
      '1 result at or above high names no file (the first: dotnet CA2100, high): the diff cannot tell whether the pull request introduced it; ' +
      "give --baseline-sarif (the base commit's report), which decides results without a file";
    assert.deepEqual(verdict(judged(unplaced), high), { exitCode: 2, message: `no answer: ${error}`, error });
    const two = verdict(judged({ noLocation: 3, noLocationBlocking: 2, notCounted: [noLocation('low', 'CA1000'), noLocation('critical', undefined), noLocation('high', 'CA2')] }), { ...high, naming: 'input' });
    assert.equal(
      two.error,
      '2 results at or above high name no file (the first: dotnet, critical): the diff cannot tell whether the pull request introduced them; ' +
        "give the input baseline-sarif (the base commit's report), which decides results without a file",
    );
  });

  it('6. otherwise a pass, with the net-new and pre-existing counts', () => {
    assert.deepEqual(verdict(judged({ netNew: [finding('medium', false)], preExisting: 3, noLocation: 1, notCounted: [noLocation('low', 'CA1000')] }), high), {
      exitCode: 0,
      message: 'no blocking net-new findings (1 net-new, 3 pre-existing)',
    });
  });
});
