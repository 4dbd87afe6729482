import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as mongodb from 'mongodb';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { rateLimitedClient } from '../../server/github/rate-limited-client.js';
import { GITHUB_API_VERSION as API_VERSION } from '../../server/github/api.js';
import type { GithubTarget } from '../../server/github/targets.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { Pacer, PacerRegistry } from '../../server/issues/pacer.js';
import { mongoLocks } from '../../server/sync/service/locks-mongo.js';
import { memoryLocks, type SourceLocks } from '../../server/sync/service/locks.js';
import type { IssuePushDeps } from '../../server/issues/deps.js';
import { pushIssues } from '../../server/issues/push.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { liveMentions, renderGfm, tagsIn } from '../support/rendered-markdown.js';
import { FAST_RETRY } from './support.js';

const RETRY = { ...DEFAULT_RETRY, ...FAST_RETRY, retries: 0 };

/** A finding per severity, in the FPF shape Dependency-Track exports. */
function fpf(findings: { id: string; severity: string; component?: string }[]): Uint8Array {
  return Buffer.from(
    JSON.stringify({
      version: '1.2',
      findings: findings.map((f) => ({
        component: { uuid: `c-${f.id}`, name: f.component ?? 'lodash', version: '4.17.20' },
        vulnerability: { uuid: `v-${f.id}`, vulnId: f.id, source: 'NVD', severity: f.severity },
        analysis: { isSuppressed: false },
        matrix: `p:c-${f.id}:v-${f.id}`,
      })),
    }),
  );
}

/** A clock whose sleeps advance time at once and are recorded. */
function fakePacerClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    },
  };
}

describe('issue push (DefectDojo findings -> GitHub issues)', () => {
  let dd: FakeDefectDojo;
  let gh: FakeGitHubAlerts;
  let ghe: FakeGitHubAlerts;
  let defectDojo: DefectDojoClient;
  let targets: GithubTarget[];
  let pacing: ReturnType<typeof fakePacerClock>;
  let pacers: PacerRegistry;
  let locks: SourceLocks;
  let logs: { level: string; obj: unknown; msg: string }[];

  async function reimport(product: string, findings: { id: string; severity: string; component?: string }[]): Promise<void> {
    await defectDojo.reimport({ scanType: SCAN_TYPES.dependencyTrack, productName: product, engagementName: 'Dependency-Track', testTitle: '1.0', filename: 'f.json', content: fpf(findings) });
  }

  function deps(overrides: Partial<IssuePushDeps> = {}): IssuePushDeps {
    return {
      defectDojo,
      defectDojoUrl: dd.url,
      targets,
      clientFor: (target) => rateLimitedClient(target, { timeoutMs: 5000, retry: RETRY }),
      pacersFor: (target) => pacers.for(target),
      locks,
      // Waiting for another push is real (short) waiting: the other push needs the event loop.
      lockWait: { clock: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }, waitMs: 10_000, pollMs: 5 },
      minSeverity: 'High',
      maxIssuesPerRun: 50,
      retry: RETRY,
      log: {
        info: ((obj: unknown, msg: string) => void logs.push({ level: 'info', obj, msg })) as never,
        warn: ((obj: unknown, msg: string) => void logs.push({ level: 'warn', obj, msg })) as never,
      },
      ...overrides,
    };
  }

  beforeEach(async () => {
    dd = await FakeDefectDojo.start();
    gh = await FakeGitHubAlerts.start({ token: 'ghp_publicToken0123456789abcdefABCDEFGH' });
    ghe = await FakeGitHubAlerts.start({ token: 'ghp_enterpriseToken0123456789abcdefABC', prefix: '/api/v3' });
    defectDojo = new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'R&D', timeoutMs: 5000, uploadTimeoutMs: 5000 });
    // The public platform first, as parseGithubTargets orders them.
    targets = [
      { server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token },
      { server: ghe.server, apiBase: `${ghe.server}/api/v3`, kind: 'enterprise', owners: ['acme', 'corp'], token: ghe.token },
    ];
    pacing = fakePacerClock();
    pacers = new PacerRegistry(pacing.clock);
    locks = memoryLocks();
    logs = [];
  });
  afterEach(async () => {
    await Promise.all([dd.close(), gh.close(), ghe.close()]);
  });

  it('opens one issue per active finding at or above minSeverity, worst first, and tags each finding with its URL', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [
      { id: 'CVE-2026-0001', severity: 'HIGH' },
      { id: 'CVE-2026-0002', severity: 'CRITICAL' },
      { id: 'CVE-2026-0003', severity: 'MEDIUM' },
      { id: 'GHSA-abcd-efgh-ijkm', severity: 'LOW' },
    ]);
    const report = await pushIssues(['acme/api'], deps());
    assert.deepEqual(report, { opened: 2, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    const [first, second] = gh.repos[0]!.issues;
    assert.match(first!.title, /^Critical: CVE-2026-0002 in lodash/);
    assert.match(second!.title, /^High: CVE-2026-0001/);
    assert.deepEqual(first!.labels, ['security', 'gatehouse', 'severity:critical']);
    assert.match(first!.body, /\*\*Severity:\*\* Critical/);
    assert.match(first!.body, /\*\*Component:\*\* `lodash 4\.17\.20`/);
    assert.match(first!.body, /\[CVE-2026-0002\]\(https:\/\/nvd\.nist\.gov\/vuln\/detail\/CVE-2026-0002\)/);
    const finding = dd.findings().find((f) => f.finding.title.includes('CVE-2026-0002'))!.finding;
    assert.match(first!.body, new RegExp(`\\[finding ${finding.id}\\]\\(${dd.url}/finding/${finding.id}\\)`));
    assert.match(first!.body, /Gatehouse finding: `[0-9a-f]{32}`/);
    // DefectDojo lowercases tags; the tag holds the issue URL.
    assert.deepEqual(finding.tags, [`issue:${first!.html_url}`.toLowerCase()]);
    // Medium and Low got none.
    assert.equal(gh.repos[0]!.issues.length, 2);
    // At least a second between two creations.
    assert.ok(pacing.sleeps.some((ms) => ms >= 1000 - 1), `sleeps: ${pacing.sleeps.join(',')}`);
    assert.ok(gh.calls.every((c) => c.apiVersion === API_VERSION), 'every GitHub call names the REST API version');
  });

  it('tags each finding with POST /api/v2/findings/{id}/tags/ (added to its tags), never a PATCH of the finding', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    const finding = dd.findings()[0]!.finding;
    finding.tags = ['team-payments'];
    const report = await pushIssues(['acme/api'], deps());
    assert.equal(report.opened, 1);
    const tagging = dd.calls.filter((c) => c.route === 'finding_tags');
    assert.deepEqual(tagging.map((c) => [c.method, c.url]), [['POST', `/api/v2/findings/${finding.id}/tags/`]]);
    assert.equal(dd.calls.filter((c) => c.method === 'PATCH').length, 0, 'a PATCH saves the whole finding (and may push it to JIRA)');
    assert.deepEqual(finding.tags, ['team-payments', `issue:${gh.allIssues()[0]!.html_url}`.toLowerCase()]);
  });

  it("the DefectDojo fake's tags action answers as DefectDojo's FindingViewSet.tags does", async () => {
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    const finding = dd.findings()[0]!.finding;
    const call = (method: string, body?: unknown) =>
      fetch(`${dd.url}/api/v2/findings/${finding.id}/tags/`, { method, headers: { authorization: `Token ${dd.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const answer = async (res: Response) => ({ status: res.status, body: await res.json() });
    assert.deepEqual(await answer(await call('POST', {})), { status: 400, body: { tags: ['This field is required.'] } });
    assert.deepEqual(await answer(await call('POST', { tags: ['has space'] })), { status: 400, body: { tags: ["Invalid tag: 'has space'. Tags should not contain spaces, commas, or quotes."] } });
    assert.deepEqual(await answer(await call('POST', { tags: 'not json' })), { status: 400, body: { tags: ['Invalid json list. A tag list submitted in string form must be valid json.'] } });
    // A comma splits a tag in two; tags are lowercased and added to the finding's own.
    assert.deepEqual(await answer(await call('POST', { tags: ['Team-A,issue:https://x/1'] })), { status: 200, body: { tags: ['team-a', 'issue:https://x/1'] } });
    assert.deepEqual(await answer(await call('POST', { tags: '["team-a"]' })), { status: 200, body: { tags: ['team-a', 'issue:https://x/1'] } });
    assert.deepEqual(await answer(await call('GET')), { status: 200, body: { tags: ['team-a', 'issue:https://x/1'] } });
    assert.equal((await call('PUT', { tags: [] })).status, 405);
  });

  it('a re-run opens nothing: tagged findings are not asked for again', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await pushIssues(['acme/api'], deps());
    const again = await pushIssues(['acme/api'], deps());
    assert.deepEqual(again, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.allIssues().length, 1);
    // The query asked DefectDojo for untagged, active findings of the product at High and above.
    const query = new URL(dd.calls.filter((c) => c.route === 'findings' && c.url.includes('not_tag=')).at(-1)!.url, dd.url).searchParams;
    assert.equal(query.get('product_name'), 'acme/api');
    assert.equal(query.get('active'), 'true');
    assert.equal(query.get('severity'), 'Critical,High');
    assert.equal(query.get('not_tag'), 'issue:');
  });

  it('a crash between creating the issue and tagging the finding never opens a second issue', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'CRITICAL' }]);
    dd.faults.inject('finding_tags', { status: 503, body: { detail: 'Service unavailable' } });
    const crashed = await pushIssues(['acme/api'], deps());
    assert.deepEqual(crashed, { opened: 1, relinked: 0, failed: 1, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.deepEqual(dd.findings()[0]!.finding.tags, []);
    // Not yet in the search index: the labelled listing finds it.
    const rerun = await pushIssues(['acme/api'], deps());
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.allIssues().length, 1);
    assert.deepEqual(dd.findings()[0]!.finding.tags, [`issue:${gh.allIssues()[0]!.html_url}`]);
  });

  it('a reimport that dropped the tag (a re-created finding) is linked back to its issue by hash', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await pushIssues(['acme/api'], deps());
    const oldId = dd.findings()[0]!.finding.id;
    dd.recreate('acme/api');
    assert.notEqual(dd.findings()[0]!.finding.id, oldId);
    const rerun = await pushIssues(['acme/api'], deps());
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.allIssues().length, 1);
    assert.equal(dd.findings()[0]!.finding.tags.length, 1);
  });

  it('falls back to search by hash when the issue lost its label', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await pushIssues(['acme/api'], deps());
    const issue = gh.allIssues()[0]!;
    issue.labels = [];
    gh.indexSearch();
    dd.findings()[0]!.finding.tags = [];
    const rerun = await pushIssues(['acme/api'], deps());
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    const search = gh.calls.filter((c) => c.route === 'search_issues').at(-1)!;
    assert.match(search.query.get('q')!, /^repo:acme\/api is:issue in:body "[0-9a-f]{32}"$/);
    assert.equal(gh.allIssues().length, 1);
  });

  it('opens at most maxIssuesPerRun per run; the rest waits for the next run', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', Array.from({ length: 5 }, (_, i) => ({ id: `CVE-2026-100${i}`, severity: 'HIGH' })));
    const first = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.deepEqual(first, { opened: 2, relinked: 0, failed: 0, deferred: 3, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    const second = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.equal(second.opened, 2);
    const third = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.deepEqual(third, { opened: 1, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.allIssues().length, 5);
    assert.equal((await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 0 }))).opened, 0);
  });

  it('stops for the run when the hourly content budget is spent', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', Array.from({ length: 3 }, (_, i) => ({ id: `CVE-2026-200${i}`, severity: 'HIGH' })));
    const create = new Pacer(pacing.clock, 1000, [{ ms: 3_600_000, max: 1, whenFull: 'defer' }]);
    const search = new Pacer(pacing.clock, 2000);
    const report = await pushIssues(['acme/api'], deps({ pacersFor: () => ({ create, search }) }));
    assert.deepEqual(report, { opened: 1, relinked: 0, failed: 0, deferred: 2, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
  });

  it('opens no issue in a repository GitHub shows under an owner the target does not list (transferred away); a rename within the owner is followed', async () => {
    const transferred = gh.addRepo({ owner: 'victim-org', name: 'api' });
    gh.moved.set('acme/gone', transferred);
    const renamed = gh.addRepo({ owner: 'acme', name: 'api-v2' });
    gh.moved.set('acme/api-v1', renamed);
    await reimport('acme/gone', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await reimport('acme/api-v1', [{ id: 'CVE-2026-0002', severity: 'HIGH' }]);
    const report = await pushIssues(['acme/gone', 'acme/api-v1'], deps());
    assert.deepEqual([report.opened, report.unresolved, report.failed], [1, 1, 0]);
    assert.equal(transferred.issues.length, 0);
    assert.equal(renamed.issues.length, 1);
  });

  it('resolves owner/name on the public platform first, then on the enterprise instance', async () => {
    gh.addRepo({ owner: 'acme', name: 'both' });
    ghe.addRepo({ owner: 'acme', name: 'both' });
    ghe.addRepo({ owner: 'acme', name: 'internal' });
    ghe.addRepo({ owner: 'corp', name: 'ledger' });
    await reimport('acme/both', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await reimport('acme/internal', [{ id: 'CVE-2026-0002', severity: 'HIGH' }]);
    await reimport('corp/ledger', [{ id: 'CVE-2026-0003', severity: 'HIGH' }]);
    await reimport('not-a-repository-name', [{ id: 'CVE-2026-0004', severity: 'HIGH' }]);
    await reimport('stranger/repo', [{ id: 'CVE-2026-0005', severity: 'HIGH' }]);
    const report = await pushIssues(['acme/both', 'acme/internal', 'corp/ledger', 'not-a-repository-name', 'stranger/repo'], deps());
    assert.deepEqual(report, { opened: 3, relinked: 0, failed: 0, deferred: 0, unresolved: 2, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.repos.find((r) => r.name === 'both')!.issues.length, 1);
    assert.equal(ghe.repos.find((r) => r.name === 'both')!.issues.length, 0);
    assert.equal(ghe.repos.find((r) => r.name === 'internal')!.issues.length, 1);
    assert.equal(ghe.repos.find((r) => r.name === 'ledger')!.issues.length, 1);
    // The enterprise token never went to the public fake, nor the reverse.
    assert.ok(gh.calls.every((c) => c.authorization?.endsWith(gh.token)));
    assert.ok(ghe.calls.every((c) => c.authorization?.endsWith(ghe.token)));
  });

  it('a repository with issues turned off is a failure named in the log, and no call to create is made', async () => {
    gh.addRepo({ owner: 'acme', name: 'api', hasIssues: false });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }, { id: 'CVE-2026-0002', severity: 'HIGH' }]);
    const report = await pushIssues(['acme/api'], deps());
    assert.deepEqual(report, { opened: 0, relinked: 0, failed: 2, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(gh.count('create_issue'), 0);
    assert.equal(logs.filter((l) => l.msg.includes('issues are turned off')).length, 1);
  });

  it('a failed creation is counted and the next finding still gets its issue', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'CRITICAL' }, { id: 'CVE-2026-0002', severity: 'HIGH' }]);
    gh.faults.inject('create_issue', { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] } });
    const report = await pushIssues(['acme/api'], deps());
    assert.deepEqual(report, { opened: 1, relinked: 0, failed: 1, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.ok(logs.some((l) => l.level === 'warn' && JSON.stringify(l.obj).includes('answered 422')));
  });

  describe('never a second issue for one finding', () => {
    const FINDINGS = [
      { id: 'CVE-2026-3001', severity: 'CRITICAL' },
      { id: 'CVE-2026-3002', severity: 'HIGH' },
      { id: 'CVE-2026-3003', severity: 'HIGH' },
    ];

    /** Every finding of the product has exactly one issue, and is tagged with it. */
    function assertOneIssueEach(product: string, repoName: string): void {
      const issues = gh.repos.find((r) => r.name === repoName)!.issues;
      const findings = dd.findings().filter((f) => f.test.product === product);
      assert.equal(issues.length, findings.length, `issues: ${issues.map((i) => i.title).join(' | ')}`);
      for (const { finding } of findings) {
        const tags = finding.tags.filter((t) => t.startsWith('issue:'));
        assert.equal(tags.length, 1, `finding ${finding.id}: ${finding.tags.join(',')}`);
        assert.ok(issues.some((i) => `issue:${i.html_url}`.toLowerCase() === tags[0]));
      }
    }

    // The client retries a call that got no answer or a 5xx; a creation GitHub made before the
    // answer was lost must not be made again: it is looked for by its hash instead.
    for (const [lost, fault, timeoutMs] of [
      ['answered 502 by a proxy', { status: 502, body: { message: 'Server Error' } }, 5000],
      ['whose connection dropped', 'reset', 5000],
      ['never answered (the call times out)', 'hang', 400],
    ] as const) {
      it(`a creation GitHub made but ${lost}: exactly one issue, found by its hash and tagged in the same run`, async () => {
        gh.addRepo({ owner: 'acme', name: 'api' });
        await reimport('acme/api', FINDINGS.slice(0, 2));
        gh.afterWriting.inject('create_issue', fault);
        const retrying = (target: GithubTarget) => rateLimitedClient(target, { timeoutMs, retry: { ...RETRY, retries: 3 } });
        const report = await pushIssues(['acme/api'], deps({ clientFor: retrying }));
        assert.deepEqual(report, { opened: 2, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
        assert.equal(gh.count('create_issue'), 2, 'one creation per finding, none repeated');
        assertOneIssueEach('acme/api', 'api');
        assert.ok(logs.some((l) => l.level === 'warn' && /found by its hash/.test(l.msg)));
        const again = await pushIssues(['acme/api'], deps({ clientFor: retrying }));
        assert.equal(again.opened + again.relinked + again.failed, 0);
        assertOneIssueEach('acme/api', 'api');
      });
    }

    it('a creation that got no answer and is not on GitHub fails for this run, and is not made again in it; the next run opens it once', async () => {
      gh.addRepo({ owner: 'acme', name: 'api' });
      await reimport('acme/api', FINDINGS.slice(0, 1));
      gh.faults.inject('create_issue', { status: 502, body: { message: 'Server Error' } });
      const retrying = (target: GithubTarget) => rateLimitedClient(target, { timeoutMs: 5000, retry: { ...RETRY, retries: 3 } });
      const failed = await pushIssues(['acme/api'], deps({ clientFor: retrying }));
      assert.equal(failed.failed, 1);
      assert.equal(gh.count('create_issue'), 1);
      assert.equal(gh.repos[0]!.issues.length, 0);
      const next = await pushIssues(['acme/api'], deps({ clientFor: retrying }));
      assert.equal(next.opened, 1);
      assertOneIssueEach('acme/api', 'api');
    });

    it('two pushes of the same product at once, against a search index that lags behind creation, open one issue per finding', async () => {
      gh.addRepo({ owner: 'acme', name: 'api' });
      gh.addRepo({ owner: 'acme', name: 'web' });
      gh.searchLag = { calls: 1_000 };
      await reimport('acme/api', FINDINGS);
      await reimport('acme/web', [{ id: 'CVE-2026-3004', severity: 'HIGH' }]);
      // As after two sources' runs, or every source at once in cronjob mode.
      const [a, b] = await Promise.all([pushIssues(['acme/api'], deps()), pushIssues(['acme/web', 'acme/api'], deps())]);
      assert.equal(a.opened + b.opened, 4);
      assert.equal(a.failed + b.failed, 0);
      assertOneIssueEach('acme/api', 'api');
      assertOneIssueEach('acme/web', 'web');
    });

    it('a token that cannot push: GitHub drops the labels, and every issue of the repository is listed instead (a crash before tagging opens no second issue)', async () => {
      gh.addRepo({ owner: 'acme', name: 'api', canPush: false });
      gh.searchLag = { calls: 1_000 };
      await reimport('acme/api', FINDINGS);
      // Tagging fails for every finding of the first push (after its issue was created).
      for (let i = 0; i < FINDINGS.length; i++) dd.faults.inject('finding_tags', { status: 503, body: { detail: 'Service unavailable' } });
      const first = await pushIssues(['acme/api'], deps());
      assert.deepEqual(first, { opened: 3, relinked: 0, failed: 3, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.ok(gh.allIssues().every((i) => i.labels.length === 0), 'the fake dropped the labels');
      const second = await pushIssues(['acme/api'], deps());
      assert.deepEqual(second, { opened: 0, relinked: 3, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assertOneIssueEach('acme/api', 'api');
      const listings = gh.calls.filter((c) => c.route === 'issues');
      assert.ok(listings.length > 0 && listings.every((c) => !c.query.has('labels')), 'listed without the label filter');
      assert.equal(gh.count('search_issues'), 0, 'the complete listing needs no search');
    });

    it('labels missing from GitHub\'s answer to a creation are noticed, and the rest of the push lists every issue', async () => {
      const repo = gh.addRepo({ owner: 'acme', name: 'api', canPush: false });
      // The repository's answer claims push access; only the creation's answer shows the labels gone.
      gh.faults.inject('repo', { status: 200, body: { id: 1, name: repo.name, full_name: 'acme/api', owner: { login: 'acme' }, has_issues: true, permissions: { push: true, pull: true } } });
      await reimport('acme/api', FINDINGS);
      const report = await pushIssues(['acme/api'], deps());
      assert.deepEqual(report, { opened: 3, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.equal(logs.filter((l) => /GitHub dropped the labels/.test(l.msg)).length, 1);
      const listings = gh.calls.filter((c) => c.route === 'issues');
      assert.ok(listings[0]!.query.get('labels') === 'gatehouse' && listings.some((c) => !c.query.has('labels')));
    });

    it('a spent search budget does not stop issue creation: the repository\'s issues are listed instead', async () => {
      gh.addRepo({ owner: 'acme', name: 'api' });
      await reimport('acme/api', FINDINGS);
      gh.budgets.search.remaining = 0;
      gh.budgets.search.reset = Math.floor(Date.now() / 1000) + 3000;
      const report = await pushIssues(['acme/api'], deps());
      assert.deepEqual(report, { opened: 3, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.equal(gh.count('search_issues'), 1, 'one refused search, then none');
      assert.ok(logs.some((l) => /search budget is spent/.test(l.msg)));
    });

    describe('across processes: the MongoDB locks (runs when MONGODB_URI is set; skipped otherwise)', function () {
      const uri = process.env.MONGODB_URI;
      const dbName = `gatehouse_push_${randomBytes(6).toString('hex')}`;
      before(function () {
        // No MongoDB server can run on the development machines; CI's workflow provides one.
        if (!uri) this.skip();
      });
      after(async () => {
        if (!uri) return;
        const client = new mongodb.MongoClient(uri);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      });

      it('two processes pushing the same product at once open one issue per finding', async () => {
        gh.addRepo({ owner: 'acme', name: 'api' });
        gh.searchLag = { calls: 1_000 };
        await reimport('acme/api', FINDINGS);
        // Each process has its own locks client and its own pacers; only the database is shared.
        const first = mongoLocks(uri!, { dbName }, mongodb);
        const second = mongoLocks(uri!, { dbName }, mongodb);
        const otherProcess = new PacerRegistry(pacing.clock);
        try {
          const [a, b] = await Promise.all([
            pushIssues(['acme/api'], deps({ locks: first })),
            pushIssues(['acme/api'], deps({ locks: second, pacersFor: (t) => otherProcess.for(t) })),
          ]);
          assert.equal(a.opened + b.opened, FINDINGS.length);
          assertOneIssueEach('acme/api', 'api');
        } finally {
          await first.close();
          await second.close();
        }
      });
    });

    it("with the service's client (search not waited for), a search budget that resets in 30 s is not waited for either", async () => {
      gh.addRepo({ owner: 'acme', name: 'api' });
      await reimport('acme/api', FINDINGS);
      gh.budgets.search.remaining = 0;
      gh.budgets.search.reset = Math.floor(Date.now() / 1000) + 30;
      const waits: number[] = [];
      const clock = { now: Date.now, sleep: async (ms: number) => void waits.push(ms) };
      const report = await pushIssues(['acme/api'], deps({ clientFor: (target) => rateLimitedClient(target, { timeoutMs: 5000, retry: RETRY, clock, maxRateLimitWaitMsFor: { search: 0 } }) }));
      assert.deepEqual(report, { opened: 3, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.deepEqual(waits, [], 'the reset was not waited for');
      assert.ok(gh.calls.some((c) => c.route === 'issues' && !c.query.has('labels')), 'every issue listed instead');
    });

    it('pushes in one process share the pacers of a GitHub account (server and token), whatever the target object', () => {
      const a = pacers.for(targets[0]!);
      assert.equal(pacers.for({ ...targets[0]! }), a, 'another run, another source: the same pacers');
      assert.notEqual(pacers.for(targets[1]!), a);
      assert.notEqual(pacers.for({ ...targets[0]!, token: 'ghp_anotherToken0123456789abcdefABCDEFGH' }), a);
    });

    it('a push waits while another holds its product; past the wait it gives up and says so', async () => {
      gh.addRepo({ owner: 'acme', name: 'api' });
      await reimport('acme/api', FINDINGS);
      const { productKey } = await import('../../server/issues/push-locks.js');
      const lease = (await locks.acquire(productKey('acme/api'), 'another-push'))!;
      const report = await pushIssues(['acme/api'], deps({ lockWait: { clock: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }, waitMs: 50, pollMs: 5 } }));
      assert.deepEqual(report, { opened: 0, relinked: 0, failed: 1, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.ok(logs.some((l) => l.level === 'warn' && /another issue push held issue-push:product:acme\/api/.test(JSON.stringify(l.obj))));
      assert.equal(dd.count('findings'), 0, 'nothing was listed without the lock');
      setTimeout(() => void lease.release(), 30);
      const later = await pushIssues(['acme/api'], deps());
      assert.equal(later.opened, 3);
    });
  });

  describe('pacing', () => {
    it('slots taken at once by concurrent callers still go out one interval apart', async () => {
      const pacer = new Pacer({ now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }, 25);
      const at: number[] = [];
      await Promise.all(Array.from({ length: 4 }, () => pacer.slot().then(() => at.push(Date.now()))));
      at.sort((x, y) => x - y);
      for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= 23, `slots at +${at.map((t) => t - at[0]!).join(', +')} ms`);
    });

    it("GitHub's content limits: a full minute is waited for, a full hour defers", async () => {
      const { GITHUB_PACE } = await import('../../server/issues/pacer.js');
      assert.deepEqual(GITHUB_PACE.create.windows.map((w) => [w.ms, w.max, w.whenFull]), [[60_000, 80, 'wait'], [3_600_000, 500, 'defer']]);
      const minute = new Pacer(pacing.clock, 0, [{ ms: 60_000, max: 3, whenFull: 'wait' }]);
      for (let i = 0; i < 3; i++) assert.equal(await minute.slot(), true);
      assert.deepEqual(pacing.sleeps, []);
      assert.equal(await minute.slot(), true);
      assert.deepEqual(pacing.sleeps, [60_000], 'the fourth waited for the first to leave the minute');
      const hour = new Pacer(pacing.clock, GITHUB_PACE.create.minIntervalMs, GITHUB_PACE.create.windows);
      for (let i = 0; i < 500; i++) assert.equal(await hour.slot(), true);
      assert.equal(await hour.slot(), false, 'the 501st in an hour is deferred');
      await pacing.clock.sleep(3_600_000);
      assert.equal(await hour.slot(), true);
    });
  });

  it("titles issues from the source's own data, never DefectDojo's title-cased title: rule ids, packages and secret types keep their case", async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    const send = (scanType: (typeof SCAN_TYPES)[keyof typeof SCAN_TYPES], test: string, report: unknown) =>
      defectDojo.reimport({ scanType, productName: 'acme/api', engagementName: 'GitHub', testTitle: test, filename: `${test}.json`, content: Buffer.from(JSON.stringify(report)) });
    // Code scanning as the sync sends it (the alert number in the rule id).
    await send(SCAN_TYPES.codeScanning, 'code scanning', [
      { number: 34, state: 'open', rule: { id: 'py/path-injection #34', description: 'Uncontrolled data used in path expression', security_severity_level: 'high' }, most_recent_instance: { location: { path: 'app/views.py', start_line: 12 } } },
    ]);
    await send(SCAN_TYPES.secretScanning, 'secret scanning', [
      { number: 3, state: 'open', secret_type: 'github_personal_access_token', secret_type_display_name: 'GitHub Personal Access Token (alert #3)', validity: 'active', first_location_detected: { path: 'config/settings.py', start_line: 4 } },
    ]);
    await reimport('acme/api', [{ id: 'GHSA-35jh-r3h4-6jhm', severity: 'HIGH', component: 'lodash.template' }]);
    const report = await pushIssues(['acme/api'], deps({ minSeverity: 'High' }));
    assert.equal(report.opened, 3);
    const stored = dd.findings().map((f) => f.finding.title);
    assert.ok(stored.includes('Uncontrolled Data Used in Path Expression (Py/Path-Injection #34)'), `DefectDojo title-cases: ${stored.join(' | ')}`);
    // GitHub links `#34` in a title to issue 34: a zero-width space after `#` keeps it text.
    assert.deepEqual(gh.repos[0]!.issues.map((i) => i.title).sort(), [
      'High: GHSA-35jh-r3h4-6jhm in lodash.template 4.17.20',
      'High: Secret: GitHub Personal Access Token (alert #\u200b3) in config/settings.py:4',
      'High: py/path-injection #\u200b34 in app/views.py:12',
    ]);
  });

  it('a package name with @mentions, #123 and <img> (a scanner chose it): the title mentions and references no one; the body renders no HTML of it', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0009', severity: 'HIGH', component: '@org/team <img src=x onerror=alert(1)> #12 GH-3 @user' }]);
    const report = await pushIssues(['acme/api'], deps({ minSeverity: 'High' }));
    assert.equal(report.opened, 1);
    const [issue] = gh.repos[0]!.issues;
    assert.equal(issue!.title, 'High: CVE-2026-0009 in @\u200borg/team <img src=x onerror=alert(1)> #\u200b12 GH\u200b-3 @\u200buser 4.17.20');
    const body = renderGfm(issue!.body);
    assert.deepEqual(tagsIn(body).filter((t) => t === 'img'), []);
    assert.deepEqual(liveMentions(body), []);
    assert.equal(body.querySelector('code')?.textContent, '@org/team <img src=x onerror=alert(1)> #12 GH-3 @user 4.17.20', 'the component, as it is, in a code span');
  });

  it('scanner text cannot mention people or break out of its block', async () => {
    const { issueText } = await import('../../server/issues/issue-text.js');
    const text = issueText(
      { id: 7, product: 'acme/api', title: 'x', severity: 'High', description: 'ping @octocat ```\n# heading', vulnerabilityIds: [], tags: [], active: true },
      'a'.repeat(32),
      'https://dd/finding/7',
    );
    assert.match(text.body, /````text\nping @octocat ```\n# heading\n````/);
  });
});
