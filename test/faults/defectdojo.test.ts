import assert from 'node:assert/strict';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import type { SourceReport } from '../../server/sync/report.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { runSync, startSyncFakes, type SyncFakes } from '../sync/support.js';
import { timed } from './support.js';

/**
 * The shipped retry policy (at most 4 retries, a Retry-After over 2 minutes not waited for) with
 * back-off delays shortened so the suite stays fast: only the delays differ from production.
 */
const POLICY = { ...DEFAULT_RETRY, minDelayMs: 5, maxDelayMs: 20 };

async function run(argv: string[], env: Record<string, string>): Promise<{ code: number; report: SourceReport; all: string }> {
  const { code, report, all } = await runSync([...argv, '--json'], env, POLICY);
  assert.ok(report, `no summary:\n${all}`);
  return { code, report, all };
}

const THROTTLED = (retryAfter: string) => ({
  status: 429,
  body: { detail: 'Request was throttled. Expected available in 200 seconds.' },
  headers: { 'retry-after': retryAfter },
});

describe('faults: DefectDojo answering 5xx or 429 during sync', () => {
  let fakes: SyncFakes;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    fakes = await startSyncFakes(3, 2);
    ({ dd, env } = fakes);
  });
  afterEach(() => fakes.close());

  it('429 on every attempt: retried exactly --retries times, then that project fails (exit 1) and the others sync', async () => {
    dd.faults.inject('reimport', THROTTLED('0'), 3);
    const { code, report } = await run(['sync', '--concurrency', '1', '--retries', '2'], env);
    assert.equal(code, 1);
    const failed = report.items.filter((i) => i.status === 'failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.attempts, 3);
    assert.match(failed[0]!.reason!, /^DefectDojo reimport-scan of acme\/service-000 answered 429: Request was throttled/);
    assert.equal(report.items.filter((i) => i.status === 'synced').length, 2);
    assert.equal(dd.count('reimport'), 3 + 2, 'three attempts for the throttled project, one each for the others');
  });

  it('5xx on every attempt with the default budget: five attempts in all, then exit 1; a re-run once DefectDojo is back syncs everything', async () => {
    dd.faults.inject('reimport', { status: 503, body: { detail: 'Service Unavailable' } }, 5);
    const first = await run(['sync', '--concurrency', '1'], env);
    assert.equal(first.code, 1);
    assert.deepEqual(
      first.report.items.map((i) => [i.status, i.attempts]),
      [
        ['failed', 5],
        ['synced', 1],
        ['synced', 1],
      ],
    );
    assert.equal(dd.count('reimport'), 5 + 2);

    // The service keeps no state of its own: re-running is the recovery.
    const again = await run(['sync', '--concurrency', '1'], env);
    assert.equal(again.code, 0, again.all);
    assert.equal(dd.products.size, 3);
  });

  for (const [what, retryAfter] of [
    ['in seconds', '121'],
    ['as an HTTP date', () => new Date(Date.now() + 200_000).toUTCString()],
  ] as const) {
    it(`a Retry-After beyond the 2-minute cap (${what}) is not waited for: the project fails at once`, async () => {
      dd.faults.inject('reimport', THROTTLED(typeof retryAfter === 'string' ? retryAfter : retryAfter()));
      const { value, ms } = await timed(() => run(['sync', '--concurrency', '1'], env));
      assert.equal(value.code, 1);
      const failed = value.report.items.filter((i) => i.status === 'failed');
      assert.deepEqual(
        failed.map((i) => i.attempts),
        [1],
      );
      assert.match(failed[0]!.reason!, /answered 429/);
      assert.ok(ms < 5000, `took ${Math.round(ms)} ms: it waited`);
    });
  }

  it('a 503 carrying Retry-After is waited out like a 429, then the project syncs', async () => {
    dd.faults.inject('reimport', { status: 503, body: { detail: 'Service Unavailable' }, headers: { 'retry-after': '1' } });
    const { value, ms } = await timed(() => run(['sync', '--concurrency', '1'], env));
    assert.equal(value.code, 0, value.all);
    assert.ok(ms >= 1000, `retried after ${Math.round(ms)} ms, before the Retry-After`);
    assert.deepEqual(
      value.report.items.map((i) => i.attempts),
      [2, 1, 1],
    );
  });
});

describe('faults: DefectDojo answering 5xx or 429 during sync-github', () => {
  let github: FakeGitHubAlerts;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    dd = await FakeDefectDojo.start();
    github.orgs.add('acme');
    github.addRepo({
      owner: 'acme',
      name: 'api',
      codeScanning: [{ number: 1, state: 'open', rule: { id: 'js/xss', description: 'Cross-site scripting', severity: 'error', security_severity_level: 'high' } }],
      dependabot: 'disabled',
      secretScanning: 'disabled',
    });
    env = {
      SYNC_DEFECTDOJO_URL: dd.url,
      DEFECTDOJO_TOKEN: dd.token,
      GITHUB_TARGETS: JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]),
    };
  });
  afterEach(async () => {
    await github.close();
    await dd.close();
  });

  it('a 429 then a 502 are retried and the alerts land; a DefectDojo that stays down fails the list after its retry budget', async () => {
    dd.faults.inject('reimport', THROTTLED('0'));
    dd.faults.inject('reimport', { status: 502, body: { detail: 'Bad Gateway' } });
    const recovered = await run(['sync-github', '--retries', '2'], env);
    assert.equal(recovered.code, 0, recovered.all);
    const synced = recovered.report.items.filter((i) => i.status === 'synced');
    assert.deepEqual(
      synced.map((i) => i.attempts),
      [3],
    );
    assert.ok(dd.testOf('acme/api', 'Github SAST Scan'), 'the code-scanning alerts reached DefectDojo');

    const reimportsBefore = dd.count('reimport');
    // The same alerts again would not be sent (their digest is on the test): forget it, as after someone else's import.
    for (const test of dd.tests) test.buildId = '';
    dd.faults.inject('reimport', { status: 500, body: { message: 'Internal server error' } }, 10);
    const down = await run(['sync-github', '--retries', '2'], env);
    assert.equal(down.code, 1);
    const failed = down.report.items.filter((i) => i.status === 'failed');
    assert.deepEqual(
      failed.map((i) => i.attempts),
      [3],
    );
    assert.match(failed[0]!.reason!, /answered 500/);
    assert.equal(dd.count('reimport') - reimportsBefore, 3, 'bounded: no attempt beyond the budget');
  });
});
