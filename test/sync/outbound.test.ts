import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createLogger } from '../../server/logger.js';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { DefectDojoClient } from '../../server/sync/defectdojo/client.js';
import { SCAN_TYPES } from '../../server/sync/defectdojo/scan-types.js';
import { rateLimitedClient } from '../../server/github/rate-limited-client.js';
import { GITHUB_API_VERSION as API_VERSION } from '../../server/github/api.js';
import type { GithubTarget } from '../../server/github/targets.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { TransportError } from '../../server/http/call-errors.js';
import { Pacer } from '../../server/issues/pacer.js';
import { pushIssues } from '../../server/issues/push.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { assemble, checkServiceConfig } from '../../server/sync/service/start.js';
import { eventually, timed } from '../faults/support.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { FakeSonarQube } from '../support/fake-sonarqube.js';
import { FakeTimers } from '../support/fake-timers.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { listen, readBody } from '../support/servers.js';
import { stallingPeer, STALLS, type Stall, type StallingPeer } from '../support/stalling.js';
import { FAST_RETRY, runSync, startSyncFakes, type SyncFakes } from './support.js';

/**
 * Every call of the sync is bounded by `--timeout` (API calls) or `--upload-timeout` (exports and
 * reimports), body included, with retries that stop (docs/outbound-calls.md). A peer that accepts
 * the connection and never answers, or sends headers and stalls the body, ends as a failed item
 * named in the summary, within the bound and a small margin.
 */
const SLACK_MS = 2000;
const within = (ms: number, bound: number) => assert.ok(ms < bound + SLACK_MS, `ended after ${Math.round(ms)} ms (bound ${bound} ms)`);
const RETRY = { ...DEFAULT_RETRY, ...FAST_RETRY, retries: 0 };
/** The fault kinds of the fakes that match the stalling peer's. */
const FAULT: Record<Stall, 'hang' | 'stall-body'> = { silent: 'hang', 'stall-body': 'stall-body' };

function target(peer: { url: string }, owners = ['acme']): GithubTarget {
  return { server: peer.url, apiBase: peer.url, kind: 'enterprise', owners, token: 'ghp_stallTestToken0123456789abcdefABCDEF' };
}

describe('faults: the sync GitHub client is bounded in time, and what its hooks add reaches the request', () => {
  let peer: StallingPeer;
  afterEach(() => peer?.close());

  for (const stall of STALLS) {
    it(`a GitHub that ${stall === 'silent' ? 'never answers' : 'stalls its body'}: the call fails with the bound named, within it`, async () => {
      peer = await stallingPeer(stall);
      const client = rateLimitedClient(target(peer), { timeoutMs: 500, retry: RETRY });
      const { value: err, ms } = await timed(() => client.request('GET /user').then(() => undefined, (e: unknown) => e));
      assert.ok(err instanceof TransportError, String(err));
      assert.match(err.message, /^GitHub GET \/user failed: no complete answer within 0\.5 s$/);
      within(ms, 500);
    });
  }

  it('retries are bounded calls too: --retries 2 against a stalling GitHub is three bounded attempts', async () => {
    peer = await stallingPeer('stall-body');
    const client = rateLimitedClient(target(peer), { timeoutMs: 400, retry: { ...RETRY, retries: 2 } });
    const { value: err, ms } = await timed(() => client.request('GET /user').then(() => undefined, (e: unknown) => e));
    assert.ok(err instanceof TransportError);
    assert.equal(peer.requests, 3);
    within(ms, 3 * 400 + 2 * FAST_RETRY.maxDelayMs);
  });

  it('every call sends X-GitHub-Api-Version, and a header set by a hook around the client reaches the request', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    const server = await listen(async (req, res) => {
      seen.push(req.headers);
      await readBody(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ login: 'octocat' }));
    });
    try {
      const client = rateLimitedClient(target(server), { timeoutMs: 2000, retry: RETRY });
      // What a conditional-request layer does: set If-None-Match on the options it is handed.
      client.hook.wrap('request', (request, options) => {
        options.headers['if-none-match'] = '"etag-of-the-last-page"';
        return request(options);
      });
      await client.request('GET /user');
      assert.equal(seen[0]!['x-github-api-version'], API_VERSION);
      assert.equal(seen[0]!['if-none-match'], '"etag-of-the-last-page"');
    } finally {
      await server.close();
    }
  });
});

describe('faults: gatehouse-sync against services that stall', () => {
  for (const stall of STALLS) {
    it(`sync-github --timeout 1 --retries 0, the command-line bundle against a GitHub that ${stall === 'silent' ? 'never answers' : 'stalls its body'}: exit 1 within the bound, the owner named`, async () => {
      const peer = await stallingPeer(stall);
      const dd = await FakeDefectDojo.start();
      try {
        const env = {
          PATH: process.env.PATH ?? '',
          SYNC_DEFECTDOJO_URL: dd.url,
          DEFECTDOJO_TOKEN: dd.token,
          GITHUB_TARGETS: JSON.stringify([{ server: peer.url, owners: ['acme'], token: 'ghp_stallTestToken0123456789abcdefABCDEF' }]),
        };
        const cli = join(REPO_ROOT, 'dist', 'sync', 'cli', 'index.js');
        const { value: run, ms } = await timed(() => runToEnd(process.execPath, [cli, 'sync-github', '--timeout', '1', '--retries', '0'], { env, timeoutMs: 15_000 }));
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stdout + run.stderr, /acme \(repository list\).*no complete answer within 1 s/);
        within(ms, 1000);
      } finally {
        await dd.close();
        await peer.close();
      }
    });
  }

  describe('sync-github: one alert list stalls', () => {
    let github: FakeGitHubAlerts;
    let dd: FakeDefectDojo;
    beforeEach(async () => {
      github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
      dd = await FakeDefectDojo.start();
      github.orgs.add('acme');
      github.addRepo({ owner: 'acme', name: 'api' });
      github.addRepo({ owner: 'acme', name: 'web' });
    });
    afterEach(async () => {
      await github.close();
      await dd.close();
    });

    for (const stall of STALLS) {
      it(`code scanning ${stall}: that list fails with its repository named; the rest syncs`, async () => {
        github.faults.inject('code_scanning', FAULT[stall]);
        const env = { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: github.server, owners: ['acme'], token: github.token }]) };
        const { value: run, ms } = await timed(() => runSync(['sync-github', '--json', '--timeout', '1', '--retries', '0', '--concurrency', '2'], env));
        assert.equal(run.code, 1, run.all);
        const failed = run.report!.items.filter((i) => i.status === 'failed');
        assert.equal(failed.length, 1);
        assert.match(failed[0]!.label, /^acme\/(api|web) code-scanning$/);
        assert.match(failed[0]!.reason!, /no complete answer within 1 s/);
        within(ms, 1000);
      });
    }
  });

  describe('sync (Dependency-Track -> DefectDojo)', () => {
    let fakes: SyncFakes;
    beforeEach(async () => {
      fakes = await startSyncFakes(3, 2);
    });
    afterEach(() => fakes.close());

    for (const stall of STALLS) {
      it(`the project list ${stall}: the run fails naming the call, within --timeout`, async () => {
        fakes.dt.faults.inject('projects', FAULT[stall]);
        const { value: run, ms } = await timed(() => runSync(['sync', '--json', '--timeout', '1', '--retries', '0'], fakes.env));
        assert.equal(run.code, 1);
        assert.match(run.all, /Dependency-Track project list \(page 1\) failed: no complete answer within 1 s/);
        assert.equal(fakes.dd.uploads.length, 0, 'nothing reimported from a list it could not read');
        within(ms, 1000);
      });

      it(`an export ${stall}: that project fails, named, within --upload-timeout; the others sync`, async () => {
        fakes.dt.faults.inject('export', FAULT[stall]);
        const { value: run, ms } = await timed(() => runSync(['sync', '--json', '--concurrency', '1', '--retries', '0', '--upload-timeout', '1'], fakes.env));
        assert.equal(run.code, 1);
        const failed = run.report!.items.filter((i) => i.status === 'failed');
        assert.equal(failed.length, 1);
        assert.match(failed[0]!.reason!, /^Dependency-Track FPF export of acme\/service-\d{3} failed: no complete answer within 1 s/);
        assert.equal(fakes.dd.uploads.length, 2);
        within(ms, 1000);
      });

      it(`DefectDojo's reimport ${stall}: that project fails, named, within --upload-timeout`, async () => {
        fakes.dd.faults.inject('reimport', FAULT[stall]);
        const { value: run, ms } = await timed(() => runSync(['sync', '--json', '--concurrency', '1', '--retries', '0', '--upload-timeout', '1'], fakes.env));
        assert.equal(run.code, 1);
        const failed = run.report!.items.filter((i) => i.status === 'failed');
        assert.equal(failed.length, 1);
        assert.match(failed[0]!.reason!, /DefectDojo reimport-scan of acme\/service-\d{3} failed: no complete answer within 1 s/);
        within(ms, 1000);
      });
    }
  });

  for (const stall of STALLS) {
    it(`sync-sonarqube: the issue search ${stall} → that project fails, named, within --timeout`, async () => {
      const sonar = await FakeSonarQube.start();
      const dd = await FakeDefectDojo.start();
      try {
        sonar.addProject('acme_api', 'acme/api');
        sonar.addProject('acme_web', 'acme/web');
        sonar.faults.inject('issues', FAULT[stall]);
        const env = { SYNC_SONARQUBE_ENABLED: 'true', SYNC_SONARQUBE_URL: sonar.url, SYNC_DEFECTDOJO_URL: dd.url, SONARQUBE_TOKEN: sonar.token, DEFECTDOJO_TOKEN: dd.token };
        const { value: run, ms } = await timed(() => runSync(['sync-sonarqube', '--json', '--timeout', '1', '--retries', '0', '--concurrency', '1'], env));
        assert.equal(run.code, 1);
        const failed = run.report!.items.filter((i) => i.status === 'failed');
        assert.equal(failed.length, 1);
        assert.match(failed[0]!.reason!, /SonarQube .* failed: no complete answer within 1 s/);
        within(ms, 1000);
      } finally {
        await sonar.close();
        await dd.close();
      }
    });
  }

  describe('issue push', () => {
    let dd: FakeDefectDojo;
    let gh: FakeGitHubAlerts;
    let defectDojo: DefectDojoClient;
    beforeEach(async () => {
      dd = await FakeDefectDojo.start();
      gh = await FakeGitHubAlerts.start();
      gh.addRepo({ owner: 'acme', name: 'api' });
      defectDojo = new DefectDojoClient({ url: dd.url, token: dd.token, productType: 'R&D', timeoutMs: 1000, uploadTimeoutMs: 1000 });
      const fpf = { version: '1.2', findings: ['A', 'B'].map((id) => ({ component: { uuid: `c-${id}`, name: 'lodash', version: '4.17.20' }, vulnerability: { uuid: `v-${id}`, vulnId: `CVE-${id}`, source: 'NVD', severity: 'CRITICAL' }, analysis: { isSuppressed: false }, matrix: `p:c-${id}:v-${id}` })) };
      await defectDojo.reimport({ scanType: SCAN_TYPES.dependencyTrack, productName: 'acme/api', engagementName: 'Dependency-Track', testTitle: '1.0', filename: 'f.json', content: Buffer.from(JSON.stringify(fpf)) });
    });
    afterEach(async () => {
      await dd.close();
      await gh.close();
    });

    const push = () => {
      const targets: GithubTarget[] = [{ server: gh.server, apiBase: gh.server, kind: 'public', owners: ['acme'], token: gh.token }];
      const pacers = { create: new Pacer({ now: Date.now, sleep: async () => undefined }, 0), search: new Pacer({ now: Date.now, sleep: async () => undefined }, 0) };
      return pushIssues(['acme/api'], {
        defectDojo,
        defectDojoUrl: dd.url,
        targets,
        clientFor: (t) => rateLimitedClient(t, { timeoutMs: 1000, retry: RETRY }),
        pacersFor: () => pacers,
        locks: memoryLocks(),
        lockWait: { clock: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }, waitMs: 1000, pollMs: 5 },
        minSeverity: 'High',
        maxIssuesPerRun: 50,
        retry: RETRY,
        log: { info: () => undefined, warn: () => undefined } as never,
      });
    };

    for (const stall of STALLS) {
      it(`creating an issue ${stall}: that finding counts as failed, the next still gets its issue, each call within --timeout`, async () => {
        gh.faults.inject('create_issue', FAULT[stall]);
        const { value: outcome, ms } = await timed(push);
        assert.equal(outcome.failed, 1);
        assert.equal(outcome.opened, 1);
        within(ms, 1000);
      });

      it(`DefectDojo's findings ${stall}: the push fails that product within --timeout and opens nothing`, async () => {
        dd.faults.inject('findings', FAULT[stall]);
        const { value: outcome, ms } = await timed(push);
        assert.equal(outcome.opened, 0);
        assert.ok(outcome.failed >= 1);
        within(ms, 1000);
      });
    }
  });
});

describe('faults: a sync service run cut short by a stalling GitHub', () => {
  it('ends, releases its lock and runs again at the next schedule', async () => {
    const peer = await stallingPeer('silent');
    const dd = await FakeDefectDojo.start();
    const timers = new FakeTimers(new Date('2026-11-23T10:00:00Z'));
    const locks = memoryLocks();
    try {
      const env = {
        SYNC_DEPENDENCYTRACK_ENABLED: 'false',
        SYNC_SCHEDULE_GITHUB: '60',
        SYNC_DEFECTDOJO_URL: dd.url,
        DEFECTDOJO_TOKEN: dd.token,
        SYNC_GITHUB_MAX_ISSUES_PER_RUN: '0',
        GITHUB_TARGETS: JSON.stringify([{ server: peer.url, owners: ['acme'], token: 'ghp_stallTestToken0123456789abcdefABCDEF' }]),
      };
      const assembled = assemble({
        config: checkServiceConfig(() => loadSyncConfig({ env })),
        options: { ...DEFAULT_OPTIONS, timeoutMs: 500, retries: 0 },
        locks,
        logger: createLogger({ level: 'silent' }),
        timers,
        pacerClock: { now: Date.now, sleep: async () => undefined },
        version: 'test',
        retry: FAST_RETRY,
      });
      const service = assembled.service!;
      assembled.schedule();
      for (let round = 1; round <= 2; round++) {
        const started = Date.now();
        timers.advance(60_000);
        await eventually(() => service.inProgress === 1, `round ${round}: the scheduled run started`);
        while (service.inProgress > 0) await new Promise((r) => setTimeout(r, 20));
        within(Date.now() - started, 500);
        assert.equal(peer.requests, round, `round ${round}: one bounded call to GitHub`);
        // The lock is free again: another holder can take it at once.
        const lease = await locks.acquire('github', `probe-${round}`);
        assert.ok(lease, `round ${round}: the lock was released`);
        await lease.release();
      }
      const metrics = await assembled.metrics.text();
      assert.match(metrics, /gatehouse_errors_total [1-9]/);
      assembled.scheduler.stop();
    } finally {
      await dd.close();
      await peer.close();
    }
  });
});
