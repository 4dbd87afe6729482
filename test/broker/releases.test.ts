import assert from 'node:assert/strict';
import { eventually } from '../faults/support.js';
import { manualClock } from '../support/backend.js';
import { secondaryRateLimit } from '../support/fake-github.js';
import { call } from '../support/http.js';
import { INSTALLATION_ID, REPO, startBroker, type BrokerHarness } from '../support/broker.js';

const MS_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('broker GET /releases', () => {
  let h: BrokerHarness;
  let clock: ReturnType<typeof manualClock>;

  beforeEach(async () => {
    clock = manualClock();
    h = await startBroker({ clock });
    h.github.repos.get(REPO)!.latestRelease = { tag: 'v2.0.0', name: 'Two', publishedAt: '2026-10-01T12:00:00Z' };
    h.github.addRepo('octo-org/no-releases', 2, INSTALLATION_ID);
    h.github.addInstallation(7, 'other-org');
    h.github.addRepo('other-org/tool', 3, 7, { latestRelease: { tag: 'v0.1.0', name: '', publishedAt: '2026-09-01T08:00:00Z' } });
  });
  afterEach(() => h.close());

  /** `null`: no Authorization header at all. */
  const releases = (secret: string | null = h.triggerSecret) => call(`${h.backend.url}/releases`, secret === null ? {} : { token: secret });

  it('the latest release of every repository of every installation; null without releases', async () => {
    const res = await releases();
    assert.equal(res.status, 200);
    assert.match(res.body.generated_at as string, MS_ISO);
    assert.equal(res.body.truncated, false);
    assert.equal(res.body.cached, false);
    assert.deepEqual(res.body.repos, [
      { repo: 'octo-org/no-releases', latest: null },
      {
        repo: 'octo-org/octo-repo',
        latest: {
          tag: 'v2.0.0',
          name: 'Two',
          published_at: '2026-10-01T12:00:00Z',
          url: 'https://github.example/octo-org/octo-repo/releases/tag/v2.0.0',
          draft: false,
          prerelease: false,
        },
      },
      {
        repo: 'other-org/tool',
        latest: {
          tag: 'v0.1.0',
          name: '',
          published_at: '2026-09-01T08:00:00Z',
          url: 'https://github.example/other-org/tool/releases/tag/v0.1.0',
          draft: false,
          prerelease: false,
        },
      },
    ]);
    // Revoked after the answer, which does not wait on clean-up.
    await eventually(() => h.github.count('revoke') === 2, 'the crawl tokens are revoked');
  });

  it('follows Link pagination of installations and repositories', async () => {
    for (let i = 0; i < 150; i++) h.github.addRepo(`octo-org/r${i}`, 1000 + i, INSTALLATION_ID);
    for (let i = 0; i < 101; i++) h.github.addInstallation(100 + i, `empty-${i}`);
    const res = await releases();
    assert.equal(res.status, 200);
    assert.equal((res.body.repos as unknown[]).length, 153);
    assert.equal(h.github.count('installation_repositories'), 2 + 1 + 101, '2 pages for the large installation, 1 for each other');
    assert.equal(h.github.count('installations'), 2);
  });

  it('latest-release calls run with bounded concurrency', async () => {
    for (let i = 0; i < 30; i++) h.github.addRepo(`octo-org/c${i}`, 2000 + i, INSTALLATION_ID);
    h.github.delayMs = 15;
    assert.equal((await releases()).status, 200);
    const peak = h.github.peakInFlight.get('latest_release') ?? 0;
    assert.ok(peak > 1 && peak <= 8, `peak ${peak}`);
  });

  it('the traversal cap gives truncated: true with exactly the cap; reaching it exactly is not truncation', async () => {
    h.backend.env.RELEASES_MAX_REPOS = '2';
    const capped = await releases();
    assert.equal(capped.body.truncated, true);
    assert.equal((capped.body.repos as unknown[]).length, 2);
    h.backend.env.RELEASES_MAX_REPOS = '3';
    const exact = await releases();
    assert.equal(exact.body.truncated, false);
    assert.equal((exact.body.repos as unknown[]).length, 3);
  });

  it('serves the aggregate from the store for 300 s (cached: true), then crawls again', async () => {
    const first = await releases();
    await eventually(() => h.github.count('revoke') === 2, 'the crawl tokens are revoked');
    const calls = h.github.count();
    clock.advance(299_000);
    const second = await releases();
    assert.equal(second.body.cached, true);
    assert.equal(second.body.generated_at, first.body.generated_at);
    assert.deepEqual(second.body.repos, first.body.repos);
    assert.equal(h.github.count(), calls, 'no platform call for a cached answer');
    clock.advance(2_000);
    const third = await releases();
    assert.equal(third.body.cached, false);
    assert.notEqual(third.body.generated_at, first.body.generated_at);
  });

  it('concurrent cold calls share one crawl', async () => {
    h.github.delayMs = 10;
    const answers = await Promise.all([releases(), releases(), releases()]);
    assert.ok(answers.every((a) => a.status === 200));
    assert.equal(h.github.count('installations'), 1);
  });

  it('a suspended installation is skipped', async () => {
    h.github.installations.get(7)!.suspended = true;
    const res = await releases();
    assert.equal(res.status, 200);
    assert.deepEqual(
      (res.body.repos as { repo: string }[]).map((r) => r.repo),
      ['octo-org/no-releases', 'octo-org/octo-repo'],
    );
  });

  describe('error table', () => {
    it('401 unauthorized: bearer missing or wrong', async () => {
      for (const secret of [null, 'wrong', `${h.triggerSecret}x`]) {
        const res = await releases(secret);
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }]);
      }
      assert.equal(h.github.count(), 0);
    });

    it('405 method_not_allowed for POST', async () => {
      const res = await call(`${h.backend.url}/releases`, { method: 'POST', token: h.triggerSecret, json: {} });
      assert.deepEqual([res.status, res.body], [405, { error: 'method_not_allowed' }]);
      assert.equal(res.headers.get('allow'), 'GET, HEAD');
    });

    it('503 releases_disabled while PROCESS_TRIGGER_SECRET is unset', async () => {
      delete h.backend.env.PROCESS_TRIGGER_SECRET;
      const res = await releases();
      assert.deepEqual([res.status, res.body], [503, { error: 'releases_disabled' }]);
    });

    it('503 app_unconfigured: FORGE_APP_ID or FORGE_APP_PRIVATE_KEY unset', async () => {
      for (const name of ['FORGE_APP_ID', 'FORGE_APP_PRIVATE_KEY']) {
        const saved = h.backend.env[name];
        delete h.backend.env[name];
        const res = await releases();
        assert.deepEqual([res.status, res.body], [503, { error: 'app_unconfigured' }], name);
        h.backend.env[name] = saved;
      }
    });

    it('502 releases_failed when the platform fails mid-crawl (secondary rate limit); nothing is cached', async () => {
      h.github.inject('latest_release', secondaryRateLimit(429, 30));
      const res = await releases();
      assert.equal(res.status, 502);
      assert.equal(res.body.error, 'releases_failed');
      const retry = await releases();
      assert.equal(retry.status, 200);
      assert.equal(retry.body.cached, false);
    });
  });
});
