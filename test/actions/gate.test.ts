import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionHttp } from '../../actions/shared/http.js';
import { COMMENT_MARKER } from '../../actions/gate/outputs/pr-comment.js';
import { runGate } from '../../actions/gate/run.js';
import { GateRecordingCore } from '../support/gate-action.js';
import { FakePullRequest } from '../support/fake-pull-request.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { runAction } from '../support/runner.js';
import { stallingPeer, STALLS } from '../support/stalling.js';
import { timed } from '../faults/support.js';

describe('gate action', () => {
  let repo: GitRepo;
  let base: string;
  let head: string;
  let temp: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('src/app.js', lines(10));
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    repo.write('src/app.js', `${lines(10)}added line 11\n`);
    head = repo.commit('pr');
    temp = mkdtempSync(join(tmpdir(), 'gatehouse-gate-action-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(temp, { recursive: true, force: true });
  });

  const report = (results: { line: number; level: string }[], extraRuns: unknown[] = [], message = 'eval is evil\nsecond line') => {
    const path = join(temp, 'report.sarif');
    writeFileSync(
      path,
      JSON.stringify({
        version: '2.1.0',
        runs: [
          {
            tool: { driver: { name: 'eslint', rules: [{ id: 'no-eval' }] } },
            results: results.map((r) => ({
              ruleId: 'no-eval',
              level: r.level,
              message: { text: message },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'src/app.js' }, region: { startLine: r.line } } }],
            })),
          },
          ...extraRuns,
        ],
      }),
    );
    return path;
  };
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    RUNNER_TEMP: temp,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
    ...extra,
  });
  const http = () => actionHttp();
  const inputs = (extra: Record<string, string> = {}) => ({ base, repo: repo.dir, 'fail-on': 'high', strict: 'false', token: '', ...extra });

  it('blocked: outputs, an error annotation per blocking finding, a summary with links to the head commit, a failed step', async () => {
    const core = new GateRecordingCore(inputs({ sarif: report([{ line: 11, level: 'error' }, { line: 11, level: 'note' }, { line: 2, level: 'error' }]) }));
    await runGate({ core, env: env(), http: http(), cwd: repo.dir });
    assert.deepEqual(core.outputs, {
      'filtered-sarif': join(temp, 'gatehouse-gate', 'filtered.sarif'),
      'exit-code': '1',
      'net-new-count': '2',
      'blocking-count': '1',
      'linters-skipped': '[]',
      'linters-missing': '[]',
      'stale-report': 'false',
    });
    assert.deepEqual(core.annotations, [
      { message: 'eslint no-eval: eval is evil', properties: { title: 'Net-new high finding', file: 'src/app.js', startLine: 11 } },
    ]);
    assert.deepEqual(core.of('failed'), ['blocked by 1 net-new finding']);
    const summary = core.summaries.join('\n');
    assert.match(summary, /Gatehouse gate: ❌ blocked/);
    assert.ok(summary.includes(`[src/app.js:11](https://github.com/octo-org/octo-repo/blob/${head}/src/app.js#L11)`));
    assert.match(summary, /\| 2 \| 1 \| 1 \| 0 \| 0 \| 0 \| 0 \| 0 \| 3 \| high \|/);
    const counts = JSON.parse(readFileSync(join(temp, 'gatehouse-gate', 'counts.json'), 'utf8')) as { net_new_count: number };
    assert.equal(counts.net_new_count, 2);
  });

  it('strip-prefix (one prefix per line) and baseline-sarif reach the gate; an unmappable report names the input, not the flag', async () => {
    const kics = (uri: string) =>
      JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'KICS', rules: [{ id: 'q', properties: { 'security-severity': '8.0' } }] } }, results: [{ ruleId: 'q', message: { text: 'x' }, partialFingerprints: { hash: 'h1' }, locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: 11 } } }] }] }] });
    const sarif = join(temp, 'kics.sarif');
    writeFileSync(sarif, kics('../../src/app.js'));
    const unmapped = new GateRecordingCore(inputs({ sarif }));
    await runGate({ core: unmapped, env: env(), http: http(), cwd: repo.dir });
    assert.equal(unmapped.outputs['exit-code'], '2');
    assert.match(unmapped.of('failed')[0]!, /with the input strip-prefix: the input strip-prefix \.\.\/\.\.\/ makes \.\.\/\.\.\/src\/app\.js a file of the head$/);
    const mapped = new GateRecordingCore(inputs({ sarif, 'strip-prefix': '/src/\n../../\n' }));
    await runGate({ core: mapped, env: env(), http: http(), cwd: repo.dir });
    assert.equal(mapped.outputs['exit-code'], '1');
    const baseline = join(temp, 'baseline.sarif');
    writeFileSync(baseline, kics('../../src/app.js'));
    const held = new GateRecordingCore(inputs({ sarif, 'strip-prefix': '../../', 'baseline-sarif': baseline }));
    await runGate({ core: held, env: env(), http: http(), cwd: repo.dir });
    assert.equal(held.outputs['exit-code'], '0');
  });

  it('a finding message cannot mention anyone or cross-reference an issue from the summary and comment', async () => {
    const core = new GateRecordingCore(inputs({ sarif: report([{ line: 11, level: 'error' }], [], 'ask @octocat, see #12 and octo-org/other#3') }));
    await runGate({ core, env: env(), http: http(), cwd: repo.dir });
    const summary = core.summaries.join('\n');
    assert.ok(summary.includes('ask @\u200boctocat, see #\u200b12 and octo-org/other#\u200b3'), summary);
    assert.doesNotMatch(summary, /@octocat|#12|#3/);
  });

  it('passes: no failure, exit-code 0; skipped linters appear in outputs and the summary', async () => {
    const core = new GateRecordingCore(inputs({ sarif: report([{ line: 2, level: 'error' }]), linters: 'ACTION_ACTIONLINT' }));
    await runGate({ core, env: env(), http: http(), cwd: repo.dir });
    assert.equal(core.outputs['exit-code'], '0');
    assert.equal(core.outputs['linters-skipped'], '["ACTION_ACTIONLINT"]');
    assert.deepEqual(core.of('failed'), []);
    assert.match(core.summaries.join('\n'), /Linters skipped[\s\S]*ACTION_ACTIONLINT/);
  });

  it('no answer: exit 2 fails the step with a different message', async () => {
    const empty = join(temp, 'empty.sarif');
    writeFileSync(empty, JSON.stringify({ version: '2.1.0', runs: [] }));
    const core = new GateRecordingCore(inputs({ sarif: empty }));
    await runGate({ core, env: env(), http: http(), cwd: repo.dir });
    assert.equal(core.outputs['exit-code'], '2');
    assert.deepEqual(core.of('failed'), ['no answer: the SARIF report has no runs: nothing was scanned']);
    const noBase = new GateRecordingCore(inputs({ sarif: empty, base: '' }));
    await runGate({ core: noBase, env: env(), http: http(), cwd: repo.dir });
    assert.equal(noBase.outputs['exit-code'], '2');
    assert.match(noBase.of('failed')[0]!, /^no answer: no base input given/, 'the action names its input, not the flag');
    const badFailOn = new GateRecordingCore(inputs({ sarif: empty, 'fail-on': 'severe' }));
    await runGate({ core: badFailOn, env: env(), http: http(), cwd: repo.dir });
    assert.deepEqual(badFailOn.of('failed'), ['no answer: the input fail-on must be one of critical, high, medium, low, any, none']);
  });

  it('strict takes the YAML 1.2 booleans; any other word is no answer (exit 2) naming the input, never "not strict"', async () => {
    // A skipped linter passes without strict and is exit 2 with it.
    const sarif = report([{ line: 2, level: 'error' }]);
    for (const [strict, exitCode] of [['TRUE', '2'], ['True', '2'], ['FALSE', '0'], ['', '0']] as const) {
      const core = new GateRecordingCore(inputs({ sarif, linters: 'ACTION_ACTIONLINT', strict }));
      await runGate({ core, env: env(), http: http(), cwd: repo.dir });
      assert.equal(core.outputs['exit-code'], exitCode, `strict: ${JSON.stringify(strict)}`);
    }
    for (const strict of ['yes', 'tRUE', '1']) {
      const core = new GateRecordingCore(inputs({ sarif, linters: 'ACTION_ACTIONLINT', strict }));
      await runGate({ core, env: env(), http: http(), cwd: repo.dir });
      assert.equal(core.outputs['exit-code'], '2', `strict: ${strict}`);
      assert.deepEqual(core.of('failed'), ['no answer: input "strict" must be true or false (true, True, TRUE, false, False or FALSE)']);
    }
  });

  it('unattributed-dependency: a finding without a line in a changed file blocks by default, and passes as pre-existing when told', async () => {
    const sarif = join(temp, 'no-line.sarif');
    const noLine = { ruleId: 'no-eval', level: 'error', message: { text: 'somewhere in this file' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/app.js' } } }] };
    writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint' } }, results: [noLine] }] }));
    for (const [value, exitCode] of [[undefined, '1'], ['net-new', '1'], ['pre-existing', '0'], ['maybe', '2']] as const) {
      const core = new GateRecordingCore(inputs({ sarif, ...(value === undefined ? {} : { 'unattributed-dependency': value }) }));
      await runGate({ core, env: env(), http: http(), cwd: repo.dir });
      assert.equal(core.outputs['exit-code'], exitCode, `unattributed-dependency: ${String(value)}`);
      if (exitCode !== '2') assert.match(core.summaries.join('\n'), /1 finding without a line in a changed file names no package: net-new unless `unattributed-dependency` is `pre-existing`/);
    }
  });

  describe('pull-request comment', () => {
    let server: FakePullRequest;

    beforeEach(async () => {
      server = await FakePullRequest.start({ token: 'pr-token', maxPageSize: 2 });
    });
    afterEach(() => server.close());

    const prEnv = () => env({ GITHUB_API_URL: server.url });
    const prEvent = () => ({ eventName: 'pull_request', payload: { pull_request: { number: 7, base: { sha: base } } } });

    it('one comment, updated in place on every run (found across pages)', async () => {
      server.issueComments.push({ id: 1, body: 'a human' }, { id: 2, body: 'another human' }, { id: 3, body: 'third' });
      const sarif = report([{ line: 11, level: 'error' }]);
      for (let i = 0; i < 3; i++) {
        const core = new GateRecordingCore(inputs({ sarif, base: '', token: 'pr-token' }));
        await runGate({ core, env: prEnv(), http: http(), cwd: repo.dir, event: prEvent() });
        assert.deepEqual(core.of('warning'), []);
      }
      const mine = server.issueComments.filter((c) => c.body.startsWith(COMMENT_MARKER));
      assert.equal(mine.length, 1);
      assert.match(mine[0]!.body, /Gatehouse gate: ❌ blocked/);
      assert.equal(server.calls.filter((c) => c.startsWith('POST /repos/')).length, 1);
      assert.equal(server.calls.filter((c) => c === 'POST /graphql viewer').length, 3, 'each run asks who the token writes as');
      assert.equal(server.calls.filter((c) => c.startsWith('PATCH')).length, 2);
    });

    it("another user's comment that starts with the marker is never edited: the gate's own is found by marker and author", async () => {
      server.issueComments.push(
        { id: 1, body: `${COMMENT_MARKER}\nlooks like the gate's`, user: server.author('mallory') },
        { id: 2, body: `${COMMENT_MARKER}\nanother bot's`, user: server.author('other-app[bot]', 'Bot') },
        // A user whose login is the bot's name without the suffix is not the bot.
        { id: 3, body: `${COMMENT_MARKER}\nnamesake`, user: server.author('github-actions') },
      );
      const sarif = report([{ line: 11, level: 'error' }]);
      for (let i = 0; i < 2; i++) {
        const core = new GateRecordingCore(inputs({ sarif, base: '', token: 'pr-token' }));
        await runGate({ core, env: prEnv(), http: http(), cwd: repo.dir, event: prEvent() });
        assert.deepEqual(core.of('warning'), []);
      }
      assert.deepEqual(server.issueComments.slice(0, 3).map((c) => c.body.split('\n')[1]), ["looks like the gate's", "another bot's", 'namesake']);
      const mine = server.issueComments.slice(3);
      assert.equal(mine.length, 1, 'one comment of its own, created once and then updated');
      assert.equal(mine[0]!.user!.login, 'github-actions[bot]');
      assert.deepEqual(server.calls.filter((c) => !c.startsWith('GET')), ['POST /graphql viewer', 'POST /repos/octo-org/octo-repo/issues/7/comments', 'POST /graphql viewer', 'PATCH /repos/octo-org/octo-repo/issues/comments/1000']);
    });

    it("a token whose identity cannot be read writes no comment: a warning, the answer unchanged", async () => {
      const unknown = await FakePullRequest.start({ token: 'pr-token', login: '' });
      try {
        const core = new GateRecordingCore(inputs({ sarif: report([{ line: 11, level: 'error' }]), base: '', token: 'pr-token' }));
        await runGate({ core, env: env({ GITHUB_API_URL: unknown.url }), http: http(), cwd: repo.dir, event: prEvent() });
        assert.equal(unknown.issueComments.length, 0);
        assert.equal(core.of('warning').length, 1);
        assert.match(core.of('warning')[0]!, /pull-request comment not written/);
        assert.deepEqual(core.of('failed'), ['blocked by 1 net-new finding']);
      } finally {
        await unknown.close();
      }
    });

    it('no token or no pull-request event: no comment; an API failure is only a warning', async () => {
      const sarif = report([{ line: 11, level: 'error' }]);
      await runGate({ core: new GateRecordingCore(inputs({ sarif, token: '' })), env: prEnv(), http: http(), cwd: repo.dir, event: prEvent() });
      await runGate({ core: new GateRecordingCore(inputs({ sarif, token: 'pr-token' })), env: env({ GITHUB_API_URL: server.url }), http: http(), cwd: repo.dir, event: { eventName: 'push', payload: {} } });
      assert.deepEqual(server.calls, []);
      server.failNext = true;
      const core = new GateRecordingCore(inputs({ sarif, token: 'pr-token' }));
      await runGate({ core, env: prEnv(), http: http(), cwd: repo.dir, event: prEvent() });
      assert.match(core.of('warning')[0]!, /pull-request comment not written/);
      assert.deepEqual(core.of('failed'), ['blocked by 1 net-new finding'], 'the answer is unchanged');
    });
  });

  for (const stall of STALLS) {
    it(`pull-request comment: an API that ${stall === 'silent' ? 'never answers' : 'stalls its body'} is a warning within the comment bound, and the answer is unchanged`, async () => {
      const peer = await stallingPeer(stall);
      try {
        const event = { eventName: 'pull_request', payload: { pull_request: { number: 7, base: { sha: base } } } };
        const core = new GateRecordingCore(inputs({ sarif: report([{ line: 11, level: 'error' }]), base: '', token: 'pr-token' }));
        const bounded = actionHttp({ bounds: { 'pr-comment': { connectMs: 300, totalMs: 500 } } });
        const { ms } = await timed(() => runGate({ core, env: env({ GITHUB_API_URL: peer.url }), http: bounded, cwd: repo.dir, event }));
        assert.deepEqual(core.of('warning'), ['gate: pull-request comment not written (no complete answer within 0.5 s)']);
        assert.deepEqual(core.of('failed'), ['blocked by 1 net-new finding']);
        assert.ok(ms < 500 + 2000, `ended after ${Math.round(ms)} ms`);
      } finally {
        await peer.close();
      }
    });
  }

  it('a MegaLinter linter missing from a committed, stale report: outputs, warnings, the summary, and exit 2 under strict', async () => {
    const committed = {
      version: '2.1.0',
      properties: { comment: 'Generated by MegaLinter', dockerImage: { buildVersion: 'v8.3.0' } },
      runs: [{ tool: { driver: { name: 'eslint (MegaLinter JAVASCRIPT_ES)' } }, properties: { megalinter: { linterKey: 'JAVASCRIPT_ES' } }, results: [] }],
    };
    repo.write('megalinter-reports/megalinter-report.sarif', JSON.stringify(committed));
    repo.commit('an earlier run committed its report');
    const sarif = join(repo.dir, 'megalinter-reports', 'megalinter-report.sarif');
    const lenient = new GateRecordingCore(inputs({ sarif, linters: 'JAVASCRIPT_ES,PYTHON_BANDIT' }));
    await runGate({ core: lenient, env: env(), http: http(), cwd: repo.dir });
    assert.equal(lenient.outputs['exit-code'], '0');
    assert.equal(lenient.outputs['linters-missing'], '["PYTHON_BANDIT"]');
    assert.equal(lenient.outputs['stale-report'], 'true');
    assert.match(lenient.of('warning').join('\n'), /megalinter-report\.sarif is the file committed at head, unchanged/);
    assert.match(lenient.summaries.join('\n'), /passed, with warnings[^]*PYTHON_BANDIT/);
    const strict = new GateRecordingCore(inputs({ sarif, linters: 'JAVASCRIPT_ES,PYTHON_BANDIT', strict: 'true' }));
    await runGate({ core: strict, env: env(), http: http(), cwd: repo.dir });
    assert.equal(strict.outputs['exit-code'], '2');
    assert.match(strict.of('failed')[0]!, /PYTHON_BANDIT is enabled but has no run in the report; .*stale/);
  });

  it('runs from its bundle as a child process: annotations, outputs, failed step', async () => {
    const run = await runAction(join(REPO_ROOT, 'dist', 'gate', 'index.js'), { sarif: report([{ line: 11, level: 'error' }]), base, repo: repo.dir }, { RUNNER_TEMP: temp });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /::error title=Net-new high finding,file=src\/app.js,line=11::eslint no-eval: eval is evil/);
    assert.match(run.stdout, /::error::blocked by 1 net-new finding/);
    assert.equal(run.outputs['exit-code'], '1');
    assert.equal(run.outputs['blocking-count'], '1');
    const filtered = JSON.parse(readFileSync(run.outputs['filtered-sarif']!, 'utf8')) as { runs: { results: { baselineState: string }[] }[] };
    assert.equal(filtered.runs[0]!.results[0]!.baselineState, 'new');
  });

  it('runs from its bundle: the job summary says why each result is not counted, the report\'s text escaped, and the counts document lists them', async () => {
    const run = await runAction(
      join(REPO_ROOT, 'dist', 'gate', 'index.js'),
      { sarif: report([{ line: 11, level: 'error' }, { line: 2, level: 'error' }, { line: 3, level: 'warning' }], [], '<b>eval</b> ping @octo-org/security'), base, repo: repo.dir },
      { RUNNER_TEMP: temp },
    );
    assert.equal(run.code, 1);
    assert.match(run.summary, /\| `unchanged-line` \| 2 \|/);
    assert.match(run.summary, /<details><summary>The first findings of each reason<\/summary>/);
    assert.match(run.summary, /^- src\/app\.js:2 · high · eslint no-eval · &lt;b&gt;eval&lt;\/b&gt; ping @\u200bocto-org\/security$/m);
    const section = run.summary.slice(run.summary.indexOf('**Not counted, and why**'));
    assert.doesNotMatch(section, /<b>|[^\u200b]@octo-org/);
    const counts = JSON.parse(readFileSync(join(temp, 'gatehouse-gate', 'counts.json'), 'utf8')) as { not_counted: { reason: string; line: number }[] };
    assert.deepEqual(counts.not_counted.map((n) => [n.reason, n.line]), [['unchanged-line', 2], ['unchanged-line', 3]]);
  });

  it('from its bundles (action and command line), a .mega-linter.yml is read: the YAML parser loads from its own chunk', async () => {
    writeFileSync(join(repo.dir, '.mega-linter.yml'), 'ENABLE_LINTERS:\n  - ACTION_ACTIONLINT\n  - JAVASCRIPT_ES\n');
    const sarif = report([{ line: 3, level: 'error' }]);
    const run = await runAction(join(REPO_ROOT, 'dist', 'gate', 'index.js'), { sarif, base, repo: repo.dir }, { RUNNER_TEMP: temp });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.outputs['linters-skipped'], '["ACTION_ACTIONLINT"]');
    const counts = join(temp, 'cli-counts.json');
    const cli = await runToEnd(process.execPath, [join(REPO_ROOT, 'dist', 'gate', 'cli', 'index.js'), 'ci', '--sarif', sarif, '--base', base, '--repo', repo.dir, '--counts-json', counts]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual((JSON.parse(readFileSync(counts, 'utf8')) as { linters_skipped: { linter: string }[] }).linters_skipped.map((s) => s.linter), ['ACTION_ACTIONLINT']);
  });

  it('the root action.yml (the marketplace entry) is the gate action', () => {
    const root = readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8');
    const own = readFileSync(join(REPO_ROOT, 'actions', 'gate', 'action.yml'), 'utf8');
    assert.equal(root, own.replace('main: ../../dist/gate/index.js', 'main: dist/gate/index.js'));
  });
});
