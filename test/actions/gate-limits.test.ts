import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMMENT_LIMIT, COMMENT_MARKER } from '../../actions/gate/outputs/pr-comment.js';
import { gateReport, SUMMARY_LIMIT } from '../../actions/gate/outputs/summary.js';
import { runGate } from '../../actions/gate/run.js';
import { actionHttp } from '../../actions/shared/http.js';
import { characters, GateRecordingCore } from '../support/gate-action.js';
import { FakePullRequest } from '../support/fake-pull-request.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT } from '../support/processes.js';

describe('gate action: what it writes stays within GitHub\'s limits', () => {
  let repo: GitRepo;
  let base: string;
  let temp: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('README.md', 'readme\n');
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    temp = mkdtempSync(join(tmpdir(), 'gatehouse-gate-limits-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(temp, { recursive: true, force: true });
  });

  /** A report of `count` results on new files; `at(i)` says where result i is and how bad. */
  const report = (count: number, at: (i: number) => { path: string; line: number; rule?: string; message?: string }) => {
    const path = join(temp, 'report.sarif');
    const results = Array.from({ length: count }, (_, i) => {
      const r = at(i);
      return {
        ruleId: r.rule ?? 'no-eval',
        level: 'error',
        message: { text: r.message ?? `finding ${i}` },
        locations: [{ physicalLocation: { artifactLocation: { uri: r.path }, region: { startLine: r.line } } }],
      };
    });
    writeFileSync(path, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint', rules: [{ id: 'no-eval' }, { id: 'cve', properties: { 'security-severity': '9.1' } }] } }, results }] }));
    return path;
  };
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ RUNNER_TEMP: temp, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'octo-org/octo-repo', ...extra });
  const inputs = (sarif: string, extra: Record<string, string> = {}) => ({ sarif, base, repo: repo.dir, 'fail-on': 'high', strict: 'false', token: '', ...extra });

  it('25 blocking findings: 9 error annotations, worst first (severity, then report order), and one notice for the 16 others; the summary lists all 25', async () => {
    repo.write('src/app.js', lines(30));
    repo.commit('pr');
    // Results 0–19 are high; 20–24 (last in the report) are critical.
    const sarif = report(25, (i) => ({ path: 'src/app.js', line: i + 1, ...(i >= 20 ? { rule: 'cve' } : {}) }));
    const core = new GateRecordingCore(inputs(sarif));
    await runGate({ core, env: env(), http: actionHttp(), cwd: repo.dir });
    assert.equal(core.outputs['blocking-count'], '25');
    assert.deepEqual(
      core.annotations.map((a) => [a.properties.title, a.properties.startLine]),
      [...[21, 22, 23, 24, 25].map((l) => ['Net-new critical finding', l]), ...[1, 2, 3, 4].map((l) => ['Net-new high finding', l])],
    );
    // Each annotation carries its own finding's message (the messages are read once, for the ranking).
    assert.deepEqual(
      core.annotations.map((a) => a.message),
      [...[20, 21, 22, 23, 24].map((i) => `eslint cve: finding ${i}`), ...[0, 1, 2, 3].map((i) => `eslint no-eval: finding ${i}`)],
    );
    assert.deepEqual(core.of('notice'), ['16 more blocking findings are listed in the job summary (GitHub shows 10 error annotations per step)']);
    assert.deepEqual(core.of('failed'), ['blocked by 25 net-new findings'], 'the failed step is the tenth error annotation');
    assert.equal(core.summaries.join('\n').match(/^\| (critical|high) \| yes \|/gm)?.length, 25);
  });

  it('a few blocking findings: one annotation each and no notice', async () => {
    repo.write('src/app.js', lines(5));
    repo.commit('pr');
    const core = new GateRecordingCore(inputs(report(3, (i) => ({ path: 'src/app.js', line: i + 1 }))));
    await runGate({ core, env: env(), http: actionHttp(), cwd: repo.dir });
    assert.equal(core.annotations.length, 3);
    assert.deepEqual(core.of('notice'), []);
  });

  it('500 long findings: the pull-request comment stays within 65,536 characters (its marker included), cut with a line saying how many rows were left out', async () => {
    // Long paths (each is linked twice in a row) and messages of astral characters, which count
    // one each for GitHub but two in a JavaScript string.
    const dir = `${'d'.repeat(120)}/${'e'.repeat(120)}`;
    for (let f = 0; f < 5; f++) repo.write(`${dir}/file-${f}.js`, lines(100));
    repo.commit('pr');
    const sarif = report(500, (i) => ({ path: `${dir}/file-${i % 5}.js`, line: Math.floor(i / 5) + 1, message: `🔥 ${'𝒳'.repeat(300)} @team #${i}` }));
    const server = await FakePullRequest.start({ token: 'pr-token', maxBodyCharacters: 65_536 });
    try {
      const event = { eventName: 'pull_request', payload: { pull_request: { number: 7, base: { sha: base } } } };
      const core = new GateRecordingCore(inputs(sarif, { base: '', token: 'pr-token' }));
      const runEnv = env({ GITHUB_API_URL: server.url });
      const outcome = await runGate({ core, env: runEnv, http: actionHttp(), cwd: repo.dir, event });
      assert.deepEqual(core.of('warning'), [], 'the comment was accepted');
      const body = server.issueComments[0]!.body;
      assert.ok(body.startsWith(`${COMMENT_MARKER}\n`));
      assert.ok(characters(body) <= 65_536, `${characters(body)} characters`);
      const rows = body.match(/^\| high \| yes \|/gm)?.length ?? 0;
      assert.ok(rows > 10 && rows < 100, `${rows} rows`);
      assert.match(body, new RegExp(`^… ${500 - rows} more rows left out of 500 \\(see the filtered SARIF\\)\\.$`, 'm'));
      assert.match(body, /\| Net-new \| Blocking \|[\s\S]*\| 500 \| 500 \|/, 'the counts table is always there');
      // The job summary has its own, larger limit: more rows.
      const summaryRows = core.summaries.join('\n').match(/^\| high \| yes \|/gm)?.length ?? 0;
      assert.ok(summaryRows > rows, `${summaryRows} summary rows`);
      // The action ranks the findings once for both: each text is what the report alone would be.
      assert.equal(body, `${COMMENT_MARKER}\n${gateReport(outcome!, runEnv, COMMENT_LIMIT)}`);
      assert.equal(core.summaries.join(''), `${gateReport(outcome!, runEnv, SUMMARY_LIMIT)}\n`);
    } finally {
      await server.close();
    }
  });

  it('the fake comment endpoint refuses a body over 65,536 code points, as GitHub does (so the test above can fail)', async () => {
    const server = await FakePullRequest.start({ token: 'pr-token', maxBodyCharacters: 65_536 });
    try {
      const post = (body: string) =>
        fetch(`${server.url}/repos/octo-org/octo-repo/issues/7/comments`, { method: 'POST', headers: { authorization: 'Bearer pr-token' }, body: JSON.stringify({ body }) });
      assert.equal((await post('𝒳'.repeat(65_537))).status, 422);
      assert.equal((await post('𝒳'.repeat(65_536))).status, 201, 'an astral character is one');
    } finally {
      await server.close();
    }
  });

  it('the job summary stays within GitHub\'s 1 MiB per step, cut with a line saying how many rows were left out', async () => {
    const dir = ['é'.repeat(100), 'ü'.repeat(100), 'ø'.repeat(100)].join('/');
    repo.write(`${dir}/big.js`, lines(1500));
    repo.commit('pr');
    const sarif = report(1500, (i) => ({ path: `${dir}/big.js`, line: i + 1, message: `${'ß'.repeat(199)} ${i}` }));
    const core = new GateRecordingCore(inputs(sarif));
    await runGate({ core, env: env(), http: actionHttp(), cwd: repo.dir });
    const summary = core.summaries.join('');
    assert.ok(Buffer.byteLength(summary) <= 1024 * 1024, `${Buffer.byteLength(summary)} bytes`);
    assert.ok(Buffer.byteLength(summary) > 900 * 1024, 'the room is used');
    const rows = summary.match(/^\| high \| yes \|/gm)?.length ?? 0;
    assert.match(summary, new RegExp(`^… ${1500 - rows} more rows left out of 1500 \\(see the filtered SARIF\\)\\.$`, 'm'));
  });

  it('docs/gate.md\'s workflow uploads the filtered SARIF on exit 0 and 1 and skips it on exit 2 (a no-answer file may have no runs, which code scanning refuses)', async () => {
    const page = readFileSync(join(REPO_ROOT, 'docs', 'gate.md'), 'utf8');
    const yaml = /## A complete workflow\s+```yaml\n([\s\S]*?)```/.exec(page)![1]!;
    const steps = (parse(yaml) as { jobs: Record<string, { steps: { id?: string; uses?: string; if?: string; with?: Record<string, string> }[] }> }).jobs.lint!.steps;
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    assert.equal(upload.with?.sarif_file, '${{ steps.gate.outputs.filtered-sarif }}');
    // The condition, evaluated for each exit code the way the runner would.
    const condition = /^always\(\) && contains\(fromJSON\('(\[[^']*\])'\), steps\.gate\.outputs\.exit-code\)$/.exec(upload.if ?? '');
    assert.ok(condition, `upload condition: ${upload.if}`);
    const uploadsOn = JSON.parse(condition[1]!) as string[];
    assert.deepEqual(['0', '1', '2', ''].filter((code) => uploadsOn.includes(code)), ['0', '1']);

    // And the action does say 2 when there is no answer, with a file that has no runs.
    const empty = join(temp, 'empty.sarif');
    writeFileSync(empty, JSON.stringify({ version: '2.1.0', runs: [] }));
    const core = new GateRecordingCore(inputs(empty));
    await runGate({ core, env: env(), http: actionHttp(), cwd: repo.dir });
    assert.equal(core.outputs['exit-code'], '2');
    assert.deepEqual((JSON.parse(readFileSync(core.outputs['filtered-sarif']!, 'utf8')) as { runs: unknown[] }).runs, []);
  });
});
