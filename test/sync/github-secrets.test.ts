import assert from 'node:assert/strict';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { ALERT_KINDS } from '../../server/sync/github/alerts.js';
import { rateLimitedClient } from '../../server/github/rate-limited-client.js';
import { parseGithubTargets } from '../../server/github/targets.js';
import { SYNC_RETRY as DEFAULT_RETRY } from '../../server/http/retry.js';
import { serviceLogger, serviceSecrets } from '../../server/sync/service/log.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { assemble, checkServiceConfig } from '../../server/sync/service/start.js';
import { systemClock } from '../../server/clock.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { capturedDestination } from '../support/log-capture.js';
import { FAST_RETRY, runSync } from './support.js';

const SECRET = FakeGitHubAlerts.LEAKED_SECRET;

function secretAlert(number: number): Record<string, unknown> {
  return {
    number,
    state: 'open',
    secret_type: 'github_personal_access_token',
    secret_type_display_name: 'GitHub Personal Access Token',
    validity: 'active',
    html_url: `https://github.com/acme/web/security/secret-scanning/${number}`,
  };
}

describe('secret scanning against a GitHub that ignores hide_secret', () => {
  let github: FakeGitHubAlerts;
  let dd: FakeDefectDojo;
  let env: Record<string, string>;

  beforeEach(async () => {
    github = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    github.ignoresHideSecret = true;
    github.orgs.add('acme');
    // Two pages: the field is dropped page by page.
    github.addRepo({ owner: 'acme', name: 'web', secretScanning: Array.from({ length: 130 }, (_, i) => secretAlert(i + 1)) });
    dd = await FakeDefectDojo.start();
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

  it('keeps no secret value in the alerts it has read', async () => {
    const parsed = parseGithubTargets(env.GITHUB_TARGETS!);
    assert.ok('targets' in parsed);
    const client = rateLimitedClient(parsed.targets[0]!, { timeoutMs: 10_000, retry: { ...DEFAULT_RETRY, ...FAST_RETRY } });
    const kind = ALERT_KINDS.find((k) => k.kind === 'secret-scanning')!;
    const alerts = await kind.list(client, { owner: 'acme', name: 'web', fullName: 'acme/web', htmlUrl: '' });
    assert.equal(alerts.length, 130);
    assert.equal(github.calls.filter((c) => c.route === 'secret_scanning').length, 2);
    assert.ok(alerts.every((a) => !Object.hasOwn(a as object, 'secret')), 'the secret is dropped as each page is read');
    assert.ok(!JSON.stringify(alerts).includes(SECRET));
  });

  it('writes it nowhere: not in the report, the progress lines or the DefectDojo upload', async () => {
    const run = await runSync(['sync-github', '--json'], env);
    assert.equal(run.code, 0, run.all);
    assert.equal(run.report!.totals.findings, 130);
    assert.ok(!run.all.includes(SECRET));
    assert.ok(dd.uploads.length > 0 && dd.uploads.every((u) => !u.text!.includes(SECRET) && !/"secret":/.test(u.text!)));
  });

  it('writes it in no service log line', async () => {
    const { destination, text } = capturedDestination();
    const loaded = loadSyncConfig({ env });
    const logger = serviceLogger({ level: 'trace', secrets: serviceSecrets(loaded, env), destination });
    const assembled = assemble({
      config: checkServiceConfig(() => loaded),
      options: { ...DEFAULT_OPTIONS, retries: 0 },
      locks: memoryLocks(),
      logger,
      timers: systemClock,
      pacerClock: { now: () => Date.now(), sleep: async () => undefined },
      version: '9.9.9',
      retry: FAST_RETRY,
    });
    const answer = await assembled.service!.start('github', 'trigger');
    assert.equal(answer.outcome, 'started');
    const result = answer.outcome === 'started' ? await answer.finished : undefined;
    assert.equal(result?.report?.totals.findings, 130);
    assert.ok(text().length > 0 && !text().includes(SECRET));
    assert.ok(!JSON.stringify(result).includes(SECRET));
    await assembled.service!.stop(5000);
  });
});
