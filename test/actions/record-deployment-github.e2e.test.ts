import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeDeployments } from '../support/fake-deployments.js';
import { barsOf, parseMermaidBlock } from '../support/mermaid.js';
import { REPO_ROOT } from '../support/processes.js';
import { runAction } from '../support/runner.js';

const BUNDLE = join(REPO_ROOT, 'dist', 'record-deployment', 'index.js');
const COMMIT = 'd'.repeat(40);

describe('record-deployment with github-deployment: the bundle, the ledger and GitHub deployments', function () {
  this.timeout(60_000);
  let backend: Backend;
  let github: FakeDeployments;
  let runnerEnv: Record<string, string>;

  before(async () => {
    backend = await startBackend();
  });
  after(() => backend.close());
  beforeEach(async () => {
    github = await FakeDeployments.start('gh-token');
    runnerEnv = {
      GITHUB_ACTIONS: 'true',
      ACTIONS_ID_TOKEN_REQUEST_URL: backend.issuer.runnerTokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: backend.issuer.runnerRequestToken,
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_RUN_ID: '900',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'deploy',
      GITHUB_SHA: COMMIT,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: github.url,
    };
  });
  afterEach(() => github.close());

  const inputs = (extra: Record<string, string> = {}) => ({
    'api-url': backend.url,
    environment: 'production',
    status: 'success',
    url: 'https://app.example.com',
    'github-deployment': 'true',
    'github-token': 'gh-token',
    ...extra,
  });
  const posts = () => github.calls.filter((c) => c.startsWith('POST'));

  it('first record: one deployment of the commit with the ledger ids, and one status; the retried step finds it and adds nothing', async () => {
    const first = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-first' }), runnerEnv);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(github.deployments.length, 1);
    const [d] = github.deployments;
    assert.equal(first.outputs['github-deployment-id'], String(d!.id));
    assert.deepEqual([d!.sha, d!.environment], [COMMIT, 'production']);
    assert.deepEqual(d!.payload, { deployment_id: first.outputs['deployment-id'], delivery_id: 'gh-first' });
    assert.deepEqual(d!.statuses.map((s) => [s.state, s.environmentUrl, s.logUrl]), [['success', 'https://app.example.com', 'https://github.com/octo-org/octo-repo/actions/runs/900/attempts/1']]);
    assert.ok(d!.statuses[0]!.description.length <= 140);
    // The job summary's chart, from the ledger's daily series: this environment's one record, today.
    const { diagramType, source } = await parseMermaidBlock(first.summary);
    assert.equal(diagramType, 'xychart');
    const [changes, failed] = barsOf(source);
    assert.equal(changes!.reduce((a, b) => a + b, 0), 1);
    assert.equal(changes!.at(-1), 1);
    assert.equal(failed!.reduce((a, b) => a + b, 0), 0);

    github.calls.length = 0;
    const again = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-first' }), runnerEnv);
    assert.equal(again.outputs.duplicate, 'true');
    assert.equal(again.outputs['github-deployment-id'], String(d!.id));
    assert.equal(github.deployments.length, 1);
    assert.deepEqual(posts(), [], 'no second deployment, no second status');
    assert.doesNotMatch(again.stdout, /::warning::/, 'the same inputs: nothing differs');
  });

  it('a status lost to a 5xx: a warning, the record stands; the retried step adds the status to the deployment it made', async () => {
    github.failNext.add('status');
    const first = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-lost' }), runnerEnv);
    assert.equal(first.code, 0);
    assert.match(first.stdout, /::warning::GitHub deployment not created \(HTTP 502\); the ledger record stands/);
    assert.match(first.outputs['deployment-id'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(github.deployments[0]!.statuses.length, 0);
    const retried = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-lost' }), runnerEnv);
    assert.equal(retried.code, 0, retried.stdout);
    assert.equal(github.deployments.length, 1);
    assert.deepEqual(github.deployments[0]!.statuses.map((s) => s.state), ['success']);
  });

  for (const [status, state] of [['failure', 'failure'], ['rolled-back', 'error'], ['skipped', 'inactive']] as const) {
    it(`status ${status} is the GitHub state ${state}`, async () => {
      const run = await runAction(BUNDLE, inputs({ 'delivery-id': `gh-${status}`, status }), runnerEnv);
      assert.equal(run.code, 0, run.stdout);
      assert.deepEqual(github.deployments[0]!.statuses.map((s) => s.state), [state]);
    });
  }

  it('a token without deployments: write (403): a warning naming it, or a failed step with fail-on-error; the ledger record stands', async () => {
    github.readOnly = true;
    const soft = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-403' }), runnerEnv);
    assert.equal(soft.code, 0);
    assert.match(soft.stdout, /::warning::GitHub deployment not created \(HTTP 403: the token needs permissions: deployments: write\); the ledger record stands/);
    const hard = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-403-hard', 'fail-on-error': 'true' }), runnerEnv);
    assert.equal(hard.code, 1);
    assert.match(hard.stdout, /::error::GitHub deployment not created \(HTTP 403: the token needs permissions: deployments: write\)/);
    assert.match(hard.outputs['deployment-id'] ?? '', /^[0-9a-f-]{36}$/, 'recorded in the ledger all the same');
    assert.equal(github.deployments.length, 0);
  });

  describe("a delivery id reused by another run: GitHub gets the ledger's record, never the step's inputs", () => {
    const RUN_A = 'https://github.com/octo-org/octo-repo/actions/runs/900/attempts/1';
    const runB = () => ({ ...runnerEnv, GITHUB_RUN_ID: '901' });
    /** Nothing of run B's own reached GitHub: no request (path, query or body) names its URL, status or environment. */
    const nothingOfB = (...values: string[]) => {
      for (const value of values) assert.ok(!github.requests.some((r) => r.url.includes(value) || r.body.includes(value)), `${value} reached GitHub: ${JSON.stringify(github.requests)}`);
    };
    const warnings = (run: { stdout: string }) => run.stdout.split('\n').filter((l) => l.startsWith('::warning::'));

    it("run B, same delivery id, status failure and another url: no failure status, no URL of B's on GitHub; a warning names the inputs that differ; outputs and summary are the record's", async () => {
      const a = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-1' }), runnerEnv);
      assert.equal(a.code, 0, a.stdout);
      const [deployment] = github.deployments;
      github.calls.length = 0;
      github.requests.length = 0;

      const b = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-1', status: 'failure', url: 'https://evil.example/phish' }), runB());
      assert.equal(b.code, 0, b.stdout);
      assert.equal(b.outputs.duplicate, 'true');
      assert.equal(github.deployments.length, 1);
      assert.deepEqual(deployment!.statuses.map((s) => [s.state, s.environmentUrl, s.logUrl]), [['success', 'https://app.example.com', RUN_A]]);
      assert.deepEqual(posts(), [], 'no status, no deployment');
      nothingOfB('evil.example', 'failure', '/runs/901');
      assert.equal(b.outputs['github-deployment-id'], String(deployment!.id), "the record's deployment");
      assert.equal(b.outputs['deployment-id'], a.outputs['deployment-id']);

      const [warning, ...more] = warnings(b);
      assert.deepEqual(more, [], b.stdout);
      assert.match(warning!, /delivery-id "run-A-1" was already recorded as [0-9a-f-]{36} with other values; the record stands/);
      assert.ok(warning!.includes('status "failure" (recorded: "success")'), warning);
      assert.ok(warning!.includes('url "https://evil.example/phish" (recorded: "https://app.example.com")'), warning);
      assert.ok(warning!.includes(`run-url "https://github.com/octo-org/octo-repo/actions/runs/901/attempts/1" (recorded: "${RUN_A}")`), warning);
      assert.doesNotMatch(warning!, /environment|version|commit|actor/, 'only what differs');

      assert.match(b.summary, /\| octo-org\/octo-repo \| production \| success \|/);
      assert.doesNotMatch(b.summary, /failure \||evil/);
      assert.match(b.summary, /This step's status, url, run-url differ from the record/);
    });

    it("the original's status was lost: run B re-adds the original's status, URL and run, not its own", async () => {
      github.failNext.add('status');
      const a = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-2' }), runnerEnv);
      assert.match(a.stdout, /::warning::GitHub deployment not created \(HTTP 502\)/);
      assert.equal(github.deployments[0]!.statuses.length, 0);

      const b = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-2', status: 'failure', url: 'https://evil.example/phish', version: '6.6.6' }), runB());
      assert.equal(b.code, 0, b.stdout);
      assert.equal(github.deployments.length, 1);
      assert.deepEqual(github.deployments[0]!.statuses.map((s) => [s.state, s.environmentUrl, s.logUrl, s.description]), [['success', 'https://app.example.com', RUN_A, `success of ${COMMIT.slice(0, 12)} recorded by Gatehouse`]]);
      nothingOfB('evil.example', 'failure', '/runs/901', '6.6.6');
      assert.match(warnings(b)[0]!, /version "6\.6\.6" \(recorded: none\)/);
    });

    it('run B with another environment and commit: no deployment in it, and no status', async () => {
      const a = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-3' }), runnerEnv);
      assert.equal(a.code, 0, a.stdout);
      github.calls.length = 0;
      github.requests.length = 0;
      const b = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-3', environment: 'staging', status: 'failure', commit: 'e'.repeat(40) }), runB());
      assert.equal(b.code, 0, b.stdout);
      assert.deepEqual(github.deployments.map((d) => [d.environment, d.sha, d.statuses.map((s) => s.state)]), [['production', COMMIT, ['success']]]);
      assert.deepEqual(posts(), []);
      nothingOfB('staging', 'e'.repeat(40), 'failure');
      assert.match(warnings(b)[0]!, /environment "staging" \(recorded: "production"\)/);
      assert.match(warnings(b)[0]!, /commit "e{40}" \(recorded: "d{40}"\)/);
      // The figures are the record's environment's too.
      assert.match(b.summary, /#### production: the last 30 days/);
      assert.doesNotMatch(b.summary, /staging/);
    });

    it('the original made no GitHub deployment: a duplicate makes none, and says so', async () => {
      const a = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-4', 'github-deployment': 'false' }), runnerEnv);
      assert.equal(a.code, 0, a.stdout);
      const b = await runAction(BUNDLE, inputs({ 'delivery-id': 'run-A-4' }), runB());
      assert.equal(b.code, 0, b.stdout);
      assert.equal(github.deployments.length, 0);
      assert.deepEqual(posts(), []);
      assert.equal(b.outputs['github-deployment-id'], undefined);
      assert.ok(warnings(b).some((w) => w.includes('no GitHub deployment: delivery-id "run-A-4" was recorded before, without a GitHub deployment of its own')), b.stdout);
    });
  });

  describe('the description: at most 140 UTF-16 units, cut between whole characters', () => {
    const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
    const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
    for (const [name, version, unit] of [
      ['emoji ZWJ sequences (11 units each)', FAMILY.repeat(15), FAMILY],
      ['astral characters, the old cut falling inside a surrogate pair', `a${'\u{1D518}'.repeat(80)}`, '\u{1D518}'],
      // Here the old cut kept whole code points but split a thumb from its skin tone.
      ['flags and skin tones', `ab${'\u{1F1EB}\u{1F1F7}\u{1F44D}\u{1F3FD}'.repeat(20)}`, undefined],
    ] as const) {
      it(name, async () => {
        const run = await runAction(BUNDLE, inputs({ 'delivery-id': `gh-cut-${name.replace(/\W+/g, '-')}`, version }), runnerEnv);
        assert.equal(run.code, 0, run.stdout);
        const [d] = github.deployments;
        for (const description of [d!.description!, d!.statuses[0]!.description]) {
          assert.ok(description.length <= 140, `${description.length} units`);
          assert.doesNotMatch(description, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, 'no lone surrogate');
          assert.ok(description.endsWith('…'));
          const kept = description.slice('success of '.length, -1);
          assert.ok(version.startsWith(kept), 'a prefix of the version');
          assert.ok(graphemes(version).slice(0, graphemes(kept).length).join('') === kept, 'whole characters only');
          if (unit) assert.ok(graphemes(kept).every((g, i) => g === unit || (i === 0 && g === 'a')), JSON.stringify(graphemes(kept)));
          // As long as it can be: one more character would not fit with the ellipsis.
          assert.ok('success of '.length + kept.length + graphemes(version)[graphemes(kept).length]!.length + 1 > 140);
        }
      });
    }
  });

  it('nothing is created on GitHub when the ledger did not record the deployment', async () => {
    const run = await runAction(BUNDLE, inputs({ 'delivery-id': 'gh-refused', status: 'exploded' }), runnerEnv);
    assert.equal(run.code, 1);
    assert.deepEqual(github.calls, []);
  });
});
