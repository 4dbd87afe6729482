import assert from 'node:assert/strict';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { rateLimitedClient } from '../../server/github/rate-limited-client.js';
import type { GithubTarget } from '../../server/github/targets.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { decide } from '../../server/issues/lifecycle.js';
import { PacerRegistry } from '../../server/issues/pacer.js';
import type { IssuePushDeps } from '../../server/issues/deps.js';
import { pushIssues } from '../../server/issues/push.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { FakeDefectDojo, type FakeFinding } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts, type FakeIssue } from '../support/fake-github-alerts.js';
import { FAST_RETRY } from './support.js';

const RETRY = { ...DEFAULT_RETRY, ...FAST_RETRY, retries: 0 };
const PRODUCT = 'acme/api';

function fpf(ids: readonly string[]): Uint8Array {
  return Buffer.from(
    JSON.stringify({
      version: '1.2',
      findings: ids.map((id) => ({
        component: { uuid: `c-${id}`, name: 'lodash', version: '4.17.20' },
        vulnerability: { uuid: `v-${id}`, vulnId: id, source: 'NVD', severity: 'HIGH' },
        analysis: { isSuppressed: false },
        matrix: `p:c-${id}:v-${id}`,
      })),
    }),
  );
}

describe('issue lifecycle (issues follow their DefectDojo findings)', () => {
  let dd: FakeDefectDojo;
  let gh: FakeGitHubAlerts;
  let defectDojo: DefectDojoClient;
  let targets: GithubTarget[];
  /** One clock for both fakes and the pacer: DefectDojo's status times and GitHub's closed_at compare on it. */
  let now: number;
  let sleeps: number[];
  let pacers: PacerRegistry;
  let logs: { level: string; obj: unknown; msg: string }[];

  const advance = (ms = 60_000) => void (now += ms);

  async function reimport(ids: readonly string[]): Promise<void> {
    await defectDojo.reimport({ scanType: SCAN_TYPES.dependencyTrack, productName: PRODUCT, engagementName: 'Dependency-Track', testTitle: '1.0', filename: 'f.json', content: fpf(ids) });
  }

  function deps(overrides: Partial<IssuePushDeps> = {}): IssuePushDeps {
    return {
      defectDojo,
      defectDojoUrl: dd.url,
      targets,
      clientFor: (target) => rateLimitedClient(target, { timeoutMs: 5000, retry: RETRY }),
      pacersFor: (target) => pacers.for(target),
      locks: memoryLocks(),
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

  const findingOf = (id: string): FakeFinding => dd.findings().find((f) => f.finding.vulnerabilityIds?.includes(id))!.finding;
  const issueOf = (id: string): FakeIssue => gh.allIssues().find((i) => i.title.includes(id))!;
  const push = async (overrides: Partial<IssuePushDeps> = {}) => {
    const report = await pushIssues([PRODUCT], deps(overrides));
    advance();
    return report;
  };

  beforeEach(async () => {
    now = Date.parse('2026-11-20T10:00:00Z');
    dd = await FakeDefectDojo.start();
    gh = await FakeGitHubAlerts.start({ token: 'ghp_publicToken0123456789abcdefABCDEFGH' });
    dd.now = () => now;
    gh.now = () => now;
    defectDojo = new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'R&D', timeoutMs: 5000, uploadTimeoutMs: 5000 });
    targets = [{ server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token }];
    sleeps = [];
    pacers = new PacerRegistry({
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    logs = [];
    gh.addRepo({ owner: 'acme', name: 'api' });
  });
  afterEach(async () => {
    await Promise.all([dd.close(), gh.close()]);
  });

  it('closes the issue of a finding a reimport closed, as completed with a comment; a second run changes nothing', async () => {
    await reimport(['CVE-2026-0001', 'CVE-2026-0002']);
    assert.equal((await push()).opened, 2);
    advance();
    await reimport(['CVE-2026-0002']);
    assert.equal(findingOf('CVE-2026-0001').isMitigated, true);
    const report = await push();
    assert.deepEqual(report, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 1, reopened: 0, keptClosed: 0, outOfScope: 0 });
    const closed = issueOf('CVE-2026-0001');
    assert.equal(closed.state, 'closed');
    assert.equal(closed.stateReason, 'completed');
    assert.equal(closed.comments?.length, 1);
    assert.match(closed.comments![0]!.body, new RegExp(`^Closed by Gatehouse: \\[DefectDojo finding ${findingOf('CVE-2026-0001').id}\\]\\(${dd.url}/finding/\\d+\\) is mitigated`));
    assert.equal(issueOf('CVE-2026-0002').state, 'open');
    // The comment is written before the state changes.
    const writes = gh.calls.filter((c) => c.route === 'issue_comments' || c.route === 'update_issue').map((c) => c.route);
    assert.deepEqual(writes, ['issue_comments', 'update_issue']);
    const again = await push();
    assert.deepEqual(again, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    assert.equal(closed.comments?.length, 1);
    assert.equal(gh.count('update_issue'), 1);
  });

  for (const [name, change, reason] of [
    ['a false positive', { falseP: true }, /is marked as a false positive/],
    ['out of scope', { outOfScope: true }, /is marked as out of scope/],
    ['a risk accepted', { riskAccepted: true, active: false }, /has its risk accepted/],
    ['a duplicate', { duplicate: true, active: false }, /is marked as a duplicate/],
  ] as const) {
    it(`closes the issue of ${name} as not_planned, saying why`, async () => {
      await reimport(['CVE-2026-0001']);
      await push();
      dd.setStatus(findingOf('CVE-2026-0001').id, change);
      assert.equal(findingOf('CVE-2026-0001').active, false);
      const report = await push();
      assert.equal(report.closed, 1);
      const issue = issueOf('CVE-2026-0001');
      assert.equal(issue.state, 'closed');
      assert.equal(issue.stateReason, 'not_planned');
      assert.match(issue.comments![0]!.body, reason);
    });
  }

  it('reopens the issue with a comment when a reimport re-activates its finding, and only once', async () => {
    await reimport(['CVE-2026-0001']);
    await push();
    await reimport([]);
    await push();
    assert.equal(issueOf('CVE-2026-0001').state, 'closed');
    await reimport(['CVE-2026-0001']);
    assert.equal(findingOf('CVE-2026-0001').active, true);
    const report = await push();
    assert.deepEqual(report, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 1, keptClosed: 0, outOfScope: 0 });
    const issue = issueOf('CVE-2026-0001');
    assert.equal(issue.state, 'open');
    assert.equal(issue.stateReason, 'reopened');
    assert.match(issue.comments!.at(-1)!.body, /^Reopened by Gatehouse: \[DefectDojo finding \d+\]\(.*\) became active again on 2026-/);
    assert.equal((await push()).reopened, 0);
    assert.equal(issue.comments!.length, 2);
  });

  it('an issue closed by hand stays closed while its finding stays active, and is reopened once the finding is re-activated after that', async () => {
    await reimport(['CVE-2026-0001']);
    await push();
    const issue = issueOf('CVE-2026-0001');
    gh.setIssueState(issue, 'closed', 'not_planned');
    advance();
    // Reimports that leave the finding active change nothing.
    await reimport(['CVE-2026-0001']);
    const kept = await push();
    assert.deepEqual(kept, { opened: 0, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 1, outOfScope: 0 });
    assert.equal(issue.state, 'closed');
    assert.equal(issue.comments, undefined);
    // Fixed, then back: the re-activation comes after the hand close.
    await reimport([]);
    assert.equal((await push()).closed, 0, 'a closed issue of an inactive finding is left as it is');
    await reimport(['CVE-2026-0001']);
    const reopened = await push();
    assert.equal(reopened.reopened, 1);
    assert.equal(issue.state, 'open');
  });

  it('decides on the two clocks: DefectDojo status changed after GitHub closed the issue, never before or without times', () => {
    const closedAt = new Date('2026-11-20T10:00:00Z');
    const finding = (active: boolean, at?: string) => ({ id: 1, product: 'p', issueUrls: ['u'], active, ...(at ? { lastStatusUpdate: new Date(at) } : {}) });
    assert.equal(decide(finding(true, '2026-11-20T10:00:00.500Z'), { state: 'closed', closedAt }), 'reopen');
    assert.equal(decide(finding(true, '2026-11-20T10:00:00Z'), { state: 'closed', closedAt }), 'kept');
    assert.equal(decide(finding(true), { state: 'closed', closedAt }), 'kept');
    assert.equal(decide(finding(true, '2026-11-20T10:00:01Z'), { state: 'closed' }), 'kept');
    assert.equal(decide(finding(false, '2026-11-20T10:00:01Z'), { state: 'open' }), 'close');
    assert.equal(decide(finding(false), { state: 'closed', closedAt }), 'none');
    assert.equal(decide(finding(true), { state: 'open' }), 'none');
  });

  it('paces every write like creation and stops at the per-run cap; the rest is closed by the next run', async () => {
    const ids = ['CVE-2026-0001', 'CVE-2026-0002', 'CVE-2026-0003'];
    await reimport(ids);
    await push();
    await reimport([]);
    sleeps.length = 0;
    const capped = await push({ maxIssuesPerRun: 2 });
    assert.equal(capped.closed, 2);
    assert.equal(capped.deferred, 1);
    assert.equal(gh.allIssues().filter((i) => i.state === 'closed').length, 2);
    // Four writes (two comments, two closes), each at least a second after the one before.
    assert.ok(sleeps.filter((ms) => ms >= 999).length >= 3, `sleeps: ${sleeps.join(',')}`);
    const rest = await push({ maxIssuesPerRun: 2 });
    assert.equal(rest.closed, 1);
    assert.equal(gh.allIssues().filter((i) => i.state === 'closed').length, 3);
  });

  it("never writes to an issue outside the product's repository, whatever a finding's tag names: an unlisted owner, another repository of a listed owner, a dot segment", async () => {
    const plant = (owner: string, name: string, number: number, state: 'open' | 'closed'): FakeIssue => {
      const repo = gh.addRepo({ owner, name });
      const issue: FakeIssue = { number, title: `unrelated ${number}`, body: '', labels: [], state, html_url: `${gh.server}/${owner}/${name}/issues/${number}`, indexed: true, createdAt: now, closedAt: state === 'closed' ? now - 3_600_000 : null };
      repo.issues.push(issue);
      return issue;
    };
    const victim7 = plant('victim-org', 'secrets', 7, 'open');
    const victim8 = plant('victim-org', 'secrets-closed', 8, 'closed');
    const sibling3 = plant('acme', 'other', 3, 'open');
    await reimport(['CVE-2026-0001', 'CVE-2026-0002', 'CVE-2026-0003', 'CVE-2026-0004']);
    // Someone who can edit acme/api's findings in DefectDojo tags them (tags are lowercased there).
    findingOf('CVE-2026-0001').tags = [`issue:${gh.server}/victim-org/secrets/issues/7`];
    findingOf('CVE-2026-0002').tags = [`issue:${gh.server}/victim-org/secrets-closed/issues/8`];
    findingOf('CVE-2026-0003').tags = [`issue:${gh.server}/acme/other/issues/3`];
    findingOf('CVE-2026-0004').tags = [`issue:${gh.server}/acme/../issues/9`];
    advance();
    // 1, 3 and 4 are mitigated (their issues would close); 2 stays active (its closed issue would reopen).
    await reimport(['CVE-2026-0002']);
    const report = await push();
    assert.equal(report.outOfScope, 4);
    assert.deepEqual([report.closed, report.reopened, report.failed], [0, 0, 0]);
    assert.deepEqual([victim7.state, victim8.state, sibling3.state], ['open', 'closed', 'open']);
    assert.deepEqual([victim7.comments, victim8.comments, sibling3.comments], [undefined, undefined, undefined]);
    const touched = gh.calls.filter((c) => ['issue', 'issue_comments', 'update_issue'].includes(c.route) || c.path.startsWith('/repos/issues'));
    assert.deepEqual(touched, [], 'no call reads or writes those issues');
    const warned = logs.filter((l) => l.level === 'warn' && /outside its product's repository; skipped/.test(l.msg));
    assert.deepEqual(warned.map((l) => (l.obj as { finding: number }).finding).sort(), ['CVE-2026-0001', 'CVE-2026-0002', 'CVE-2026-0003', 'CVE-2026-0004'].map((id) => findingOf(id).id).sort());
    assert.ok(!JSON.stringify(warned).includes('victim-org'), 'the warning names the finding, not the tag');
  });

  it("follows the product's own issues in the case DefectDojo stores their tags", async () => {
    await reimport(['CVE-2026-0001']);
    await push();
    const issue = issueOf('CVE-2026-0001');
    // DefectDojo lowercases tags, GitHub compares names without case.
    findingOf('CVE-2026-0001').tags = [`issue:${gh.server}/ACME/API/issues/${issue.number}`.toLowerCase()];
    await reimport([]);
    assert.equal((await push()).closed, 1);
    assert.equal(issue.state, 'closed');
  });

  for (const [lost, fault, timeoutMs] of [
    ['answered 502 by a proxy', { status: 502, body: { message: 'Server Error' } }, 5000],
    ['whose connection dropped', 'reset', 5000],
    ['never answered (the call times out)', 'hang', 400],
  ] as const) {
    it(`a closing comment GitHub wrote but ${lost}: exactly one comment, and the issue is closed in the same run`, async () => {
      await reimport(['CVE-2026-0001']);
      await push();
      await reimport([]);
      gh.afterWriting.inject('issue_comments', fault);
      const report = await push({ clientFor: (target) => rateLimitedClient(target, { timeoutMs, retry: { ...RETRY, retries: 3 } }) });
      assert.deepEqual([report.closed, report.failed], [1, 0]);
      const issue = issueOf('CVE-2026-0001');
      assert.equal(issue.comments?.length, 1, issue.comments?.map((c) => c.body).join(' | '));
      assert.equal(issue.state, 'closed');
      assert.equal(gh.calls.filter((c) => c.route === 'issue_comments' && c.method === 'POST').length, 1, 'the comment was not posted again');
    });
  }

  it('a failed close is counted, logged and done by the next run; an issue on no configured server is left alone', async () => {
    await reimport(['CVE-2026-0001', 'CVE-2026-0002']);
    await push();
    // A finding of this product linked to an issue elsewhere.
    const other = findingOf('CVE-2026-0002');
    other.tags = ['issue:https://elsewhere.example/acme/api/issues/9'];
    await reimport([]);
    gh.faults.inject('update_issue', { status: 502, body: { message: 'Server Error' } });
    const failed = await push();
    assert.equal(failed.failed, 1);
    assert.equal(failed.closed, 0);
    assert.ok(logs.some((l) => l.level === 'warn' && /issue not closed/.test(l.msg)));
    const retried = await push();
    assert.equal(retried.closed, 1);
    assert.equal(retried.failed, 0);
    assert.equal(issueOf('CVE-2026-0001').state, 'closed');
    assert.equal(issueOf('CVE-2026-0002').state, 'open', 'the issue of the other tag was not touched');
  });
});
