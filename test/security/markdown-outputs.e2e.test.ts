import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBackend, type Backend } from '../support/backend.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { FakePullRequest } from '../support/fake-pull-request.js';
import { GitRepo, lines } from '../support/git-repo.js';
import { REPO_ROOT } from '../support/processes.js';
import { liveMentions, renderGfm, shownText, tagsIn, type Document } from '../support/rendered-markdown.js';
import { runAction } from '../support/runner.js';
import { fpfProject } from '../sync/support.js';

const bundle = (name: string) => join(REPO_ROOT, 'dist', name, 'index.js');
const IMG = '<img src=x onerror=alert(1)>';
/**
 * Text a pull request, a scanner or a workflow chooses, with everything Markdown must not let
 * it do (and short enough for an environment name, at most 100 characters).
 */
const HOSTILE = `${IMG} <details><summary>x</summary> ping @org/team, @user: #123`;

/** What the product writes, rendered: no element of the data's making, no live mention or reference, the data shown as text. */
function assertInert(markdown: string, where: string): Document {
  const doc = renderGfm(markdown);
  assert.deepEqual(tagsIn(doc).filter((t) => ['img', 'details', 'summary', 'script'].includes(t)), [], `${where}: ${markdown}`);
  assert.deepEqual(liveMentions(doc), [], `${where}: ${markdown}`);
  assert.ok(shownText(doc).includes(HOSTILE), `${where} shows the text as it is: ${shownText(doc)}`);
  return doc;
}

describe('data in every Markdown the product writes (bundles run as the runner runs them): shown, never rendered', function () {
  this.timeout(120_000);

  describe('gate: job summary, summary comment and inline review comments', () => {
    let repo: GitRepo;
    let temp: string;
    let pr: FakePullRequest;
    // A file a pull request may add: Linux allows <, >, @ and # in names.
    const FILE = `src/${IMG} @user #7.js`;

    beforeEach(async () => {
      repo = GitRepo.create();
      repo.write('src/app.js', lines(10));
      const base = repo.commit('base');
      repo.git('checkout', '--quiet', '-b', 'pr');
      repo.write('src/app.js', `${lines(10)}eval(a1);\n`);
      repo.write(FILE, 'eval(b2);\n');
      repo.commit('the pull request');
      temp = mkdtempSync(join(tmpdir(), 'gatehouse-markdown-'));
      pr = await FakePullRequest.start({ token: 'pr-token', diffLines: new Map<string, Set<number> | 'all'>([['src/app.js', new Set([11])], [FILE, 'all']]) });
      writeFileSync(join(temp, 'event.json'), JSON.stringify({ pull_request: { number: 7, base: { sha: base } } }));
    });
    afterEach(async () => {
      await pr.close();
      repo.cleanup();
      rmSync(temp, { recursive: true, force: true });
    });

    it(`a SARIF message, rule id, tool name and file name with ${IMG}, <details>, @mentions and #123: text everywhere; the scanner's own links kept`, async () => {
      const message = `see [the docs](https://eslint.org/docs/rules/no-eval), [the source](1): ${HOSTILE} ![pixel](https://evil.example/p.png)`;
      const result = (uri: string, line: number) => ({
        ruleId: `no-eval ${IMG} @user`,
        level: 'error',
        message: { text: message },
        locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
        relatedLocations: [{ id: 1, physicalLocation: { artifactLocation: { uri }, region: { startLine: line } } }],
      });
      const sarif = join(temp, 'report.sarif');
      writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: `eslint ${IMG} @org/team`, rules: [] } }, results: [result('src/app.js', 11), result(FILE, 1)] }] }));
      const run = await runAction(bundle('gate'), { sarif, token: 'pr-token', 'comment-mode': 'both', 'fail-on': 'high' }, {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: join(temp, 'event.json'),
        GITHUB_REPOSITORY: 'octo-org/octo-repo',
        GITHUB_API_URL: pr.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_WORKSPACE: repo.dir,
        RUNNER_TEMP: temp,
      });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(pr.issueComments.length, 1);
      assert.equal(pr.reviewComments.length, 2);

      for (const [where, markdown] of [['job summary', run.summary], ['summary comment', pr.issueComments[0]!.body]] as const) {
        const doc = assertInert(markdown, where);
        const links = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
        assert.ok(links.includes('https://eslint.org/docs/rules/no-eval'), `${where} keeps the scanner's link`);
        assert.ok(links.includes('1'), `${where} keeps the embedded link to a related location`);
        // The file with a hostile name: its row is a link to the head commit, its name shown as text.
        const fileLink = [...doc.querySelectorAll('a')].find((a) => a.textContent?.replace(/\u200b/g, '').startsWith(`src/${IMG}`));
        assert.equal(fileLink?.textContent?.replace(/\u200b/g, ''), `${FILE}:1`, `${where}: the file's link shows its name`);
        assert.match(fileLink.getAttribute('href')!, /^https:\/\/github\.com\/octo-org\/octo-repo\/blob\/[0-9a-f]{40}\/src\/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E%20%40user%20%237\.js#L1$/);
        const rows = [...doc.querySelector('table')!.querySelectorAll('tbody tr')];
        assert.equal(rows.length, 2, `${where}: each finding one row`);
        assert.ok(rows.every((tr) => tr.querySelectorAll('td').length === 6), `${where}: no cell split`);
      }
      for (const comment of pr.reviewComments) {
        const doc = assertInert(comment.body, `review comment on ${comment.path}`);
        // The scanner's links, the image's too: a link to click, never an image that loads by itself.
        assert.deepEqual(
          [...doc.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
          [
            ['the docs', 'https://eslint.org/docs/rules/no-eval'],
            ['the source', '1'],
            ['pixel', 'https://evil.example/p.png'],
          ],
        );
        assert.match(shownText(doc), /!pixel$/);
        assert.deepEqual(tagsIn(doc), ['a', 'code', 'p', 'strong']);
        assert.equal(doc.querySelector('code')!.textContent, `no-eval ${IMG} @user`, 'the rule id in a code span, as it is');
      }
    });
  });

  describe('record-deployment: the job summary', () => {
    let backend: Backend;
    before(async () => {
      backend = await startBackend();
    });
    after(() => backend.close());

    it(`an environment named ${HOSTILE}: text in the table and the figures' heading`, async () => {
      const run = await runAction(bundle('record-deployment'), { 'api-url': backend.url, environment: HOSTILE, status: 'success', version: '1.0 | <b>x</b>' }, {
        GITHUB_ACTIONS: 'true',
        ACTIONS_ID_TOKEN_REQUEST_URL: backend.issuer.runnerTokenUrl,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: backend.issuer.runnerRequestToken,
        GITHUB_REPOSITORY: 'octo-org/octo-repo',
        GITHUB_RUN_ID: '31',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'deploy',
        GITHUB_SHA: 'a'.repeat(40),
        GITHUB_SERVER_URL: 'https://github.com',
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const doc = assertInert(run.summary, 'record-deployment summary');
      const cells = [...doc.querySelectorAll('tbody tr')][0]!.querySelectorAll('td');
      assert.equal(cells.length, 7, 'the version\'s | splits no cell');
      assert.equal(cells[3]!.textContent, '1.0 | <b>x</b>');
      assert.equal(doc.querySelector('h4')?.textContent?.replace(/\u200b/g, ''), `${HOSTILE}: the last 30 days`, "the figures' heading names the environment as text");
    });
  });

  describe('sync: the job summary', () => {
    let dt: FakeDependencyTrack;
    let dd: FakeDefectDojo;
    let temp: string;
    beforeEach(async () => {
      dt = await FakeDependencyTrack.start();
      dd = await FakeDefectDojo.start();
      temp = mkdtempSync(join(tmpdir(), 'gatehouse-markdown-sync-'));
    });
    afterEach(async () => {
      await dt.close();
      await dd.close();
      rmSync(temp, { recursive: true, force: true });
    });

    it(`a Dependency-Track project named ${HOSTILE}: text in the table`, async () => {
      dt.projects.push({ ...fpfProject(1, 1), name: HOSTILE });
      const run = await runAction(bundle('sync'), { command: 'sync', 'defectdojo-token': dd.token, 'dependency-track-api-key': dt.apiKey }, { SYNC_DEPENDENCYTRACK_URL: dt.url, SYNC_DEFECTDOJO_URL: dd.url, RUNNER_TEMP: temp });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const doc = assertInert(run.summary, 'sync summary');
      assert.equal([...doc.querySelectorAll('tbody tr')][0]!.querySelectorAll('td').length, 9);
    });
  });
});
