import { UploadTooLarge, type DefectDojoClient, type KnownProduct, type ScanFacts } from '../defectdojo/client.js';
import { productDirectory } from '../defectdojo/products.js';
import type { FileContent } from '../http/multipart.js';
import { spool } from '../http/spool.js';
import { ENGAGEMENTS, SCAN_TYPES } from '../defectdojo/scan-types.js';
import { transportFailure } from '../../http/outbound.js';
import { TransportError } from '../http/request.js';
import { retrying, type RetryPolicy } from '../http/retry.js';
import { finishReport, message, notesOf, syncEach, type ItemResult, type Progress, type SourceReport } from '../report.js';
import type { DependencyTrackClient, DependencyTrackProject } from './client.js';
import { countingFindings } from './count-findings.js';
import { digestingFpf } from './fpf-digest.js';
import { ImportedDigests, reportHash } from '../defectdojo/digests.js';

export interface DependencyTrackSyncDeps {
  readonly dependencyTrack: DependencyTrackClient;
  readonly defectDojo: DefectDojoClient;
  readonly excludeInactive: boolean;
  /** Only these project UUIDs (a one-project run); absent: every project. */
  readonly only?: readonly string[];
  /** Projects in flight at once (each one export and one reimport). */
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
}

function labelOf(project: DependencyTrackProject): string {
  return project.version ? `${project.name} ${project.version}` : project.name;
}

/**
 * The DefectDojo test of a project: its version, or this title for a project without one. Named
 * on every reimport: without a title DefectDojo takes the engagement's newest test of the scan
 * type, so a project without a version would land in its versioned twin's test.
 */
export const UNVERSIONED_TEST = '(no version)';

/**
 * The export as an upload of known length, read whole first so its digest is known before
 * anything is sent: up to 4 MiB in memory, past that to a private temporary file (`spool`), never
 * held whole in memory. An export above the upload limit is refused before anything is sent to
 * DefectDojo: at once when Dependency-Track states its length (`Content-Length`), else as soon as
 * more than the limit has arrived.
 */
async function exportContent(project: DependencyTrackProject, exported: Response, body: AsyncIterable<Uint8Array>, limit: number): Promise<{ content: FileContent; dispose: () => Promise<void> }> {
  const tooLarge = (bytes?: number) => new UploadTooLarge(`the FPF export of Dependency-Track project ${labelOf(project)}`, bytes, limit);
  const header = exported.headers.get('content-length');
  // A compressed answer's length is not the length of the bytes read from it.
  if (header !== null && /^\d+$/.test(header) && !exported.headers.get('content-encoding') && Number(header) > limit) throw tooLarge(Number(header));
  const spooled = await spool(body, limit, () => tooLarge());
  return { content: spooled, dispose: spooled.dispose };
}

/** What DefectDojo's test records of a project's scan: its version and its repository (a `vcs` external reference). */
export function scanFactsOf(project: DependencyTrackProject): ScanFacts {
  return { ...(project.version ? { version: project.version } : {}), ...(project.vcsUrl ? { sourceCodeManagementUri: project.vcsUrl } : {}) };
}

/**
 * One project: its FPF export streamed straight into a DefectDojo reimport, never held whole.
 * A transient failure of either side retries the pair, since the export stream is spent.
 */
async function syncProject(
  project: DependencyTrackProject,
  deps: DependencyTrackSyncDeps,
  products: ReadonlyMap<string, KnownProduct> | undefined,
  digests: ImportedDigests,
): Promise<ItemResult> {
  const label = labelOf(project);
  const base = {
    label,
    product: project.name,
    engagement: ENGAGEMENTS.dependencytrack,
    test: project.version ?? UNVERSIONED_TEST,
    scan_type: SCAN_TYPES.dependencyTrack,
  };
  let attempts = 0;
  const notes: string[] = [];
  try {
    const { counts, findings, unchanged } = await retrying(
      async (n) => {
        attempts = n;
        const abandon = new AbortController();
        let exportFailure: unknown;
        let dispose: (() => Promise<void>) | undefined;
        try {
          const exported = await deps.dependencyTrack.exportFindings(project, abandon.signal);
          if (!exported.body) throw new Error(`Dependency-Track FPF export of ${project.name} has no body`);
          const counting = countingFindings(exported.body);
          const scan = scanFactsOf(project);
          const target = { scanType: SCAN_TYPES.dependencyTrack, productName: project.name, engagementName: ENGAGEMENTS.dependencytrack, testTitle: base.test, scan, doNotReactivate: deps.defectDojo.doNotReactivate };
          const { hash, digest } = reportHash(target);
          const prepared = await exportContent(project, exported, digestingFpf(noting(counting.stream, (err) => (exportFailure ??= err)), hash), deps.defectDojo.maxUploadBytes);
          dispose = prepared.dispose;
          const content = prepared.content;
          const reportDigest = digest();
          if (await digests.unchanged(SCAN_TYPES.dependencyTrack, reportDigest)) return { counts: undefined, findings: counting.count(), unchanged: true };
          const counts = await deps.defectDojo.reimport({
            scanType: SCAN_TYPES.dependencyTrack,
            productName: project.name,
            engagementName: ENGAGEMENTS.dependencytrack,
            testTitle: base.test,
            filename: 'dependency-track-findings.json',
            content,
            note: (text) => notes.push(text),
            scan,
            digest: reportDigest,
            ...(products ? { product: products.get(project.name) ?? null } : {}),
          });
          return { counts, findings: counting.count(), unchanged: false };
        } catch (err) {
          // A download that broke off mid-stream fails the upload it feeds: name the download.
          if (exportFailure !== undefined) throw new TransportError('Dependency-Track', `FPF export of ${project.name}`, transportFailure(exportFailure));
          throw err;
        } finally {
          // Closes the download when the upload stopped early; harmless once it was read to the end.
          abandon.abort();
          await dispose?.();
        }
      },
      deps.retry,
      (error, retry, delayMs) => deps.progress.retry(label, error, retry, delayMs),
    );
    if (unchanged) return { ...base, status: 'synced', unchanged: true, ...notesOf(notes), attempts };
    return { ...base, status: 'synced', findings, ...(counts ? { counts } : {}), ...notesOf(notes), attempts };
  } catch (err) {
    return { ...base, status: 'failed', reason: message(err), ...notesOf(notes), attempts };
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

/** What a `sync` did: its report, and the projects it synced (whose product's triage may be written back to them). */
export interface DependencyTrackSyncResult {
  readonly report: SourceReport;
  readonly synced: readonly DependencyTrackProject[];
}

/**
 * `sync`: every Dependency-Track project into its own DefectDojo product. One project's failure
 * never stops the others. A one-project run (`only`) applies the whole run's filters too: an
 * inactive project is skipped when `excludeInactive` is set.
 */
export async function syncDependencyTrack(deps: DependencyTrackSyncDeps): Promise<DependencyTrackSyncResult> {
  const startedAt = new Date();
  const head = { command: 'sync' as const, source: 'dependencytrack' as const, startedAt };
  let projects: DependencyTrackProject[];
  // DefectDojo's products are listed while Dependency-Track lists its projects.
  const pendingProducts = productDirectory(deps.defectDojo, deps.retry, deps.progress);
  const left: ItemResult[] = [];
  try {
    if (deps.only) {
      projects = [];
      for (const uuid of deps.only) {
        const found = await deps.dependencyTrack.projectByUuid(uuid, deps.retry, (error, retry, delayMs) => deps.progress.retry(`project ${uuid}`, error, retry, delayMs));
        const item = { engagement: ENGAGEMENTS.dependencytrack, scan_type: SCAN_TYPES.dependencyTrack, attempts: 0 };
        if (!found) left.push({ ...item, label: uuid, product: '', test: '', status: 'failed', reason: `Dependency-Track has no project ${uuid} (or the key may not see it)`, attempts: 1 });
        else if (deps.excludeInactive && !found.active) {
          left.push({ ...item, label: labelOf(found), product: found.name, test: found.version ?? UNVERSIONED_TEST, status: 'skipped', reason: 'inactive in Dependency-Track (sources.dependencytrack.excludeInactive)' });
        } else projects.push(found);
      }
    } else {
      projects = await deps.dependencyTrack.listProjects(deps.excludeInactive, deps.retry, (error, retry, delayMs) => deps.progress.retry('project list', error, retry, delayMs));
    }
  } catch (err) {
    await pendingProducts;
    return { report: finishReport({ ...head, error: `could not list projects: ${message(err)}` }, []), synced: [] };
  }
  const products = await pendingProducts;
  const digests = new ImportedDigests(deps.defectDojo, deps.progress);
  const items = await syncEach(projects, deps.concurrency, deps.progress, (project) => syncProject(project, deps, products, digests));
  return { report: finishReport(head, [...left, ...items]), synced: projects.filter((_, i) => items[i]!.status === 'synced') };
}
