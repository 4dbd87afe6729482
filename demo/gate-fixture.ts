import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// A real git repository in a temporary folder, shared with the gate's tests.
import { GitRepo } from '../test/support/git-repo.js';

export interface Finding {
  readonly ruleId: string;
  readonly path: string;
  readonly line: number;
  readonly severity: string;
}

export interface GateFixture {
  readonly repo: GitRepo;
  /** The scanner's report of the pull request's head, outside the working tree. */
  readonly sarif: string;
  /** Where the gate writes its counts document and net-new SARIF. */
  readonly countsJson: string;
  readonly filteredSarif: string;
  readonly base: string;
  readonly head: string;
  readonly preExisting: Finding;
  readonly netNew: Finding;
  cleanup(): void;
}

const FILE = 'src/handler.js';

const BASE = `const { execFile } = require('node:child_process');

function render(template, data) {
  return eval('\`' + template + '\`');
}

module.exports = { render };
`;

/** The pull request adds a route that passes a query parameter to a shell. */
const ADDED = `
function ping(req, res) {
  require('node:child_process').exec('ping -c 1 ' + req.query.host);
  res.end('ok');
}
`;

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

/**
 * A repository with a base commit on `main` and a pull-request branch whose one commit adds a
 * function, and the SARIF a scanner would write for the head: one finding on a line the base
 * already had (pre-existing, never blocks) and one on a line the pull request added (net-new).
 */
export function createGateFixture(): GateFixture {
  const repo = GitRepo.create();
  try {
    repo.write(FILE, BASE).write('README.md', '# web-app\n');
    const base = repo.commit('web-app: render templates');
    repo.git('checkout', '--quiet', '-b', 'feature/ping');
    const headText = BASE.replace('\nmodule.exports', `${ADDED}\nmodule.exports`).replace('{ render }', '{ render, ping }');
    repo.write(FILE, headText);
    const head = repo.commit('web-app: add a ping route');

    const preExisting: Finding = { ruleId: 'js/code-injection', path: FILE, line: lineOf(headText, 'eval('), severity: 'critical' };
    const netNew: Finding = { ruleId: 'js/command-line-injection', path: FILE, line: lineOf(headText, '.exec('), severity: 'high' };
    const out = mkdtempSync(join(tmpdir(), 'gatehouse-demo-reports-'));
    const sarif = join(out, 'scanner.sarif');
    writeFileSync(sarif, JSON.stringify(sarifOf([preExisting, netNew]), null, 2));
    return {
      repo,
      sarif,
      countsJson: join(out, 'counts.json'),
      filteredSarif: join(out, 'net-new.sarif'),
      base,
      head,
      preExisting,
      netNew,
      cleanup: () => {
        repo.cleanup();
        rmSync(out, { recursive: true, force: true });
      },
    };
  } catch (err) {
    repo.cleanup();
    throw err;
  }
}

/** security-severity picks the gate's band: ≥ 9 critical, ≥ 7 high. */
const SECURITY_SEVERITY: Readonly<Record<string, string>> = { critical: '9.3', high: '8.8' };

function sarifOf(findings: readonly Finding[]): unknown {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'demo-scanner',
            rules: findings.map((f) => ({ id: f.ruleId, properties: { 'security-severity': SECURITY_SEVERITY[f.severity] } })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.ruleId,
          level: 'error',
          message: { text: `${f.ruleId} in ${f.path}` },
          locations: [{ physicalLocation: { artifactLocation: { uri: f.path }, region: { startLine: f.line } } }],
        })),
      },
    ],
  };
}
