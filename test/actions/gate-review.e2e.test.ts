import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakePullRequest } from '../support/fake-pull-request.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT } from '../support/processes.js';
import { runAction, type ActionRun } from '../support/runner.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'gate', 'index.js');
const MARKER = /^<!-- gatehouse-finding:([0-9a-f]{24}(?:-\d+)?) -->/;

/**
 * The gate action's inline review comments, run from its bundle as the runner runs it, several
 * times on one pull request, against a GitHub fake that keeps the pull request's reviews, comments
 * and threads (REST shapes and GraphQL schema from GitHub's published descriptions).
 */
describe('gate action: inline review comments that follow the finding (bundle, one pull request, several runs)', function () {
  this.timeout(120_000);
  let repo: GitRepo;
  let base: string;
  let temp: string;
  let pr: FakePullRequest;

  beforeEach(async () => {
    repo = GitRepo.create();
    repo.write('src/app.js', lines(10));
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    temp = mkdtempSync(join(tmpdir(), 'gatehouse-gate-review-'));
    // Every line past the base's 10 is added by the pull request.
    pr = await FakePullRequest.start({ token: 'pr-token', diffLines: new Map([['src/app.js', new Set(Array.from({ length: 90 }, (_, i) => i + 11))]]) });
  });
  afterEach(async () => {
    await pr.close();
    repo.cleanup();
    rmSync(temp, { recursive: true, force: true });
  });

  /** The pull request's head: the base's lines, then `added` (an `eval(...)` line is a finding). */
  const push = (added: string[], message = 'push'): string => {
    repo.write('src/app.js', `${lines(10)}${added.map((l) => `${l}\n`).join('')}`);
    return repo.commit(message);
  };

  /** ESLint's SARIF for the checkout: one `no-eval` error on each `eval(` line of src/app.js and src/other.js. */
  const scan = (extra: unknown[] = []): string => {
    const results = ['src/app.js', 'src/other.js']
      .filter((file) => existsSync(join(repo.dir, file)))
      .flatMap((file) =>
        readFileSync(join(repo.dir, file), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            line.includes('eval(') ? [{ ruleId: 'no-eval', level: 'error', message: { text: `eval can be harmful: ${line.trim()}` }, locations: [{ physicalLocation: { artifactLocation: { uri: file }, region: { startLine: i + 1 } } }] }] : [],
          ),
      );
    const path = join(temp, 'report.sarif');
    writeFileSync(path, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'eslint', rules: [{ id: 'no-eval' }] } }, results: [...results, ...extra] }] }));
    return path;
  };

  async function gate(inputs: Record<string, string> = {}, extra: unknown[] = [], pullRequest: Record<string, unknown> = { base: { sha: base } }): Promise<ActionRun> {
    const event = join(temp, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, ...pullRequest } }));
    return runAction(BUNDLE, { sarif: scan(extra), token: 'pr-token', 'comment-mode': 'review', 'fail-on': 'high', ...inputs }, {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_API_URL: pr.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_WORKSPACE: repo.dir,
      RUNNER_TEMP: temp,
    });
  }

  const byText = () => new Map(pr.reviewComments.filter((c) => MARKER.test(c.body)).map((c) => [/eval can be harmful: (.*)$/m.exec(c.body)?.[1] ?? '', c]));
  const threadOf = (commentId: number) => pr.threads.find((t) => t.first === commentId)!;
  const writes = () => pr.calls.filter((c) => !c.startsWith('GET') && c !== 'POST /graphql viewer' && c !== 'POST /graphql GatehouseReviewThreads');

  it('one comment per finding; an unrelated push changes nothing; a fixed finding has its thread resolved, a moved one keeps its comment; one that comes back re-opens its thread', async () => {
    push(['eval(a1);', 'eval(b2);', 'eval(c3);']);
    const one = await gate();
    assert.equal(one.code, 1, one.stdout);
    assert.equal(pr.reviews.length, 1, 'one review per run');
    assert.deepEqual([...byText().keys()].sort(), ['eval(a1);', 'eval(b2);', 'eval(c3);']);
    for (const c of pr.reviewComments) assert.equal(c.commitId, repo.git('rev-parse', 'HEAD'));
    assert.deepEqual(pr.reviewComments.map((c) => c.line), [11, 12, 13]);
    assert.equal(pr.issueComments.length, 0, 'review mode writes no summary comment');
    const first = byText();

    // Run 2: an unrelated push; the same findings on the same lines.
    repo.write('docs/notes.md', 'notes\n');
    repo.commit('unrelated');
    pr.calls.length = 0;
    const two = await gate();
    assert.equal(two.code, 1);
    assert.deepEqual(writes(), [], 'nothing posted, edited or resolved');
    assert.equal(pr.reviewComments.length, 3);

    // Run 3: b2 fixed; six lines inserted above c3, which moves from line 13 to 18.
    pr.calls.length = 0;
    push(['eval(a1);', ...lines(6, 'const pad').trim().split('\n').map((l) => `${l} = 0;`), 'eval(c3);'], 'fix b2');
    const fixedAt = repo.git('rev-parse', 'HEAD');
    const three = await gate();
    assert.equal(three.code, 1);
    assert.equal(pr.reviewComments.length, 3, 'no new comment: the moved finding keeps its comment');
    const b2 = first.get('eval(b2);')!;
    assert.equal(threadOf(b2.id).resolved, true);
    assert.match(b2.body, new RegExp(`No longer reported as of ${fixedAt.slice(0, 12)}`));
    for (const text of ['eval(a1);', 'eval(c3);']) {
      const c = first.get(text)!;
      assert.equal(threadOf(c.id).resolved, false, text);
      assert.doesNotMatch(c.body, /No longer reported/);
    }
    assert.deepEqual(writes().sort(), ['PATCH /repos/octo-org/octo-repo/pulls/comments/' + b2.id, 'POST /graphql GatehouseResolveThread'].sort());

    // Run 4: b2 comes back: its thread re-opens, no second comment.
    pr.calls.length = 0;
    push(['eval(a1);', 'eval(b2);', 'eval(c3);'], 'b2 again');
    await gate();
    assert.equal(pr.reviewComments.length, 3);
    assert.equal(threadOf(b2.id).resolved, false);
    assert.doesNotMatch(b2.body, /No longer reported/);
    assert.ok(writes().includes('POST /graphql GatehouseUnresolveThread'));
  });

  it('max-review-comments across runs: the worst first, the rest counted in the job summary; a freed place goes to the next finding', async () => {
    push(['eval(a1);', 'eval(b2);', 'eval(c3);']);
    const one = await gate({ 'max-review-comments': '2' });
    assert.deepEqual([...byText().keys()].sort(), ['eval(a1);', 'eval(b2);']);
    assert.match(one.summary, /1 net-new finding on a line of the diff has no inline comment: at most 2 of the gate's inline comments are open at once \(`max-review-comments`\)\./);

    pr.calls.length = 0;
    await gate({ 'max-review-comments': '2' });
    assert.deepEqual(writes(), [], 'still two open: nothing new');

    push(['eval(a1);', 'eval(c3);'], 'fix b2');
    const three = await gate({ 'max-review-comments': '2' });
    assert.deepEqual([...byText().keys()].sort(), ['eval(a1);', 'eval(b2);', 'eval(c3);']);
    assert.equal(pr.threads.filter((t) => !t.resolved).length, 2);
    assert.doesNotMatch(three.summary, /no inline comment/);
  });

  it("another user's comment or thread is never edited or resolved, even one that copies the marker", async () => {
    push(['eval(a1);']);
    await gate();
    const [mine] = pr.reviewComments;
    // Mallory copies the gate's comment on another line; the gate's own finding then goes away.
    pr.reviewComments.push({ ...mine!, id: 5000, line: 12, user: pr.author('mallory'), body: mine!.body });
    pr.threads.push({ id: 'PRRT_5000', first: 5000, resolved: false });
    push(['const fine = 1;'], 'fix');
    await gate();
    assert.equal(threadOf(mine!.id).resolved, true);
    assert.equal(threadOf(5000).resolved, false);
    assert.equal(pr.reviewComments.find((c) => c.id === 5000)!.body, mine!.body.split('\n\n✅')[0]);
  });

  it("a checkout of the pull request's merge commit: comments go on the pull request's head, only in files whose lines the merge left as they are", async () => {
    repo.git('checkout', '--quiet', 'main');
    repo.write('src/other.js', lines(5, 'other '));
    const start = repo.commit('other.js on main');
    repo.git('checkout', '--quiet', '-b', 'feature');
    repo.write('src/app.js', `${lines(10)}eval(a1);\n`);
    repo.write('src/other.js', `${lines(5, 'other ')}eval(o1);\n`);
    const prHead = repo.commit('the pull request');
    // The base moves on, changing other.js above the pull request's line; the checkout is the merge.
    repo.git('checkout', '--quiet', 'main');
    repo.write('src/other.js', `// header\n// more\n${lines(5, 'other ')}`);
    const baseTip = repo.commit('main moves on');
    repo.git('merge', '--quiet', '--no-ff', '--no-edit', 'feature');
    pr.diffLines = new Map([['src/app.js', new Set([11])], ['src/other.js', new Set([6])]]);
    const run = await gate({}, [], { base: { sha: baseTip }, head: { sha: prHead } });
    assert.equal(run.code, 1, run.stdout);
    assert.notEqual(start, baseTip);
    assert.deepEqual(pr.reviewComments.map((c) => [c.path, c.line, c.commitId]), [['src/app.js', 11, prHead]]);
    assert.match(run.summary, /1 net-new finding is not on a line of the pull request's diff/);
  });

  it("a finding that leaves the diff's lines while still reported (the base changed its file; the checkout is the merge commit) keeps its comment open, twins keep their ordinals, and the next run changes nothing", async () => {
    repo.git('checkout', '--quiet', 'main');
    repo.write('src/other.js', lines(5, 'other '));
    repo.commit('other.js on main');
    repo.git('checkout', '--quiet', '-b', 'feature');
    // Twin findings: one rule on two identical lines of one file (ordinals `-2`), and one in app.js.
    repo.write('src/app.js', `${lines(10)}eval(a1);\n`);
    repo.write('src/other.js', `${lines(5, 'other ')}eval(o1);\neval(o1);\n`);
    const prHead = repo.commit('the pull request');
    pr.diffLines = new Map([['src/app.js', new Set([11])], ['src/other.js', new Set([6, 7])]]);
    // Run 1 on the pull request's head: three comments.
    const first = await gate({}, [], { base: { sha: repo.git('rev-parse', 'main') }, head: { sha: prHead } });
    assert.equal(first.code, 1, first.stdout);
    assert.equal(pr.reviewComments.length, 3);
    const prints = pr.reviewComments.map((c) => MARKER.exec(c.body)![1]!).sort();
    assert.equal(prints.filter((p) => p.endsWith('-2')).length, 1, 'the twins are told apart by their order');

    // The base moves on, changing other.js above the findings; the checkout is the merge commit.
    repo.git('checkout', '--quiet', 'main');
    repo.write('src/other.js', `// header\n// more\n${lines(5, 'other ')}`);
    const baseTip = repo.commit('main moves on');
    repo.git('merge', '--quiet', '--no-ff', '--no-edit', 'feature');
    for (let run = 0; run < 2; run++) {
      pr.calls.length = 0;
      const merged = await gate({}, [], { base: { sha: baseTip }, head: { sha: prHead } });
      assert.equal(merged.code, 1, merged.stdout);
      assert.deepEqual(writes(), [], `run ${run + 2}: nothing posted, edited or resolved: every finding is still reported`);
      assert.equal(pr.reviewComments.length, 3);
      assert.ok(pr.threads.every((t) => !t.resolved));
      assert.deepEqual(pr.reviewComments.map((c) => MARKER.exec(c.body)![1]!).sort(), prints);
      assert.doesNotMatch(merged.summary, /not on a line of the pull request's diff/, 'findings with a comment are not counted as without one');
    }
  });

  it("a token that cannot write reviews (a fork's pull request): the job summary and a notice; the exit code is unchanged", async () => {
    push(['eval(a1);']);
    pr.readOnly = true;
    const run = await gate();
    assert.equal(run.code, 1);
    assert.match(run.stdout, /::notice::gate: inline review comments not written: the token cannot write pull-request reviews \(HTTP 403\)/);
    assert.match(run.summary, /Gatehouse gate: ❌ blocked/);
    assert.equal(pr.reviewComments.length, 0);
  });

  it('comment-mode both: the inline comments and the summary comment; a finding without a line of the diff only in the summary; a bad comment-mode or max-review-comments is no answer (exit 2)', async () => {
    push(['eval(a1);']);
    // Net-new (its file is new), but on no line: GitHub takes review comments only on lines of the diff.
    repo.write('src/new.js', 'module.exports = 1;\n');
    repo.commit('a new file');
    const lineless = { ruleId: 'no-eval', level: 'error', message: { text: 'somewhere in this file' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/new.js' } } }] };
    const run = await gate({ 'comment-mode': 'both' }, [lineless]);
    assert.equal(pr.reviewComments.length, 1);
    assert.equal(pr.issueComments.length, 1);
    const note = /1 net-new finding is not on a line of the pull request's diff, where GitHub takes review comments: listed here only\./;
    assert.match(run.summary, note);
    assert.match(pr.issueComments[0]!.body, note);
    for (const inputs of [{ 'comment-mode': 'inline' }, { 'max-review-comments': '0' }, { 'max-review-comments': '51' }] as Record<string, string>[]) {
      const run = await gate(inputs);
      assert.equal(run.code, 1, JSON.stringify(inputs));
      assert.match(run.stdout, /::error::no answer: input "(comment-mode|max-review-comments)" must be/);
    }
  });
});
