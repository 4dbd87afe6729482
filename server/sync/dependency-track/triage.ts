import type { DefectDojoClient } from '../defectdojo/client.js';
import { retrying, type RetryPolicy } from '../http/retry.js';
import { message, type Progress } from '../report.js';
import type { DependencyTrackClient, DependencyTrackProject, FindingRef } from './client.js';

/** What a write-back did. */
export interface TriageReport {
  /** Analyses recorded in Dependency-Track. */
  readonly written: number;
  /** Findings whose Dependency-Track analysis was already the one DefectDojo's triage means. */
  readonly unchanged: number;
  /** Findings left alone: Dependency-Track holds another analysis decision, made there. */
  readonly kept: number;
  /** Findings that could not be handled (said in the progress lines); tried again by the next run. */
  readonly failed: number;
  /**
   * Findings left alone because their key names a Dependency-Track project that is not one this
   * run synced into their product (a crafted or stale `unique_id_from_tool`): warned, never written.
   */
  readonly out_of_scope: number;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The FPF `matrix` DefectDojo keeps as the finding's `unique_id_from_tool`: project, component and vulnerability UUIDs. */
const MATRIX = new RegExp(`^(${UUID}):(${UUID}):(${UUID})$`, 'i');

/** Analyses Dependency-Track starts from, which a write-back may replace; any other was decided there and stays. */
const UNDECIDED = new Set([undefined, 'NOT_SET', 'IN_TRIAGE']);

/** The product (the project's name) of each synced project, with the project UUIDs synced into it (one per version). */
function projectsByProduct(synced: readonly Pick<DependencyTrackProject, 'uuid' | 'name'>[]): Map<string, Set<string>> {
  const byProduct = new Map<string, Set<string>>();
  for (const { uuid, name } of synced) {
    if (!byProduct.has(name)) byProduct.set(name, new Set());
    byProduct.get(name)!.add(uuid.toLowerCase());
  }
  return byProduct;
}

export function findingRefOf(uniqueIdFromTool: string): FindingRef | undefined {
  const m = MATRIX.exec(uniqueIdFromTool);
  return m ? { project: m[1]!.toLowerCase(), component: m[2]!.toLowerCase(), vulnerability: m[3]!.toLowerCase() } : undefined;
}

/**
 * DefectDojo's triage written back to Dependency-Track (`sources.dependencytrack.writeBackTriage`,
 * off by default): for each finding of the products marked false positive in DefectDojo, the
 * analysis `FALSE_POSITIVE`; for each whose risk is accepted there, `NOT_AFFECTED` (Dependency-Track
 * has no "accepted" state); each with a comment naming DefectDojo and the finding. Only an
 * analysis that is not set, or in triage, is written: a decision made in Dependency-Track is
 * never overwritten, and one already equal is not written again. Suppression is left as it is.
 * Only the projects this run synced are written to, each from its own product's findings: a
 * finding whose key names any other project (another team's, an inactive one) is skipped.
 */
export async function writeBackTriage(
  synced: readonly Pick<DependencyTrackProject, 'uuid' | 'name'>[],
  deps: { readonly dependencyTrack: DependencyTrackClient; readonly defectDojo: DefectDojoClient; readonly defectDojoUrl: string; readonly retry: RetryPolicy; readonly progress: Pick<Progress, 'warn'> },
): Promise<TriageReport> {
  const counts = { written: 0, unchanged: 0, kept: 0, failed: 0, out_of_scope: 0 };
  for (const [product, projects] of projectsByProduct(synced)) {
    let findings;
    try {
      findings = await retrying(() => deps.defectDojo.triagedFindings(product), deps.retry);
    } catch (err) {
      counts.failed++;
      deps.progress.warn(`triage write-back: the triaged findings of ${product} could not be listed: ${message(err)}`);
      continue;
    }
    for (const finding of findings) {
      const ref = findingRefOf(finding.uniqueIdFromTool);
      if (!ref) continue;
      // The key is data another team may have written: it never picks the project written to.
      if (!projects.has(ref.project)) {
        counts.out_of_scope++;
        deps.progress.warn(`triage write-back: DefectDojo finding ${finding.id} of ${product} names a Dependency-Track project this run did not sync into ${product}; skipped (out of scope)`);
        continue;
      }
      const state = finding.falseP ? 'FALSE_POSITIVE' : 'NOT_AFFECTED';
      const why = finding.falseP ? 'marked as a false positive' : 'had its risk accepted';
      try {
        const current = await retrying(() => deps.dependencyTrack.analysisState(ref), deps.retry);
        if (current === state) {
          counts.unchanged++;
          continue;
        }
        if (!UNDECIDED.has(current)) {
          counts.kept++;
          continue;
        }
        const comment = `Gatehouse: ${why} in DefectDojo (finding ${finding.id}: ${deps.defectDojoUrl}/finding/${finding.id}). Set the analysis again here to override; the sync never changes an analysis decided in Dependency-Track.`;
        await retrying(() => deps.dependencyTrack.recordAnalysis(ref, state, comment), deps.retry);
        counts.written++;
      } catch (err) {
        counts.failed++;
        deps.progress.warn(`triage write-back: DefectDojo finding ${finding.id} of ${product}: ${message(err)}`);
      }
    }
  }
  return counts;
}
