import { UploadTooLarge, type DefectDojoClient, type KnownProduct, type ScanFacts } from '../defectdojo/client.js';
import { productDirectory } from '../defectdojo/products.js';
import { ENGAGEMENTS, SCAN_TYPES } from '../defectdojo/scan-types.js';
import { AnswerTooLarge } from '../../http/outbound.js';
import type { RetryPolicy } from '../../http/retry.js';
import { retryTransient, TransportError, UnexpectedAnswerError } from '../../http/call-errors.js';
import { finishReport, notesOf, syncEach, type ItemResult, type Progress, type SourceReport } from '../report.js';
import { message } from '../../errors.js';
import type { DependencyTrackClient, DependencyTrackProject } from './client.js';
import { foldAliases, type FoldedExport } from './fold-aliases.js';
import { ImportedDigests, reportDigest, type ReportTarget } from '../defectdojo/digests.js';

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
const UNVERSIONED_TEST = '(no version)';

/**
 * The export, read whole with the upload limit as its size bound (it is parsed to fold aliases
 * before it is sent): one above the limit is refused before anything is sent to DefectDojo, at
 * once when Dependency-Track states its length (`Content-Length`), else as soon as more than the
 * limit has arrived; it is final, not retried.
 */
async function exportBytes(dependencyTrack: DependencyTrackClient, project: DependencyTrackProject, limit: number): Promise<Buffer> {
  try {
    return await dependencyTrack.exportFindings(project, limit);
  } catch (err) {
    if (err instanceof TransportError && err.cause instanceof AnswerTooLarge) throw new UploadTooLarge(`the FPF export of Dependency-Track project ${labelOf(project)}`, err.cause.statedBytes, limit);
    throw err;
  }
}

/**
 * The export ready to send: its findings folded (`fold-aliases.ts`), and its digest, which leaves
 * out the time the export was made (`meta.timestamp`), so an unchanged project's report digests
 * alike from run to run.
 */
export function prepareExport(project: Pick<DependencyTrackProject, 'name'>, bytes: Buffer, target: ReportTarget): { content: Buffer; digest: string; folded: FoldedExport } {
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new UnexpectedAnswerError('Dependency-Track', `FPF export of ${project.name}`, 'the answer is not valid JSON');
  }
  const folded = foldAliases(document);
  const meta = folded.document.meta && typeof folded.document.meta === 'object' ? { ...(folded.document.meta as Record<string, unknown>), timestamp: null } : folded.document.meta;
  return { content: Buffer.from(JSON.stringify(folded.document)), digest: reportDigest(target, Buffer.from(JSON.stringify({ ...folded.document, meta }))), folded };
}

/** What DefectDojo's test records of a project's scan: its version and its repository (a `vcs` external reference). */
function scanFactsOf(project: DependencyTrackProject): ScanFacts {
  return { ...(project.version ? { version: project.version } : {}), ...(project.vcsUrl ? { sourceCodeManagementUri: project.vcsUrl } : {}) };
}

/**
 * One project: its FPF export, folded, reimported into DefectDojo. A transient failure of either
 * side retries the pair (the export is read again).
 */
async function syncProject(
  project: DependencyTrackProject,
  deps: DependencyTrackSyncDeps,
  products: ReadonlyMap<string, KnownProduct> | undefined,
  digests: ImportedDigests,
): Promise<{ item: ItemResult; foldedInto: ReadonlyMap<string, readonly string[]> }> {
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
  let foldedInto: ReadonlyMap<string, readonly string[]> = new Map();
  try {
    const item = await retryTransient(
      async (n): Promise<ItemResult> => {
        attempts = n;
        const bytes = await exportBytes(deps.dependencyTrack, project, deps.defectDojo.maxUploadBytes);
        const target = { scanType: SCAN_TYPES.dependencyTrack, productName: project.name, engagementName: ENGAGEMENTS.dependencytrack, testTitle: base.test, scan: scanFactsOf(project) };
        const { content, digest, folded } = prepareExport(project, bytes, { ...target, doNotReactivate: deps.defectDojo.doNotReactivate });
        foldedInto = folded.foldedInto;
        if (folded.findings < folded.exported) notes.push(foldNote(folded));
        if (await digests.unchanged(SCAN_TYPES.dependencyTrack, digest)) return { ...base, status: 'synced', unchanged: true, ...notesOf(notes), attempts };
        const counts = await deps.defectDojo.reimport({
          ...target,
          filename: 'dependency-track-findings.json',
          content,
          note: (text) => notes.push(text),
          digest,
          ...(products ? { product: products.get(project.name) ?? null } : {}),
        });
        return { ...base, status: 'synced', findings: folded.findings, ...(counts ? { counts } : {}), ...notesOf(notes), attempts };
      },
      deps.retry,
      (error, retry, delayMs) => deps.progress.retry(label, error, retry, delayMs),
    );
    return { item, foldedInto };
  } catch (err) {
    return { item: { ...base, status: 'failed', reason: message(err), ...notesOf(notes), attempts }, foldedInto };
  }
}

/** Said on the item: how many findings were folded into others, so the counts of the two systems can be compared. */
function foldNote(folded: FoldedExport): string {
  const gone = folded.exported - folded.findings;
  return `${gone} of the export's ${folded.exported} findings name the same vulnerability of the same component as another (an alias, or listed twice): sent as ${folded.findings} findings, each with all its ids`;
}

/** What a `sync` did: its report, and the projects it synced (whose product's triage may be written back to them). */
export interface DependencyTrackSyncResult {
  readonly report: SourceReport;
  readonly synced: readonly SyncedProject[];
}

/** A project the run synced, with the findings of its export folded into others (`fold-aliases.ts`). */
export interface SyncedProject {
  readonly project: DependencyTrackProject;
  /** For each finding sent (its `matrix`), the matrices of the findings folded into it. */
  readonly foldedInto: ReadonlyMap<string, readonly string[]>;
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
  const folds = new Map<DependencyTrackProject, ReadonlyMap<string, readonly string[]>>();
  const items = await syncEach(projects, deps.concurrency, deps.progress, async (project) => {
    const { item, foldedInto } = await syncProject(project, deps, products, digests);
    folds.set(project, foldedInto);
    return item;
  });
  const synced = projects.filter((_, i) => items[i]!.status === 'synced').map((project) => ({ project, foldedInto: folds.get(project) ?? new Map() }));
  return { report: finishReport(head, [...left, ...items]), synced };
}
