import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { serviceLogger } from '../../server/sync/service/log.js';
import { assemble, checkServiceConfig, listenSyncApp, type Assembled } from '../../server/sync/service/start.js';
import { systemClock } from '../../server/clock.js';
import type { FakeDefectDojo } from '../support/fake-defectdojo.js';
import type { FakeDependencyTrack } from '../support/fake-dependency-track.js';
import { FakeGitHubAlerts } from '../support/fake-github-alerts.js';
import { capturedDestination } from '../support/log-capture.js';
import { FAST_RETRY, startSyncFakes, type SyncFakes } from './support.js';

const TRIGGER = 'sync-trigger-token-0123456789abcdef';
const HOOK_SECRET = 'dt-webhook-secret-Zq81mW0pLx77';

/** A Dependency-Track notification as its webhook publisher posts it. */
function notification(group: string, subject: unknown): unknown {
  return { notification: { level: 'INFORMATIONAL', scope: 'PORTFOLIO', group, timestamp: '2026-11-20T10:00:00.000', title: group, content: '…', subject } };
}

describe('one project at a time: POST /sync/{source}?…, POST /hooks/dependency-track', () => {
  let fakes: SyncFakes;
  let dt: FakeDependencyTrack;
  let dd: FakeDefectDojo;
  let gh: FakeGitHubAlerts;
  let assembled: Assembled;
  let base: string;
  let close: () => Promise<void>;
  let logText: () => string;
  const auth = { authorization: `Bearer ${TRIGGER}` };

  async function start(extra: Record<string, string> = {}, webhookSecret: string | null = HOOK_SECRET): Promise<void> {
    const env = {
      ...fakes.env,
      GITHUB_TARGETS: JSON.stringify([{ server: gh.server, owners: ['acme'], token: gh.token }]),
      SYNC_GITHUB_MAX_ISSUES_PER_RUN: '0',
      SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET: webhookSecret ?? '',
      ...extra,
    };
    const config = checkServiceConfig(() => loadSyncConfig({ env }));
    const captured = capturedDestination();
    logText = captured.text;
    // The service's own logger: every line scrubbed of the configured secrets.
    const logger = serviceLogger({ level: 'debug', secrets: [webhookSecret ?? HOOK_SECRET, TRIGGER, dd.token, dt.apiKey, gh.token], destination: captured.destination as never });
    assembled = assemble({ config, options: { ...DEFAULT_OPTIONS, retries: 0 }, locks: memoryLocks(), logger, timers: systemClock, pacerClock: { now: Date.now, sleep: async () => undefined }, version: '9.9.9', retry: FAST_RETRY, triggerToken: TRIGGER });
    const listening = await listenSyncApp(assembled, { logger, version: '9.9.9', triggerToken: TRIGGER, ...(webhookSecret ? { webhookSecret } : {}) }, 0, '127.0.0.1');
    base = `http://127.0.0.1:${listening.port}`;
    close = () => new Promise((resolve) => listening.server.close(() => resolve()));
  }

  const idle = async () => {
    while (assembled.service!.inProgress > 0 || assembled.service!.queuedItems('dependencytrack').length > 0) await new Promise((r) => setTimeout(r, 20));
  };
  const exported = () => dt.calls.filter((c) => c.route === 'export').map((c) => decodeURIComponent(c.url.split('/')[5]!));
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  beforeEach(async () => {
    fakes = await startSyncFakes(3, 2);
    ({ dt, dd } = fakes);
    gh = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
    gh.orgs.add('acme');
    for (const name of ['api', 'web']) gh.addRepo({ owner: 'acme', name, codeScanning: [{ number: 1, state: 'open', rule: { id: 'js/x', description: 'X', security_severity_level: 'high' }, most_recent_instance: { location: { path: 'a.js', start_line: 1 } } }] });
  });
  afterEach(async () => {
    await close?.();
    await assembled?.service?.stop(5000);
    await fakes.close();
    await gh.close();
  });

  it('POST /sync/dependencytrack?project=<uuid> syncs that project alone; 409 while a run of the source holds its lock; the query is checked', async () => {
    await start();
    const [, second] = dt.projects;
    dd.delayMs = 100;
    const one = await post(`/sync/dependencytrack?project=${second!.uuid}`, undefined, auth);
    assert.equal(one.status, 202);
    assert.equal((await post(`/sync/dependencytrack?project=${dt.projects[0]!.uuid}`, undefined, auth)).status, 409, 'same lock as a whole run');
    assert.equal((await post('/sync/dependencytrack', undefined, auth)).status, 409);
    await idle();
    assert.deepEqual(exported(), [second!.uuid]);
    assert.deepEqual(dd.uploads.map((u) => u.fields.product_name), [second!.name]);
    assert.equal(dt.count('projects'), 0, 'the project list is not read');
    for (const [query, path] of [
      ['project=not-a-uuid', 'project'],
      [`project=${second!.uuid}&project=${second!.uuid}`, 'project'],
      [`repository=acme/api`, 'repository'],
    ] as const) {
      const refused = await post(`/sync/dependencytrack?${query}`, undefined, auth);
      assert.equal(refused.status, 422, query);
      const body = (await refused.json()) as { error: string; details: { path: string }[] };
      assert.equal(body.error, 'validation_failed');
      assert.equal(body.details[0]!.path, path);
    }
    assert.equal((await post(`/sync/sonarqube?project=${second!.uuid}`, undefined, auth)).status, 404, 'not enabled');
    assert.equal((await post(`/sync/dependencytrack?project=${second!.uuid}`)).status, 401, 'the trigger token is needed');
    // A UUID Dependency-Track does not know: the run fails that item.
    const missing = '00000000-0000-4000-8000-00000000ffff';
    const answer = await assembled.service!.start('dependencytrack', 'trigger', { items: [missing] });
    assert.equal(answer.outcome, 'started');
    const result = answer.outcome === 'started' ? await answer.finished : undefined;
    assert.equal(result!.ok, false);
    assert.match(result!.report!.items[0]!.reason!, /Dependency-Track has no project 00000000-0000-4000-8000-00000000ffff/);
  });

  it('POST /sync/github?repository=owner/name syncs that repository alone; an owner no target lists fails its item', async () => {
    await start();
    const answer = await post('/sync/github?repository=acme/web', undefined, auth);
    assert.equal(answer.status, 202);
    while (assembled.service!.inProgress > 0) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual([...new Set(dd.uploads.map((u) => u.fields.product_name))], ['acme/web']);
    assert.equal(gh.count('org_repos'), 0, 'the organisation is not listed');
    assert.equal((await post('/sync/github?repository=acme', undefined, auth)).status, 422);
    const other = await assembled.service!.start('github', 'trigger', { items: ['corp/api'] });
    const result = other.outcome === 'started' ? await other.finished : undefined;
    assert.match(result!.report!.items[0]!.reason!, /no GITHUB_TARGETS entry lists the owner corp/);
  });

  it('POST /hooks/dependency-track: the secret as a bearer or in the path; BOM_PROCESSED, NEW_VULNERABILITY and PROJECT_AUDIT_CHANGE sync the projects they name', async () => {
    await start();
    const [a, b, c] = dt.projects;
    // No secret, a wrong one, the trigger token: refused before the body is read.
    assert.equal((await post('/hooks/dependency-track', notification('BOM_PROCESSED', { project: { uuid: a!.uuid } }))).status, 401);
    assert.equal((await post('/hooks/dependency-track', {}, { authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await post('/hooks/dependency-track/wrong-secret', {})).status, 401);
    assert.equal((await post('/hooks/dependency-track', {}, auth)).status, 401);

    const bom = await post('/hooks/dependency-track', notification('BOM_PROCESSED', { bom: { content: 'PGJvbS8+', format: 'CycloneDX', specVersion: '1.5' }, project: { uuid: a!.uuid, name: a!.name, version: '1.0.0' } }), { authorization: `Bearer ${HOOK_SECRET}` });
    assert.equal(bom.status, 202);
    assert.deepEqual(await bom.json(), { accepted: true, group: 'BOM_PROCESSED', projects: [a!.uuid], queued: false });
    await idle();
    assert.deepEqual(exported(), [a!.uuid]);

    // While a run holds the source, notifications wait and are run together after it.
    dd.delayMs = 150;
    assert.equal((await post('/sync/dependencytrack', undefined, auth)).status, 202);
    const vuln = await post(`/hooks/dependency-track/${HOOK_SECRET}`, notification('NEW_VULNERABILITY', { component: {}, vulnerability: {}, affectedProjects: [{ uuid: b!.uuid }, { uuid: c!.uuid }] }));
    assert.equal(vuln.status, 202);
    assert.equal(((await vuln.json()) as { queued: boolean }).queued, true);
    const audit = await post(`/hooks/dependency-track/${HOOK_SECRET}`, notification('PROJECT_AUDIT_CHANGE', { component: {}, vulnerability: {}, analysis: { state: 'NOT_AFFECTED', project: b!.uuid }, affectedProjects: [{ uuid: b!.uuid }] }));
    assert.equal(audit.status, 202);
    await idle();
    // The whole run (3 projects), then one run of the two queued projects.
    assert.deepEqual(exported().slice(1, 4).sort(), [a!.uuid, b!.uuid, c!.uuid].sort());
    assert.deepEqual(exported().slice(4).sort(), [b!.uuid, c!.uuid].sort());

    const ignored = await post(`/hooks/dependency-track/${HOOK_SECRET}`, notification('NEW_VULNERABLE_DEPENDENCY', { project: { uuid: a!.uuid } }));
    assert.deepEqual([ignored.status, await ignored.json()], [200, { accepted: false, group: 'NEW_VULNERABLE_DEPENDENCY', reason: 'group_not_synced' }]);
    const invalid = await post(`/hooks/dependency-track/${HOOK_SECRET}`, { hello: 'world' });
    assert.equal(invalid.status, 422);
    const noProject = await post(`/hooks/dependency-track/${HOOK_SECRET}`, notification('BOM_PROCESSED', { project: { uuid: 'nope' } }));
    assert.equal(noProject.status, 422);
    assert.ok(!logText().includes(HOOK_SECRET), 'the secret in the path never reaches a log line');
    assert.match(logText(), /\/hooks\/dependency-track\/\[redacted\]/);
  });

  it('a secret a path must percent-encode (/, +, =) never reaches the log in any spelling: the segment is redacted whole, guesses too', async () => {
    const secret = 'dthook-A2/7c1e+9b4Qx=';
    await start({}, secret);
    const body = notification('BOM_PROCESSED', { project: { uuid: dt.projects[0]!.uuid } });
    const upper = encodeURIComponent(secret);
    const lower = upper.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
    assert.equal((await post(`/hooks/dependency-track/${upper}`, body)).status, 202);
    await idle();
    assert.equal((await post(`/hooks/dependency-track/${lower}`, body)).status, 202, 'the router decodes either case');
    await idle();
    assert.equal((await post('/hooks/dependency-track/dthook-A2%2F7c1e%2B9b4Qx%3E', body)).status, 401, 'a near guess');
    assert.equal((await post(`/hooks/DEPENDENCY-TRACK/${upper}/`, body)).status, 202, 'the router ignores case and a trailing slash');
    await idle();
    const text = logText();
    for (const spelling of [secret, upper, lower, '7c1e', '9b4Qx']) assert.ok(!text.includes(spelling), `${spelling} reached the log`);
    const paths = text.split('\n').filter((l) => l.includes('"path"')).map((l) => (JSON.parse(l) as { req: { path: string } }).req.path).filter((p) => /hooks/i.test(p));
    assert.ok(paths.length >= 4, 'every request was logged');
    assert.deepEqual(new Set(paths), new Set(['/hooks/dependency-track/[redacted]', '/hooks/DEPENDENCY-TRACK/[redacted]/']));
  });

  it('a one-project or webhook run of an inactive project skips it when excludeInactive is set, as a whole run does', async () => {
    await start({ SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE: 'true' });
    const inactive = { ...dt.projects[1]!, active: false };
    dt.projects[1] = inactive;
    const answer = await assembled.service!.start('dependencytrack', 'trigger', { items: [inactive.uuid, dt.projects[0]!.uuid] });
    const result = answer.outcome === 'started' ? await answer.finished : undefined;
    assert.equal(result!.ok, true);
    const skipped = result!.report!.items.find((i) => i.status === 'skipped');
    assert.equal(skipped?.product, inactive.name);
    assert.match(skipped!.reason!, /inactive in Dependency-Track \(sources\.dependencytrack\.excludeInactive\)/);
    assert.deepEqual(exported(), [dt.projects[0]!.uuid], 'the inactive project is never exported');
    assert.equal((await post(`/hooks/dependency-track/${HOOK_SECRET}`, notification('BOM_PROCESSED', { project: { uuid: inactive.uuid } }))).status, 202);
    await idle();
    assert.deepEqual(exported(), [dt.projects[0]!.uuid], 'nor through the webhook');
  });

  it('a repository GitHub shows under an owner no target lists (transferred) is not synced: no product of that owner is written', async () => {
    await start();
    const elsewhere = gh.addRepo({ owner: 'beta', name: 'app', codeScanning: [{ number: 1, state: 'open', rule: { id: 'js/x', description: 'X', security_severity_level: 'high' }, most_recent_instance: { location: { path: 'a.js', start_line: 1 } } }] });
    gh.moved.set('acme/old-app', elsewhere);
    const answer = await assembled.service!.start('github', 'trigger', { items: ['acme/old-app'] });
    const result = answer.outcome === 'started' ? await answer.finished : undefined;
    assert.equal(result!.ok, false);
    assert.match(result!.report!.items[0]!.reason!, /shows acme\/old-app under the owner beta, which its GITHUB_TARGETS entry does not list/);
    assert.equal(gh.count('repository_by_id'), 1, 'GitHub redirected the old name');
    assert.deepEqual(dd.uploads, []);
  });

  it('repository names are checked as GitHub defines them: no dot segment reaches a GitHub URL', async () => {
    await start();
    for (const value of ['acme%2F..', 'acme%2F.', 'acme/..', '..%2Fapi', 'acme%2F']) {
      const refused = await post(`/sync/github?repository=${value}`, undefined, auth);
      assert.equal(refused.status, 422, value);
    }
    assert.equal(gh.calls.length, 0);
  });

  it('every answer is JSON with no-store, an HTTP/1.1 request without Host included', async () => {
    await start();
    const { port } = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\n\r\n'));
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head.toLowerCase(), /cache-control: no-store/);
    assert.match(head.toLowerCase(), /content-type: application\/json/);
    assert.deepEqual(JSON.parse(body), { error: 'invalid_request' });
  });

  it('a body that is not JSON is 400 invalid_json, one above 32 MB is 413, and neither syncs anything', async () => {
    await start();
    const bad = await fetch(`${base}/hooks/dependency-track/${HOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"notification":' });
    assert.deepEqual([bad.status, await bad.json()], [400, { error: 'invalid_json' }]);
    const latin = await fetch(`${base}/hooks/dependency-track/${HOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' });
    assert.deepEqual([latin.status, await latin.json()], [415, { error: 'unsupported_media_type' }]);
    const huge = JSON.stringify(notification('BOM_PROCESSED', { bom: { content: 'A'.repeat(33 * 1024 * 1024) }, project: { uuid: dt.projects[0]!.uuid } }));
    const tooLarge = await fetch(`${base}/hooks/dependency-track/${HOOK_SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: huge });
    assert.deepEqual([tooLarge.status, await tooLarge.json()], [413, { error: 'payload_too_large' }]);
    assert.equal(dt.count('export'), 0);
  });

  it('without SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET the hook is off', async () => {
    await start({}, null);
    assert.equal((await post('/hooks/dependency-track', notification('BOM_PROCESSED', { project: { uuid: dt.projects[0]!.uuid } }))).status, 404);
    assert.equal(dt.count('export'), 0);
  });
});
