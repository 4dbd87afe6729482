import type { DefectDojoClient } from '../defectdojo/client.js';
import { ENGAGEMENTS, SCAN_TYPES } from '../defectdojo/scan-types.js';
import { transportFailure } from '../../http/outbound.js';
import { TransportError } from '../http/request.js';
import { retrying, type RetryPolicy } from '../http/retry.js';
import { finishReport, message, syncEach, type ItemResult, type Progress, type SourceReport } from '../report.js';
import type { DependencyTrackClient, DependencyTrackProject } from './client.js';
import { countingFindings } from './count-findings.js';

export interface DependencyTrackSyncDeps {
  readonly dependencyTrack: DependencyTrackClient;
  readonly defectDojo: DefectDojoClient;
  readonly excludeInactive: boolean;
  /** Projects in flight at once (each one export and one reimport). */
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
}

function labelOf(project: DependencyTrackProject): string {
  return project.version ? `${project.name} ${project.version}` : project.name;
}

/**
 * One project: its FPF export streamed straight into a DefectDojo reimport, never held whole.
 * A transient failure of either side retries the pair, since the export stream is spent.
 */
async function syncProject(project: DependencyTrackProject, deps: DependencyTrackSyncDeps): Promise<ItemResult> {
  const label = labelOf(project);
  const base = {
    label,
    product: project.name,
    engagement: ENGAGEMENTS.dependencytrack,
    test: project.version ?? SCAN_TYPES.dependencyTrack,
    scan_type: SCAN_TYPES.dependencyTrack,
  };
  let attempts = 0;
  try {
    const { counts, findings } = await retrying(
      async (n) => {
        attempts = n;
        const abandon = new AbortController();
        let exportFailure: unknown;
        try {
          const exported = await deps.dependencyTrack.exportFindings(project, abandon.signal);
          if (!exported.body) throw new Error(`Dependency-Track FPF export of ${project.name} has no body`);
          const counting = countingFindings(exported.body);
          const counts = await deps.defectDojo.reimport({
            scanType: SCAN_TYPES.dependencyTrack,
            productName: project.name,
            engagementName: ENGAGEMENTS.dependencytrack,
            ...(project.version ? { testTitle: project.version } : {}),
            filename: 'dependency-track-findings.json',
            content: noting(counting.stream, (err) => (exportFailure ??= err)),
          });
          return { counts, findings: counting.count() };
        } catch (err) {
          // A download that broke off mid-stream fails the upload it feeds: name the download.
          if (exportFailure !== undefined) throw new TransportError('Dependency-Track', `FPF export of ${project.name}`, transportFailure(exportFailure));
          throw err;
        } finally {
          // Closes the download when the upload stopped early; harmless once it was read to the end.
          abandon.abort();
        }
      },
      deps.retry,
      (error, retry, delayMs) => deps.progress.retry(label, error, retry, delayMs),
    );
    return { ...base, status: 'synced', findings, ...(counts ? { counts } : {}), attempts };
  } catch (err) {
    return { ...base, status: 'failed', reason: message(err), attempts };
  }
}

/** The stream, telling `failed` when reading it fails (before the failure goes on). */
async function* noting(stream: AsyncIterable<Uint8Array>, failed: (err: unknown) => void): AsyncGenerator<Uint8Array> {
  try {
    yield* stream;
  } catch (err) {
    failed(err);
    throw err;
  }
}

/** `sync`: every Dependency-Track project into its own DefectDojo product. One project's failure never stops the others. */
export async function syncDependencyTrack(deps: DependencyTrackSyncDeps): Promise<SourceReport> {
  const startedAt = new Date();
  const head = { command: 'sync' as const, source: 'dependencytrack' as const, startedAt };
  let projects: DependencyTrackProject[];
  try {
    projects = await deps.dependencyTrack.listProjects(deps.excludeInactive, deps.retry, (error, retry, delayMs) =>
      deps.progress.retry('project list', error, retry, delayMs),
    );
  } catch (err) {
    return finishReport({ ...head, error: `could not list projects: ${message(err)}` }, []);
  }
  const items = await syncEach(projects, deps.concurrency, deps.progress, (project) => syncProject(project, deps));
  return finishReport(head, items);
}
