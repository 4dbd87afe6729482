import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCi } from '../../actions/gate/ci.js';
import { normalisedLine } from '../../actions/gate/diff/git-diff.js';
import { gateReport } from '../../actions/gate/outputs/summary.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifResult } from '../../actions/gate/reports/sarif.js';
import { GitRepo } from '../support/git-repo.js';

/** A small module, as a developer would write it. */
const MATH = [
  "'use strict';",
  '',
  'function add(a, b) {',
  '  const total = a + b;',
  '  return eval(String(total));',
  '}',
  '',
  'function scale(values, factor) {',
  '  return values.map((v) => v * factor);',
  '}',
  '',
  'module.exports = { add, scale };',
];

const UTIL = [
  "'use strict';",
  '',
  'const cache = new Map();',
  '',
  'function remember(key, compute) {',
  '  if (!cache.has(key)) cache.set(key, compute());',
  '  return cache.get(key);',
  '}',
  '',
  'module.exports = { remember };',
];

const text = (lines: string[], eol = '\n') => lines.join(eol) + eol;

const finding = (uri: string, line: number): SarifResult => ({
  ruleId: 'no-eval',
  level: 'error',
  message: { text: 'eval can be harmful.' },
  locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
});

/** Line number (1-based) of the first line of `file` at head that contains `needle`. */
function lineOf(repo: GitRepo, file: string, needle: string): number {
  const index = readFileSync(join(repo.dir, file), 'utf8').split('\n').findIndex((l) => l.includes(needle));
  assert.ok(index >= 0, `${needle} in ${file}`);
  return index + 1;
}

describe('gate ci: moving code is not introducing it', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('src/math.js', text(MATH)).write('src/util.js', text(UTIL)).write('src/other.js', "'use strict';\n\nmodule.exports = {};\n");
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-moved-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (results: SarifResult[]) => {
    const sarif = join(out, 'report.sarif');
    writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint', rules: [{ id: 'no-eval' }] } }, results }] }));
    const counts = join(out, 'counts.json');
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, countsJson: counts }, {});
    return { outcome, counts: JSON.parse(readFileSync(counts, 'utf8')) as Counts };
  };

  it('a file converted to CRLF line endings: every line changed, none introduced', async () => {
    repo.write('src/math.js', text(MATH, '\r\n'));
    repo.commit('crlf');
    assert.match(repo.git('diff', '--stat', base, 'HEAD'), /src\/math\.js \| 24/, 'git sees every line changed');
    const { outcome, counts } = await gate([finding('src/math.js', 5), finding('src/math.js', 9)]);
    assert.equal(counts.net_new_count, 0);
    assert.equal(counts.moved_count, 2);
    assert.equal(counts.pre_existing_count, 2);
    assert.equal(outcome.exitCode, 0);
    assert.match(gateReport(outcome, {}), /2 findings are on lines that only moved \(or changed indentation or line endings\): pre-existing\./);
  });

  it('re-indented code is not new; the line that wraps it is', async () => {
    const wrapped = [...MATH.slice(0, 2), 'if (process.env.MATH) {', ...MATH.slice(2, 11).map((l) => (l ? `  ${l}` : l)), '}', ...MATH.slice(11)];
    repo.write('src/math.js', text(wrapped));
    repo.commit('wrap in a condition');
    const evalLine = lineOf(repo, 'src/math.js', 'eval(');
    const ifLine = lineOf(repo, 'src/math.js', 'if (process.env.MATH)');
    const { outcome, counts } = await gate([finding('src/math.js', evalLine), finding('src/math.js', ifLine)]);
    assert.equal(counts.moved_count, 1);
    assert.equal(counts.net_new_count, 1, 'the new condition line');
    assert.equal(outcome.exitCode, 1);
  });

  it('a function moved to another file carries no net-new finding; a blank or brace line is judged as added', async () => {
    repo.write('src/math.js', text([...MATH.slice(0, 2), ...MATH.slice(7, 11), "module.exports = { scale, add: require('./other').add };"]));
    repo.write('src/other.js', text(["'use strict';", '', ...MATH.slice(2, 7), 'module.exports = { add };']));
    repo.commit('move add() to other.js');
    const evalLine = lineOf(repo, 'src/other.js', 'eval(');
    const brace = evalLine + 1;
    assert.equal(readFileSync(join(repo.dir, 'src/other.js'), 'utf8').split('\n')[brace - 1], '}');
    const { counts } = await gate([finding('src/other.js', evalLine), finding('src/other.js', brace)]);
    assert.equal(counts.moved_count, 1);
    assert.equal(counts.net_new_count, 1, 'a "}" says nothing about where it came from');
  });

  it('a file moved with edits beyond rename detection: its old lines are moved, its new lines are new', async () => {
    repo.git('rm', '--quiet', 'src/util.js');
    const helpers = [
      "'use strict';",
      "const { EventEmitter } = require('node:events');",
      'const bus = new EventEmitter();',
      'const cache = new Map();',
      'function remember(key, compute) {',
      '  if (!cache.has(key)) cache.set(key, compute());',
      '  return cache.get(key);',
      '}',
      'function forget(key) {',
      "  bus.emit('forget', key);",
      '  return cache.delete(key);',
      '}',
      'function clear() {',
      '  cache.clear();',
      '}',
      'module.exports = { remember, forget, clear, bus };',
    ];
    repo.write('lib/helpers.js', text(helpers));
    repo.commit('move util.js to lib/helpers.js and extend it');
    const status = repo.git('diff', '--name-status', '--find-renames', base, 'HEAD');
    assert.match(status, /^A\tlib\/helpers\.js$/m, 'git does not pair the two files');
    assert.match(status, /^D\tsrc\/util\.js$/m);
    const moved = lineOf(repo, 'lib/helpers.js', 'cache.set(key, compute())');
    const added = lineOf(repo, 'lib/helpers.js', "bus.emit('forget'");
    const { counts } = await gate([finding('lib/helpers.js', moved), finding('lib/helpers.js', added)]);
    assert.equal(counts.moved_count, 1);
    assert.equal(counts.net_new_count, 1);
  });

  it('a moved line that was edited is net-new', async () => {
    const edited = MATH.slice(2, 7).map((l) => l.replace('eval(String(total))', 'eval(String(total) + suffix)'));
    repo.write('src/math.js', text([...MATH.slice(0, 2), ...MATH.slice(7, 11), 'module.exports = { scale };']));
    repo.write('src/other.js', text(["'use strict';", "const suffix = '';", ...edited, 'module.exports = { add };']));
    repo.commit('move add() and change it');
    const evalLine = lineOf(repo, 'src/other.js', 'eval(');
    const totalLine = lineOf(repo, 'src/other.js', 'const total');
    const { outcome, counts } = await gate([finding('src/other.js', evalLine), finding('src/other.js', totalLine)]);
    assert.equal(counts.net_new_count, 1, 'the edited eval line');
    assert.equal(counts.moved_count, 1, 'the unchanged line moved with it');
    assert.equal(outcome.exitCode, 1);
  });
});

describe('the text a moved line is recognised by', () => {
  // The definition, written the plain way: runs of space, tab, CR, VT and FF as one space, none at either end.
  const defined = (text: string) => text.replace(/[ \t\r\v\f]+/g, ' ').replace(/^ | $/g, '');

  it('is the definition for any text, whitespace-only and Unicode spaces included', () => {
    const unit = fc.constantFrom(' ', '\t', '\r', '\v', '\f', '\u00a0', '\u3000', 'a', 'Z', '9', '(', 'é', '😀');
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (text) => assert.equal(normalisedLine(text), defined(text))), { numRuns: 2000 });
  });

  it('drops both ends and joins inner runs, and keeps a space that is not ASCII', () => {
    assert.equal(normalisedLine('\t  foo(a,  b)\r'), 'foo(a, b)');
    assert.equal(normalisedLine(' \t\r '), '');
    assert.equal(normalisedLine(' '), '');
    assert.equal(normalisedLine('x'), 'x');
    assert.equal(normalisedLine('\u00a0x '), '\u00a0x');
  });
});
