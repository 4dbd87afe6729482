/**
 * "Nothing changed, nothing sent", measured: a 500-repository GitHub organisation and 500
 * Dependency-Track projects, each synced twice in one process (as the sync service runs them:
 * one set of kept GitHub answers for both runs), through the loopback fakes answering 10 ms
 * after each request arrives. The fakes count: reports uploaded to DefectDojo, and GitHub requests that counted
 * against the primary rate limit (a 304 does not). Called by bench/sync.ts (`npm run bench:sync`).
 */
import { DEFAULT_OPTIONS } from '../server/sync/options.js';
import { loadSyncConfig } from '../server/sync/config.js';
import { dependencyTrackConnector } from '../server/sync/dependency-track/connector.js';
import { ConditionalAnswers } from '../server/github/conditional.js';
import { githubConnector } from '../server/sync/github/connector.js';
import type { Progress, SourceReport } from '../server/sync/report.js';
import { runConnector } from '../server/sync/run.js';
import { FakeDefectDojo } from '../test/support/fake-defectdojo.js';
import { FakeDependencyTrack } from '../test/support/fake-dependency-track.js';
import { FakeGitHubAlerts } from '../test/support/fake-github-alerts.js';
import { readFixture } from '../test/support/fixtures.js';
import { codeScanningAlert, dependabotAlert, secretScanningAlert } from '../test/support/github-alert-objects.js';
import { fpfProject } from '../test/sync/support.js';
import type { Figure } from './measure.js';

// BENCH_REPOSITORIES / BENCH_PROJECTS: smaller runs while profiling; the figures are for 500 each.
const REPOSITORIES = Number(process.env.BENCH_REPOSITORIES ?? 500);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 500);
const FINDINGS = 10;
const LATENCY_MS = 10;
const CONCURRENCY = 8;
const SILENT: Progress = { started() {}, item() {}, retry() {}, warn() {} };

interface Run {
  readonly wallMs: number;
  readonly uploads: number;
  readonly counted: number;
  readonly report: SourceReport;
}

async function twice(run: () => Promise<SourceReport>, uploads: () => number, counted: () => number): Promise<[Run, Run]> {
  const once = async (): Promise<Run> => {
    const [u, c] = [uploads(), counted()];
    const started = process.hrtime.bigint();
    const report = await run();
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (!report.ok) throw new Error(`a run failed: ${JSON.stringify(report).slice(0, 400)}`);
    return { wallMs, uploads: uploads() - u, counted: counted() - c, report };
  };
  const first = await once();
  return [first, await once()];
}

async function github(): Promise<[Run, Run]> {
  const gh = await FakeGitHubAlerts.start({ prefix: '/api/v3' });
  const dd = await FakeDefectDojo.start();
  try {
    gh.delayMs = LATENCY_MS;
    dd.delayMs = LATENCY_MS;
    dd.keepUploads = false;
    const [dependabot] = readFixture<Record<string, unknown>[]>('sync', 'github__dependabot_alerts_rest_example.json');
    gh.orgs.add('acme');
    for (let i = 0; i < REPOSITORIES; i++) {
      const name = `service-${String(i).padStart(3, '0')}`;
      const place = { owner: 'acme', repo: name };
      gh.addRepo({
        owner: 'acme',
        name,
        codeScanning: [1, 2].map((number) => codeScanningAlert(place, { number, rule: 'py/clear-text-storage-sensitive-data', path: 'src/file.py', line: 42 })),
        dependabot: [dependabotAlert(place, dependabot!, { number: 1 })],
        secretScanning: [secretScanningAlert(place, { number: 1 })],
      });
    }
    const loaded = loadSyncConfig({ env: { SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token, GITHUB_TARGETS: JSON.stringify([{ server: gh.server, owners: ['acme'], token: gh.token }]) } });
    const conditional = new ConditionalAnswers();
    return await twice(
      () => runConnector(githubConnector, loaded, { ...DEFAULT_OPTIONS, concurrency: CONCURRENCY }, SILENT, {}, { conditional }),
      () => dd.uploads.length,
      () => gh.countedCalls(),
    );
  } finally {
    await gh.close();
    await dd.close();
  }
}

async function dependencyTrack(): Promise<[Run, Run]> {
  const dt = await FakeDependencyTrack.start();
  const dd = await FakeDefectDojo.start();
  try {
    dt.delayMs = LATENCY_MS;
    dd.delayMs = LATENCY_MS;
    dd.keepUploads = false;
    for (let i = 0; i < PROJECTS; i++) dt.projects.push(fpfProject(i, FINDINGS));
    const loaded = loadSyncConfig({ env: { SYNC_DEPENDENCYTRACK_URL: dt.url, DEPENDENCY_TRACK_API_KEY: dt.apiKey, SYNC_DEFECTDOJO_URL: dd.url, DEFECTDOJO_TOKEN: dd.token } });
    return await twice(
      () => runConnector(dependencyTrackConnector, loaded, { ...DEFAULT_OPTIONS, concurrency: CONCURRENCY }, SILENT),
      () => dd.uploads.length,
      () => dt.count('export'),
    );
  } finally {
    await dt.close();
    await dd.close();
  }
}

/** The figures of both sources' second runs. */
export async function unchangedFigures(): Promise<Figure[]> {
  const [ghFirst, ghSecond] = await github();
  const [dtFirst, dtSecond] = await dependencyTrack();
  const ghRatio = ghSecond.counted / ghFirst.counted;
  return [
    { name: 'sync.unchanged.github.uploads', value: ghSecond.uploads, limit: ghFirst.uploads, limit_name: `uploads of the first run (${REPOSITORIES} repositories × 3 alert kinds)`, target: 'value == 0', met: ghSecond.uploads === 0 },
    {
      name: 'sync.unchanged.github.counted_requests',
      value: ghSecond.counted,
      limit: ghFirst.counted,
      limit_name: 'GitHub requests of the first run counted against the primary rate limit',
      ratio: ghRatio,
      target: 'ratio <= 0.05',
      met: ghRatio <= 0.05,
    },
    { name: 'sync.unchanged.github.wall_ms', value: Math.round(ghSecond.wallMs), limit: Math.round(ghFirst.wallMs), limit_name: 'wall time of the first run', target: 'reference' },
    { name: 'sync.unchanged.dependencytrack.uploads', value: dtSecond.uploads, limit: dtFirst.uploads, limit_name: `uploads of the first run (${PROJECTS} projects)`, target: 'value == 0', met: dtSecond.uploads === 0 },
    // Dependency-Track has no conditional export: every export is read again, and only the upload is saved.
    { name: 'sync.unchanged.dependencytrack.exports', value: dtSecond.counted, limit: dtFirst.counted, limit_name: 'exports of the first run', target: 'reference' },
    { name: 'sync.unchanged.dependencytrack.wall_ms', value: Math.round(dtSecond.wallMs), limit: Math.round(dtFirst.wallMs), limit_name: 'wall time of the first run', target: 'reference' },
  ];
}

// Run on its own: `node --import tsx bench/sync-unchanged.ts` prints the figures.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const figure of await unchangedFigures()) console.log(JSON.stringify(figure));
}
