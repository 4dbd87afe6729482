import assert from 'node:assert/strict';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { githubClient } from '../../server/sync/github/client.js';
import type { GithubTarget } from '../../server/sync/github/targets.js';
import { DEFAULT_RETRY } from '../../server/sync/http/retry.js';
import { Pacer } from '../../server/sync/issues/pacer.js';
import { pushIssues, type IssuePushDeps } from '../../server/sync/issues/push.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
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
  let logs: { level: string; obj: unknown; msg: string }[];

  async function reimport(product: string, findings: { id: string; severity: string }[]): Promise<void> {
    await defectDojo.reimport({ scanType: SCAN_TYPES.dependencyTrack, productName: product, engagementName: 'Dependency-Track', testTitle: '1.0', filename: 'f.json', content: fpf(findings) });
  }

  function deps(overrides: Partial<IssuePushDeps> = {}): IssuePushDeps {
    const pacers = new Map<GithubTarget, { create: Pacer; search: Pacer }>();
    return {
      defectDojo,
      defectDojoUrl: dd.url,
      targets,
      clientFor: (target) => githubClient(target, { timeoutMs: 5000, retry: RETRY }),
      pacersFor: (target) => {
        if (!pacers.has(target)) pacers.set(target, { create: new Pacer(pacing.clock, 1000, 400), search: new Pacer(pacing.clock, 2000) });
        return pacers.get(target)!;
      },
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
    assert.deepEqual(report, { opened: 2, relinked: 0, failed: 0, deferred: 0, unresolved: 0 });
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
  });

  it('a re-run opens nothing: tagged findings are not asked for again', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'HIGH' }]);
    await pushIssues(['acme/api'], deps());
    const again = await pushIssues(['acme/api'], deps());
    assert.deepEqual(again, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0 });
    assert.equal(gh.allIssues().length, 1);
    // The query asked DefectDojo for untagged, active findings of the product at High and above.
    const query = new URL(dd.calls.filter((c) => c.route === 'findings').at(-1)!.url, dd.url).searchParams;
    assert.equal(query.get('product_name'), 'acme/api');
    assert.equal(query.get('active'), 'true');
    assert.equal(query.get('severity'), 'Critical,High');
    assert.equal(query.get('not_tag'), 'issue:');
  });

  it('a crash between creating the issue and tagging the finding never opens a second issue', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'CRITICAL' }]);
    dd.faults.inject('finding', { status: 503, body: { detail: 'Service unavailable' } });
    const crashed = await pushIssues(['acme/api'], deps());
    assert.deepEqual(crashed, { opened: 1, relinked: 0, failed: 1, deferred: 0, unresolved: 0 });
    assert.deepEqual(dd.findings()[0]!.finding.tags, []);
    // Not yet in the search index: the labelled listing finds it.
    const rerun = await pushIssues(['acme/api'], deps());
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0 });
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
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0 });
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
    assert.deepEqual(rerun, { opened: 0, relinked: 1, failed: 0, deferred: 0, unresolved: 0 });
    const search = gh.calls.filter((c) => c.route === 'search_issues').at(-1)!;
    assert.match(search.query.get('q')!, /^repo:acme\/api is:issue in:body "[0-9a-f]{32}"$/);
    assert.equal(gh.allIssues().length, 1);
  });

  it('opens at most maxIssuesPerRun per run; the rest waits for the next run', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', Array.from({ length: 5 }, (_, i) => ({ id: `CVE-2026-100${i}`, severity: 'HIGH' })));
    const first = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.deepEqual(first, { opened: 2, relinked: 0, failed: 0, deferred: 3, unresolved: 0 });
    const second = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.equal(second.opened, 2);
    const third = await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 2 }));
    assert.deepEqual(third, { opened: 1, relinked: 0, failed: 0, deferred: 0, unresolved: 0 });
    assert.equal(gh.allIssues().length, 5);
    assert.equal((await pushIssues(['acme/api'], deps({ maxIssuesPerRun: 0 }))).opened, 0);
  });

  it('stops for the run when the hourly content budget is spent', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', Array.from({ length: 3 }, (_, i) => ({ id: `CVE-2026-200${i}`, severity: 'HIGH' })));
    const create = new Pacer(pacing.clock, 1000, 1);
    const search = new Pacer(pacing.clock, 2000);
    const report = await pushIssues(['acme/api'], deps({ pacersFor: () => ({ create, search }) }));
    assert.deepEqual(report, { opened: 1, relinked: 0, failed: 0, deferred: 2, unresolved: 0 });
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
    assert.deepEqual(report, { opened: 3, relinked: 0, failed: 0, deferred: 0, unresolved: 2 });
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
    assert.deepEqual(report, { opened: 0, relinked: 0, failed: 2, deferred: 0, unresolved: 0 });
    assert.equal(gh.count('create_issue'), 0);
    assert.equal(logs.filter((l) => l.msg.includes('issues are turned off')).length, 1);
  });

  it('a failed creation is counted and the next finding still gets its issue', async () => {
    gh.addRepo({ owner: 'acme', name: 'api' });
    await reimport('acme/api', [{ id: 'CVE-2026-0001', severity: 'CRITICAL' }, { id: 'CVE-2026-0002', severity: 'HIGH' }]);
    gh.faults.inject('create_issue', { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] } });
    const report = await pushIssues(['acme/api'], deps());
    assert.deepEqual(report, { opened: 1, relinked: 0, failed: 1, deferred: 0, unresolved: 0 });
    assert.ok(logs.some((l) => l.level === 'warn' && JSON.stringify(l.obj).includes('answered 422')));
  });

  it('scanner text cannot mention people or break out of its block', async () => {
    const { issueText } = await import('../../server/sync/issues/issue-text.js');
    const text = issueText(
      { id: 7, product: 'acme/api', title: 'x', severity: 'High', description: 'ping @octocat ```\n# heading', vulnerabilityIds: [], tags: [], active: true },
      'a'.repeat(32),
      'https://dd/finding/7',
    );
    assert.match(text.body, /````text\nping @octocat ```\n# heading\n````/);
  });
});
