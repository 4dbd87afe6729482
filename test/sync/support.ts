import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncCommand } from '../../server/sync/command.js';
import type { RetryPolicy } from '../../server/http/retry.js';
import type { SourceReport } from '../../server/sync/report.js';
import type { Release } from '../support/defectdojo-releases.js';
import { FakeDefectDojo } from '../support/fake-defectdojo.js';
import { FakeDependencyTrack } from '../support/fake-dependency-track.js';

/** Back-off short enough for tests; the policy's shape is the real one. */
export const FAST_RETRY = { minDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };

export interface SyncRun {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
  /** The `--json` summary, when asked for. */
  readonly report?: SourceReport;
  /** Everything printed, for checks that no secret leaked. */
  readonly all: string;
}

export async function runSync(argv: string[], env: Record<string, string>, retry: Partial<RetryPolicy> = FAST_RETRY): Promise<SyncRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await syncCommand(argv, { ...env }, { out: (l) => out.push(l), err: (l) => err.push(l) }, retry);
  const json = argv.includes('--json') && code !== 2 ? out.find((l) => l.startsWith('{')) : undefined;
  return { code, out, err, all: [...out, ...err].join('\n'), ...(json ? { report: JSON.parse(json) as SourceReport } : {}) };
}

/** Folders of the configuration files below, removed when the test process exits. */
const configDirs: string[] = [];
process.once('exit', () => {
  for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
});

/** A configuration file with this text, in a folder of its own (removed at exit). */
export function configFile(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sync-'));
  configDirs.push(dir);
  const file = join(dir, 'sync.yaml');
  writeFileSync(file, yaml);
  return file;
}

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'UNASSIGNED'];

/** A synthetic FPF finding, shaped as Dependency-Track exports them. */
export function fpfFinding(project: string, i: number): unknown {
  return {
    component: { uuid: `c-${project}-${i}`, name: `lib-${i}`, version: `1.${i}.0`, purl: `pkg:npm/lib-${i}@1.${i}.0`, project },
    vulnerability: {
      uuid: `v-${i}`,
      vulnId: `CVE-2026-${10000 + i}`,
      source: 'NVD',
      severity: SEVERITIES[i % SEVERITIES.length],
      description: `A flaw in lib-${i} lets a crafted input "escape" its sandbox; see the advisory. `.repeat(8),
      cweId: 79,
      cvssV3BaseScore: 7.5,
    },
    analysis: { isSuppressed: false },
    attribution: { analyzerIdentity: 'INTERNAL_ANALYZER', attributedOn: '2026-11-01 00:00:00' },
    matrix: `${project}:c-${project}-${i}:v-${i}`,
  };
}

export function fpfProject(i: number, findings: number, extra: { version?: string; active?: boolean } = {}) {
  const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return {
    uuid,
    name: `acme/service-${String(i).padStart(3, '0')}`,
    version: extra.version ?? '1.0.0',
    ...(extra.active === false ? { active: false } : {}),
    findings: Array.from({ length: findings }, (_, n) => fpfFinding(uuid, n)),
  };
}

/** The value of one series in Prometheus text, or undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A loopback Dependency-Track and DefectDojo, and the environment that points a sync at both. */
export interface SyncFakes {
  readonly dt: FakeDependencyTrack;
  readonly dd: FakeDefectDojo;
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts both fakes; Dependency-Track holds `projects` FPF projects of `findings` findings each; DefectDojo behaves as `release` (default 3.2.0). */
export async function startSyncFakes(projects = 0, findings = 2, options: { release?: Release } = {}): Promise<SyncFakes> {
  const dt = await FakeDependencyTrack.start();
  const dd = await FakeDefectDojo.start(undefined, options);
  for (let i = 0; i < projects; i++) dt.projects.push(fpfProject(i, findings));
  return {
    dt,
    dd,
    env: { SYNC_DEPENDENCYTRACK_URL: dt.url, SYNC_DEFECTDOJO_URL: dd.url, DEPENDENCY_TRACK_API_KEY: dt.apiKey, DEFECTDOJO_TOKEN: dd.token },
    close: async () => {
      await dt.close();
      await dd.close();
    },
  };
}

/** The Dependency-Track project of `fpfAdvisory` findings. */
export const FPF_PROJECT = '11111111-2222-4333-8444-555555555555';

export type Aliases = Record<string, string>[] | undefined;
/** One advisory of one component (`1.0.0`), with Dependency-Track's alias entries as given. */
export function fpfAdvisory(component: string, vulnId: string, source: string, aliases: Aliases, n: number): Record<string, any> {
  const c = `00000000-0000-4000-9000-${createHash('sha256').update(component).digest('hex').slice(0, 12)}`;
  const v = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    component: { uuid: c, name: component, version: '1.0.0', purl: `pkg:npm/${component}@1.0.0`, project: FPF_PROJECT },
    vulnerability: { uuid: v, vulnId, source, severity: 'HIGH', ...(aliases ? { aliases } : {}) },
    analysis: { isSuppressed: false },
    matrix: `${FPF_PROJECT}:${c}:${v}`,
  };
}

/** An FPF export of findings, as Dependency-Track 4.14 writes one. */
export const fpfExport = (findings: unknown[]) => JSON.stringify({ version: '1.2', meta: { application: 'Dependency-Track', version: '4.14.1', timestamp: '2026-11-01T00:00:00Z' }, project: { uuid: FPF_PROJECT, name: 'acme/web', version: '1.0' }, findings });

