import assert from 'node:assert/strict';
import { READINESS_PROBE } from '../../server/http/call-bounds.js';
import { createLogger } from '../../server/logger.js';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { productKey } from '../../server/issues/push-locks.js';
import { memoryLocks, type SourceLocks } from '../../server/sync/service/locks.js';
import { assemble, checkServiceConfig, listenSyncApp, type Assembled } from '../../server/sync/service/start.js';
import { systemClock } from '../../server/clock.js';
import type { FakeDefectDojo } from '../support/fake-defectdojo.js';
import type { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { REPO_ROOT, runToEnd, startEntry } from '../support/processes.js';
import { closedPort } from '../support/servers.js';
import { configFile, FAST_RETRY, sample, startSyncFakes, type SyncFakes } from './support.js';

const TRIGGER = 'sync-trigger-token-0123456789abcdef';


describe('sync service over HTTP', () => {
  let fakes: SyncFakes;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;
  let assembled: Assembled;
  let base: string;
  let close: () => Promise<void>;
  let locks: SourceLocks;

  async function start(extra: Record<string, string> = {}, triggerToken: string | null = TRIGGER): Promise<void> {
    const config = checkServiceConfig(() => loadSyncConfig({ env: { ...env, ...extra } }));
    assembled = assemble({
      config,
      options: { ...DEFAULT_OPTIONS, retries: 0 },
      locks: (locks = memoryLocks()),
      logger: createLogger({ level: 'silent' }),
      timers: systemClock,
      pacerClock: { now: () => Date.now(), sleep: async () => undefined },
      version: '9.9.9',
      retry: FAST_RETRY,
      ...(triggerToken ? { triggerToken } : {}),
    });
    const listening = await listenSyncApp(assembled, { logger: createLogger({ level: 'silent' }), version: '9.9.9', ...(triggerToken ? { triggerToken } : {}) }, 0, '127.0.0.1');
    base = `http://127.0.0.1:${listening.port}`;
    close = () => new Promise((resolve) => listening.server.close(() => resolve()));
  }

  const auth = { authorization: `Bearer ${TRIGGER}` };

  beforeEach(async () => {
    fakes = await startSyncFakes(3, 4);
    ({ dd } = fakes);
    env = { ...fakes.env, SYNC_GITHUB_ENABLED: 'false' };
  });
  afterEach(async () => {
    await close?.();
    await assembled?.service?.stop(5000);
    await fakes.close();
  });

  it('POST /sync/{source}: 202 with a run id, 409 while it runs, 404 for a source that is not enabled; metrics follow the run', async () => {
    await start();
    dd.delayMs = 150;
    const first = await fetch(`${base}/sync/dependencytrack`, { method: 'POST', headers: auth });
    assert.equal(first.status, 202);
    const body = (await first.json()) as { accepted: boolean; run_id: string };
    assert.equal(body.accepted, true);
    assert.match(body.run_id, /^[0-9a-f-]{36}$/);
    const again = await fetch(`${base}/sync/dependencytrack`, { method: 'POST', headers: auth });
    assert.equal(again.status, 409);
    assert.deepEqual(await again.json(), { error: 'run_in_progress' });
    for (const source of ['github', 'nosuch', '..%2F..']) {
      const unknown = await fetch(`${base}/sync/${source}`, { method: 'POST', headers: auth });
      assert.equal(unknown.status, 404, source);
      assert.deepEqual(await unknown.json(), { error: 'unknown_source' });
    }
    assert.equal((await fetch(`${base}/sync/dependencytrack`, { headers: auth })).status, 405);
    while (assembled.service!.inProgress > 0) await new Promise((r) => setTimeout(r, 20));
    const metrics = await fetch(`${base}/metrics`, { headers: auth });
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    assert.equal(sample(text, 'gatehouse_sync_findings_total{source="dependencytrack"}'), 12);
    // DefectDojo's own statistics of the reimports: a first sync creates every finding.
    assert.equal(sample(text, 'gatehouse_sync_finding_changes_total{source="dependencytrack",change="created"}'), 12);
    assert.equal(sample(text, 'gatehouse_sync_finding_changes_total{source="dependencytrack",change="closed"}'), 0);
    assert.ok(sample(text, 'gatehouse_last_success_timestamp{source="dependencytrack"}')! > Date.now() / 1000 - 60);
    assert.equal(sample(text, 'gatehouse_errors_total'), 0);
    assert.equal(sample(text, 'gatehouse_issues_total'), 0);
    assert.match(text, /^process_cpu_user_seconds_total /m, 'default process metrics');
    assert.equal(dd.uploads.length, 3);
  });

  it('a run is followed by issue push when GITHUB_TARGETS is set, and gatehouse_issues_total counts the issues', async () => {
    const gh = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    try {
      for (let i = 0; i < 3; i++) gh.addRepo({ owner: 'acme', name: `service-${String(i).padStart(3, '0')}` });
      await start({ GITHUB_TARGETS: JSON.stringify([{ server: gh.server, owners: ['acme'], token: gh.token }]) });
      assert.equal(assembled.issuePush, true);
      const answer = await assembled.service!.start('dependencytrack', 'trigger');
      assert.ok(answer.outcome === 'started');
      const result = await answer.finished;
      assert.equal(result.ok, true);
      // Four findings per project, one each of Critical, High, Medium and Low: two issues per project.
      assert.deepEqual(result.issues, { opened: 6, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
      assert.equal(gh.allIssues().length, 6);
      const text = await (await fetch(`${base}/metrics`, { headers: auth })).text();
      assert.equal(sample(text, 'gatehouse_issues_total'), 6);
    } finally {
      await gh.close();
    }
  });

  it("a run's issue push waits while another push (another source's run) holds one of its products, in the service's own locks", async () => {
    const gh = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    try {
      for (let i = 0; i < 3; i++) gh.addRepo({ owner: 'acme', name: `service-${String(i).padStart(3, '0')}` });
      await start({ GITHUB_TARGETS: JSON.stringify([{ server: gh.server, owners: ['acme'], token: gh.token }]) });
      const other = (await locks.acquire(productKey('acme/service-001'), 'a push of another source'))!;
      const answer = await assembled.service!.start('dependencytrack', 'trigger');
      assert.ok(answer.outcome === 'started');
      // The run's reimports finish; its push cannot list any finding while the product is held.
      while (dd.uploads.length < 3) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(gh.count('create_issue'), 0);
      assert.equal(dd.count('findings'), 0);
      await other.release();
      const result = await answer.finished;
      assert.deepEqual(result.issues, { opened: 6, relinked: 0, failed: 0, deferred: 0, unresolved: 0, closed: 0, reopened: 0, keptClosed: 0, outOfScope: 0 });
    } finally {
      await gh.close();
    }
  });

  it('the trigger and /metrics need the bearer when SYNC_TRIGGER_TOKEN is set; the probes never do', async () => {
    await start();
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TRIGGER}` }, { authorization: 'Bearer ' }]) {
      const trigger = await fetch(`${base}/sync/dependencytrack`, { method: 'POST', headers });
      assert.equal(trigger.status, 401);
      assert.equal(trigger.headers.get('www-authenticate'), 'Bearer');
      assert.deepEqual(await trigger.json(), { error: 'unauthorized' });
      assert.equal((await fetch(`${base}/metrics`, { headers })).status, 401);
    }
    assert.equal(dd.uploads.length, 0);
    const health = await fetch(`${base}/healthz`);
    assert.deepEqual([health.status, await health.json()], [200, { status: 'ok', service: 'gatehouse-sync', version: '9.9.9' }]);
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
  });

  for (const fault of ['hang', 'stall-body'] as const) {
    it(`/readyz: a DefectDojo that ${fault === 'hang' ? 'never answers' : 'stalls its body'} is 503 defectdojo_unreachable within the probe's 5 s bound`, async () => {
      await start();
      dd.faults.inject('products', fault);
      const started = Date.now();
      const down = await fetch(`${base}/readyz`);
      assert.deepEqual([down.status, await down.json()], [503, { error: 'not_ready', reason: 'defectdojo_unreachable' }]);
      const ms = Date.now() - started;
      assert.ok(ms >= READINESS_PROBE.totalMs - 100 && ms < READINESS_PROBE.totalMs + 1500, `answered after ${ms} ms`);
    }).timeout(15_000);
  }

  it('/readyz: 503 while DefectDojo does not answer (remembered, not asked again at once), 200 once a run reached it; 503 with the problems for an invalid configuration', async () => {
    await start();
    dd.faults.inject('products', { status: 502, body: { detail: 'Bad gateway' } });
    const down = await fetch(`${base}/readyz`);
    assert.deepEqual([down.status, await down.json()], [503, { error: 'not_ready', reason: 'defectdojo_unreachable' }]);
    const remembered = await fetch(`${base}/readyz`);
    assert.deepEqual([remembered.status, dd.count('products')], [503, 1]);
    const run = await assembled.service!.start('dependencytrack', 'trigger');
    assert.equal(run.outcome === 'started' && (await run.finished).ok, true);
    const up = await fetch(`${base}/readyz`);
    assert.deepEqual([up.status, await up.json()], [200, { status: 'ready' }]);
    await close();
    await start({ SYNC_DEFECTDOJO_URL: '', DEFECTDOJO_TOKEN: '' }, null);
    const invalid = await fetch(`${base}/readyz`);
    assert.equal(invalid.status, 503);
    const body = (await invalid.json()) as { error: string; reason: string; problems: string[] };
    assert.equal(body.reason, 'configuration_invalid');
    assert.deepEqual(body.problems, ['defectdojo.url is required (or SYNC_DEFECTDOJO_URL)', 'DEFECTDOJO_TOKEN is required (an API v2 token of the DefectDojo service user)']);
    const trigger = await fetch(`${base}/sync/dependencytrack`, { method: 'POST' });
    assert.deepEqual([trigger.status, await trigger.json()], [503, { error: 'configuration_invalid' }]);
    assert.equal((await fetch(`${base}/metrics`)).status, 200, 'no token configured: open');
  });
});

describe('gatehouse-sync serve as a process', () => {
  let fakes: SyncFakes;
  let dt: FakeDependencyTrack;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    fakes = await startSyncFakes(2, 2);
    ({ dt, dd } = fakes);
    env = {
      SYNC_CONFIG: configFile(`schedule:\n  dependencytrack: "0 0 1 1 *"\nsources:\n  dependencytrack: { url: "${dt.url}" }\n  github: { enabled: false }\ndefectdojo: { url: "${dd.url}" }\n`),
      DEPENDENCY_TRACK_API_KEY: dt.apiKey,
      DEFECTDOJO_TOKEN: dd.token,
      SYNC_TRIGGER_TOKEN: TRIGGER,
    };
  });
  afterEach(() => fakes.close());

  it('npm run start:sync’s entry serves, and SIGTERM lets the running sync finish before it exits 0', async () => {
    const started = await startEntry('server/sync/main.ts', env, 'gatehouse-sync listening');
    try {
      assert.equal((await fetch(`${started.url}/healthz`)).status, 200);
      dd.delayMs = 400;
      const trigger = await fetch(`${started.url}/sync/dependencytrack`, { method: 'POST', headers: { authorization: `Bearer ${TRIGGER}` } });
      assert.equal(trigger.status, 202);
      await new Promise((r) => setTimeout(r, 100));
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0, started.output());
      assert.equal(dd.uploads.length, 2, 'the run finished during the grace period');
      const log = started.output();
      assert.match(log, /"msg":"shutting down: no new runs; running ones may finish"/);
      assert.match(log, /"msg":"run finished"/);
      assert.ok(!log.includes(dd.token) && !log.includes(dt.apiKey) && !log.includes(TRIGGER), 'no secret in the log');
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('mode cronjob runs every enabled source once and exits 0; 1 when one failed; 2 for an invalid configuration', async () => {
    const run = (extra: Record<string, string>) =>
      runToEnd(process.execPath, ['--import', 'tsx', 'server/sync/main.ts'], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env, SYNC_MODE: 'cronjob', ...extra } });
    const ok = await run({});
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(dd.uploads.length, 2);
    // The exports are unchanged, so nothing is sent again: the failure is the export's.
    dt.faults.inject('export', { status: 400, body: { message: 'bad request' } }, 1);
    const failed = await run({});
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    const invalid = await run({ DEFECTDOJO_TOKEN: '' });
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /invalid configuration:\n {2}- DEFECTDOJO_TOKEN is required/);
  });

  const FAKE_PASSWORD = 'Fake-Locks-Pa55word-8820';
  const runServe = (extra: Record<string, string>) =>
    runToEnd(process.execPath, ['--import', 'tsx', 'server/sync/main.ts'], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env, ...extra } });

  it('an unusable process setting stops it in mode deployment too: every problem at once (the configuration’s as well), exit 2, no stack trace, no secret', async () => {
    const result = await runServe({
      PORT: '99999',
      HOST: '0.0.0.0:8080',
      LOG_LEVEL: 'chatty',
      SYNC_SHUTDOWN_GRACE_SECONDS: 'soon',
      // `@` typed for `:`: the driver reads the password as a host and quotes it in its message.
      MONGODB_URI: `mongodb://sync@${FAKE_PASSWORD}:270170/gatehouse`,
      SYNC_DEFECTDOJO_URL: 'ftp://defectdojo.example.com',
    });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 2, output);
    assert.equal(
      result.stderr.trim(),
      [
        'gatehouse-sync: invalid configuration:',
        '  - PORT must be a port number (0-65535)',
        '  - HOST must be an IP address or a host name (no scheme, port or brackets)',
        '  - LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent',
        '  - SYNC_SHUTDOWN_GRACE_SECONDS must be a whole number from 0 to 86400',
        '  - MONGODB_URI is not a connection string the MongoDB driver accepts: Unable to parse [redacted] with URL',
        '  - defectdojo.url (from SYNC_DEFECTDOJO_URL) must be an http(s) URL',
      ].join('\n'),
    );
    assert.equal(result.stdout, '', 'nothing started');
    assert.ok(!output.includes('    at '), 'a stack trace was printed');
    assert.ok(!output.includes(FAKE_PASSWORD) && !output.includes(dd.token) && !output.includes(dt.apiKey), 'a secret was printed');
  });

  it('a MongoDB that cannot be reached is not a start-up problem: it listens with MongoDB locks, LOG_LEVEL in any case, and never prints the password', async () => {
    const started = await startEntry(
      'server/sync/main.ts',
      { ...env, LOG_LEVEL: 'INFO', MONGODB_URI: `mongodb://sync:${FAKE_PASSWORD}@127.0.0.1:${await closedPort()}/gatehouse?serverSelectionTimeoutMS=200` },
      'gatehouse-sync listening',
    );
    try {
      assert.match(started.output(), /"locks":"mongodb"/);
      assert.equal((await fetch(`${started.url}/healthz`)).status, 200);
      started.child.kill('SIGTERM');
      assert.equal(await started.exited, 0, started.output());
      assert.ok(!started.output().includes(FAKE_PASSWORD));
    } finally {
      started.child.kill('SIGKILL');
    }
  });
});
