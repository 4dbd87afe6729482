import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_OPTIONS } from '../../server/sync/options.js';
import { loadSyncConfig } from '../../server/sync/config.js';
import { HttpError } from '../../server/http/call-errors.js';
import { serviceLogger, serviceSecrets } from '../../server/sync/service/log.js';
import { memoryLocks } from '../../server/sync/service/locks.js';
import { Readiness } from '../../server/sync/service/readiness.js';
import { assemble, checkServiceConfig, enabledConnectors, listenSyncApp, type Assembled } from '../../server/sync/service/start.js';
import { systemClock } from '../../server/clock.js';
import { createLogger } from '../../server/logger.js';
import { FakeTimers } from '../support/fake-timers.js';
import { capturedDestination } from '../support/log-capture.js';
import { REPO_ROOT } from '../support/processes.js';
import { configFile, FAST_RETRY, startSyncFakes, type SyncFakes } from './support.js';

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

const page = (name: string) => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** The text of docs/`name` from the heading `title` to the next heading of the same level. */
function section(name: string, title: string): string {
  const text = page(name);
  const start = text.indexOf(title);
  assert.ok(start >= 0, `docs/${name} has ${title}`);
  const level = /^#+/.exec(title)![0];
  const next = text.indexOf(`\n${level} `, start + title.length);
  return text.slice(start, next < 0 ? undefined : next);
}

describe('sync service, as operators run it', () => {
  let fakes: SyncFakes;
  let assembled: Assembled | undefined;
  let close: (() => Promise<void>) | undefined;

  beforeEach(async () => {
    fakes = await startSyncFakes(2, 2);
  });
  afterEach(async () => {
    await close?.();
    close = undefined;
    assembled?.scheduler.stop();
    await assembled?.service?.stop(5000);
    assembled = undefined;
    await fakes.close();
  });

  async function start(env: Record<string, string>, logger = createLogger({ level: 'silent' })): Promise<string> {
    const config = checkServiceConfig(() => loadSyncConfig({ env }));
    assembled = assemble({
      config,
      options: { ...DEFAULT_OPTIONS, retries: 0 },
      locks: memoryLocks(),
      logger,
      timers: systemClock,
      pacerClock: { now: () => Date.now(), sleep: async () => undefined },
      version: '9.9.9',
      retry: FAST_RETRY,
    });
    const listening = await listenSyncApp(assembled, { logger, version: '9.9.9' }, 0, '127.0.0.1');
    close = () => new Promise((resolve) => listening.server.close(() => resolve()));
    return `http://127.0.0.1:${listening.port}`;
  }

  it('a configuration with only Dependency-Track becomes ready and schedules only that source', async () => {
    // No SYNC_*_ENABLED at all: Dependency-Track's url and key, DefectDojo's url and token.
    const base = await start(fakes.env);
    const ready = await fetch(`${base}/readyz`);
    assert.deepEqual([ready.status, await ready.json()], [200, { status: 'ready' }]);
    assert.deepEqual(assembled!.service!.sources, ['dependencytrack']);
    assembled!.schedule();
    assert.deepEqual(Object.keys(assembled!.scheduler.nextRuns()), ['dependencytrack']);
  });

  it('a source is on only when enabled or when one of its settings is given; switched off, it is not scheduled', () => {
    const sources = (env: Record<string, string>) => enabledConnectors(loadSyncConfig({ env })).map((c) => c.source);
    assert.deepEqual(sources(fakes.env), ['dependencytrack']);
    assert.deepEqual(sources({ ...fakes.env, SYNC_DEPENDENCYTRACK_ENABLED: 'false' }), []);
    assert.deepEqual(sources({ ...fakes.env, SONARQUBE_TOKEN: 'squ_x' }), ['dependencytrack', 'sonarqube']);
    assert.deepEqual(sources({ SYNC_GITHUB_ENABLED: 'true' }), ['github']);
    // Enabled without what it needs: a problem naming it, not a silent skip.
    const partial = checkServiceConfig(() => loadSyncConfig({ env: { ...fakes.env, SYNC_SONARQUBE_URL: 'https://sonar.example.com' } }));
    assert.ok(partial.problems.some((p) => /SONARQUBE_TOKEN is required/.test(p)), partial.problems.join('\n'));
  });

  it('the Helm example’s Secret holds what each source it enables needs', () => {
    const text = section('self-hosting.md', '## Container images, the Helm charts and releases');
    const block = /```sh\n([\s\S]*?kubectl create secret[\s\S]*?helm install[\s\S]*?)```/.exec(text)?.[1];
    assert.ok(block, 'docs/self-hosting.md shows kubectl create secret and helm install');
    const env: Record<string, string> = {};
    for (const [, name] of block.matchAll(/--from-literal=([A-Z_]+)=/g)) {
      env[name!] = name === 'GITHUB_TARGETS' ? JSON.stringify([{ server: 'https://github.com', owners: ['acme'], token: 'ghp_example' }]) : `${name!.toLowerCase()}-example`;
    }
    const values = parse(readFileSync(join(REPO_ROOT, 'charts', 'gatehouse-sync', 'values.yaml'), 'utf8')) as Tree;
    const config = structuredClone(values.config) as Tree;
    for (const [, path, value] of block.matchAll(/--set config\.([\w.]+)=(\S+)/g)) {
      const parts = path!.split('.');
      let node = config;
      for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Tree;
      node[parts[parts.length - 1]!] = value === 'true' ? true : value === 'false' ? false : value;
    }
    const withoutEmpty = (tree: Tree): Tree =>
      Object.fromEntries(
        Object.entries(tree)
          .filter(([, v]) => v !== '' && v !== null)
          .map(([k, v]) => [k, isTree(v) ? withoutEmpty(v) : v]),
      );
    const checked = checkServiceConfig(() => loadSyncConfig({ file: configFile(JSON.stringify(withoutEmpty(config))), env }));
    assert.deepEqual(checked.problems, []);
    assert.ok(checked.loaded && enabledConnectors(checked.loaded).length > 0);
  });

  it('every line it logs is scrubbed of the secrets, even one an upstream echoes in an error body', async () => {
    const { dt } = fakes;
    // A Dependency-Track that quotes the key it was given in its error answer.
    dt.faults.inject('export', { status: 400, body: { message: `API key ${dt.apiKey} may not export this project` } }, 2);
    const env = { ...fakes.env, SYNC_GITHUB_ENABLED: 'false' };
    const out = capturedDestination();
    const logger = serviceLogger({ level: 'debug', secrets: serviceSecrets(loadSyncConfig({ env }), env), destination: out.destination });
    await start(env, logger);
    const answer = await assembled!.service!.start('dependencytrack', 'trigger');
    assert.equal(answer.outcome, 'started');
    const result = answer.outcome === 'started' ? await answer.finished : undefined;
    assert.equal(result?.ok, false);
    assert.ok(result?.report?.items.some((i) => i.reason?.includes(dt.apiKey)), 'the echo reached the report itself');
    const text = out.text();
    assert.match(text, /may not export this project/);
    assert.ok(!text.includes(dt.apiKey), 'the key is in no log line');
    assert.ok(!text.includes(fakes.dd.token));
  });

  it('what fails is logged at warn or error with what to fix: a failed item at warn, a refused credential and a failed run at error; /readyz changes logged once each', async () => {
    const out = capturedDestination();
    const env = { ...fakes.env, SYNC_GITHUB_ENABLED: 'false' };
    const logger = serviceLogger({ level: 'info', secrets: serviceSecrets(loadSyncConfig({ env }), env), destination: out.destination });
    const base = await start(env, logger);
    const lines = () => out.text().trim().split('\n').map((l) => JSON.parse(l) as { level: string; msg: string });
    const at = (level: string) => lines().filter((l) => l.level === level).map((l) => l.msg);

    fakes.dt.faults.inject('export', { status: 400, body: { message: 'no such project' } }, 1);
    const partial = await assembled!.service!.start('dependencytrack', 'trigger');
    await (partial.outcome === 'started' ? partial.finished : undefined);
    assert.ok(at('warn').some((m) => /project 1 of 2: .*: FAILED: Dependency-Track FPF export of .* answered 400: no such project/.test(m)), at('warn').join('\n'));
    assert.ok(at('error').some((m) => /^\[dependencytrack\] FAILED in /.test(m)), 'the totals of a failed run');
    assert.ok(at('warn').includes('run finished with failures'));

    // DefectDojo refuses the token: the run stops before any export, at error, naming the setting.
    fakes.dd.faults.inject('user_profile', { status: 403, body: { detail: 'Invalid token.' } }, 1);
    const refused = await assembled!.service!.start('dependencytrack', 'trigger');
    await (refused.outcome === 'started' ? refused.finished : undefined);
    assert.ok(at('error').some((m) => /refused DEFECTDOJO_TOKEN: answered 403 \(Invalid token\.\)/.test(m)), at('error').join('\n'));

    // Readiness: ready, then not ready (a refused token), then ready again: three lines, not one per probe.
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/readyz`)).status, 200);
    assembled!.readiness.defectDojoAnswered = () => {};
    const readiness = assembled!.readiness as unknown as { lastAnswerAt: number };
    readiness.lastAnswerAt = Number.NEGATIVE_INFINITY;
    fakes.dd.faults.inject('products', { status: 403, body: { detail: 'Invalid token.' } }, 1);
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${base}/readyz`)).status, 503);
    const changes = lines().filter((l) => /^(ready|ready again|not ready: )/.test(l.msg)).map((l) => `${l.level} ${l.msg}`);
    assert.deepEqual(changes, ['info ready', 'warn not ready: defectdojo_unauthorized']);
  });

  it('/readyz remembers a failed DefectDojo probe for a few seconds, and says unauthorized for a refused token', async () => {
    const base = await start({ ...fakes.env, DEFECTDOJO_TOKEN: 'dd-wrong-token' });
    const first = await fetch(`${base}/readyz`);
    assert.deepEqual([first.status, await first.json()], [503, { error: 'not_ready', reason: 'defectdojo_unauthorized' }]);
    const calls = fakes.dd.calls.length;
    for (let i = 0; i < 5; i++) assert.equal((await fetch(`${base}/readyz`)).status, 503);
    assert.equal(fakes.dd.calls.length, calls, 'no call with the token on every /readyz');
  });

  it('/metrics has each enabled source’s last-success series from the first scrape, and the alert of docs/sync-service.md reads series it has', async () => {
    const base = await start(fakes.env);
    const text = await (await fetch(`${base}/metrics`)).text();
    const series = text.split('\n').filter((l) => l && !l.startsWith('#'));
    const at = series.find((l) => l.startsWith('gatehouse_last_success_timestamp{source="dependencytrack"}'));
    assert.ok(at, 'the series exists before any run');
    assert.ok(Math.abs(Number(at.split(' ')[1]) - Date.now() / 1000) < 60, 'it starts at the service start');
    assert.ok(!series.some((l) => l.startsWith('gatehouse_last_success_timestamp{source="github"}')), 'a source that is off has none');
    // Every selector of docs/sync-service.md's alert expressions names a metric and labels /metrics has.
    const promql = [...section('sync-service.md', '## Metrics').matchAll(/```promql\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.ok(promql.length > 0, 'docs/sync-service.md shows its alert in a promql block');
    const selectors = promql.flatMap((q) => [...q.matchAll(/\b(gatehouse_[a-z_]+|process_[a-z_]+)(\{([^}]*)\})?/g)]);
    assert.ok(selectors.length > 0);
    for (const [whole, name, , labels] of selectors) {
      const matchers = (labels ?? '').split(',').filter(Boolean).map((m) => /^\s*(\w+)\s*=\s*"([^"]*)"\s*$/.exec(m));
      assert.ok(matchers.every(Boolean), `${whole}: only equality matchers are checked`);
      const found = series.some((line) => (line.startsWith(`${name!}{`) || line.startsWith(`${name!} `)) && matchers.every((m) => line.includes(`${m![1]}="${m![2]}"`)));
      assert.ok(found, `${whole} has a series in /metrics`);
    }
  });
});

describe('sync service readiness: failures', () => {
  it('asks DefectDojo again only after the failure has been the answer for a while', async () => {
    const timers = new FakeTimers(new Date());
    let probes = 0;
    const readiness = new Readiness({
      configProblems: [],
      timers,
      failureMs: 10_000,
      probe: async () => {
        probes++;
        throw new HttpError('DefectDojo', 'health check', 403, 'You do not have permission to perform this action.', undefined);
      },
    });
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'defectdojo_unauthorized' });
    timers.advance(9_000);
    assert.deepEqual(await readiness.check(), { ready: false, reason: 'defectdojo_unauthorized' });
    assert.equal(probes, 1);
    timers.advance(2_000);
    await readiness.check();
    assert.equal(probes, 2);
  });
});
