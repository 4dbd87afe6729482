import type { DefectDojoClient } from '../defectdojo/client.js';
import type { RetryPolicy } from '../../http/retry.js';
import { retryTransient } from '../../http/call-errors.js';
import { message } from '../../errors.js';
import type { Progress, TriageCounts } from '../report.js';
import type { DependencyTrackClient, FindingRef } from './client.js';
import type { SyncedProject } from './sync.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The FPF `matrix` DefectDojo keeps as the finding's `unique_id_from_tool`: project, component and vulnerability UUIDs. */
const MATRIX = new RegExp(`^(${UUID}):(${UUID}):(${UUID})$`, 'i');

/** Analyses Dependency-Track starts from, which a write-back may replace; any other was decided there and stays. */
const UNDECIDED = new Set([undefined, 'NOT_SET', 'IN_TRIAGE']);

/** Per product (the project's name): the project UUIDs synced into it (one per version), and what their exports folded. */
function byProduct(synced: readonly SyncedProject[]): Map<string, { projects: Set<string>; foldedInto: Map<string, readonly string[]> }> {
  const products = new Map<string, { projects: Set<string>; foldedInto: Map<string, readonly string[]> }>();
  for (const { project, foldedInto } of synced) {
    const entry = products.get(project.name) ?? products.set(project.name, { projects: new Set(), foldedInto: new Map() }).get(project.name)!;
    entry.projects.add(project.uuid.toLowerCase());
    for (const [kept, others] of foldedInto) entry.foldedInto.set(kept.toLowerCase(), others);
  }
  return products;
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
 * finding whose key names any other project (another team's, an inactive one) is skipped. A
 * finding the export folded others into (`fold-aliases.ts`) writes the same analysis to each of them.
 */
export async function writeBackTriage(
  synced: readonly SyncedProject[],
  deps: { readonly dependencyTrack: DependencyTrackClient; readonly defectDojo: DefectDojoClient; readonly defectDojoUrl: string; readonly retry: RetryPolicy; readonly progress: Pick<Progress, 'warn'> },
): Promise<TriageCounts> {
  const counts = { written: 0, unchanged: 0, kept: 0, failed: 0, out_of_scope: 0 };
  for (const [product, { projects, foldedInto }] of byProduct(synced)) {
    let findings;
    try {
      findings = await retryTransient(() => deps.defectDojo.triagedFindings(product), deps.retry);
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
      // The findings folded into this one (its aliases) are the same vulnerability: they get the same analysis.
      const aliases = (foldedInto.get(finding.uniqueIdFromTool.toLowerCase()) ?? []).map(findingRefOf).filter((r): r is FindingRef => r?.project === ref.project);
      for (const target of [ref, ...aliases]) {
        const outcome = await writeOne(target, finding, deps);
        if (outcome instanceof Error) {
          counts.failed++;
          deps.progress.warn(`triage write-back: DefectDojo finding ${finding.id} of ${product}: ${message(outcome)}`);
        } else counts[outcome]++;
      }
    }
  }
  return counts;
}

/** One Dependency-Track finding's analysis, written when it is undecided; the error when it could not be. */
async function writeOne(
  ref: FindingRef,
  finding: { readonly id: number; readonly falseP: boolean },
  deps: { readonly dependencyTrack: DependencyTrackClient; readonly defectDojoUrl: string; readonly retry: RetryPolicy },
): Promise<'written' | 'unchanged' | 'kept' | Error> {
  const state = finding.falseP ? 'FALSE_POSITIVE' : 'NOT_AFFECTED';
  const why = finding.falseP ? 'marked as a false positive' : 'had its risk accepted';
  try {
    const current = await retryTransient(() => deps.dependencyTrack.analysisState(ref), deps.retry);
    if (current === state) return 'unchanged';
    if (!UNDECIDED.has(current)) return 'kept';
    const comment = `Gatehouse: ${why} in DefectDojo (finding ${finding.id}: ${deps.defectDojoUrl}/finding/${finding.id}). Set the analysis again here to override; the sync never changes an analysis decided in Dependency-Track.`;
    await retryTransient(() => deps.dependencyTrack.recordAnalysis(ref, state, comment), deps.retry);
    return 'written';
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
