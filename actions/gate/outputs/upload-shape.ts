import type { Finding } from '../rules/classify.js';
import type { SarifRun } from '../reports/sarif.js';
import { SEVERITIES } from '../rules/severity.js';

/**
 * What code scanning accepts in one upload (GitHub's "SARIF support for code scanning"): more
 * runs or results are refused whole ("rejecting SARIF, as there are more runs than allowed").
 */
const CODE_SCANNING_LIMITS = { runsPerFile: 20, resultsPerRun: 25_000 } as const;

/** The category given to the extra parts of a run that has none of its own. */
const DEFAULT_CATEGORY = 'gatehouse-net-new';

/** One run of the filtered SARIF: a report run's metadata with some of its net-new results. */
interface RunPart {
  readonly runIndex: number;
  /** Net-new findings of that run, in report order. */
  readonly findings: readonly Finding[];
  /** Set when this part needs its own category (`automationDetails.id`) to stay distinct. */
  readonly automationId?: string;
}

interface UploadShape {
  /** The runs to write, in report order; never empty when the report has a run. */
  readonly parts: readonly RunPart[];
  /** Net-new findings left out of the file by the runs-per-file limit. */
  readonly leftOut: number;
}

/**
 * The identity code scanning gives a run: since July 2025 an upload whose runs share it is
 * refused ("multiple SARIF runs with the same category"). codeql-action's upload-sarif builds it
 * from these driver fields and `automationDetails.id`, before its `category` input is applied.
 */
function runKey(run: SarifRun): string {
  const d = run.tool.driver as Record<string, unknown>;
  const automation = (run.automationDetails as { id?: unknown } | undefined)?.id;
  return JSON.stringify([d.name, d.fullName, d.version, d.semanticVersion, d.guid, automation]);
}

/** `automationDetails.id` for the n-th part (n ≥ 2) of a run: a category of its own. */
function partCategory(run: SarifRun, n: number): string {
  const own = (run.automationDetails as { id?: unknown } | undefined)?.id;
  // The category is what precedes the last '/': ending the id with '/' makes all of it the category.
  const base = typeof own === 'string' && own ? (own.endsWith('/') ? own : `${own}/`) : `${DEFAULT_CATEGORY}/`;
  return `${base}part-${n}/`;
}

const rank = (part: RunPart): number => part.findings.reduce((worst, f) => Math.min(worst, SEVERITIES.indexOf(f.severity)), SEVERITIES.length);

/**
 * Decides the runs of the filtered SARIF so that code scanning takes it as it is:
 * - a run without net-new results is left out (MegaLinter writes one run per linter, most of them
 *   empty, often more than 20); when no run has any, the report's first run is kept, empty, because
 *   an upload needs at least one run;
 * - a run with more than 25,000 net-new results is cut into parts of at most 25,000;
 * - a part whose run identity (`runKey`) is already taken gets a category of its own,
 *   `<its automationDetails.id, else gatehouse-net-new>/part-<n>/`;
 * - past 20 parts, those holding the worst findings are kept (severity, then report order) and
 *   the others' results are counted as left out: the gate's answer and the summary still hold them.
 */
export function shapeForUpload(runs: readonly SarifRun[], netNew: readonly Finding[]): UploadShape {
  const byRun = new Map<number, Finding[]>();
  for (const finding of netNew) {
    const list = byRun.get(finding.runIndex);
    if (list) list.push(finding);
    else byRun.set(finding.runIndex, [finding]);
  }
  if (byRun.size === 0) return { parts: runs.length > 0 ? [{ runIndex: 0, findings: [] }] : [], leftOut: 0 };

  const seen = new Map<string, number>();
  const parts: RunPart[] = [];
  for (const [runIndex, findings] of [...byRun].sort((a, b) => a[0] - b[0])) {
    const run = runs[runIndex]!;
    const key = runKey(run);
    for (let start = 0; start < findings.length; start += CODE_SCANNING_LIMITS.resultsPerRun) {
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const slice = findings.slice(start, start + CODE_SCANNING_LIMITS.resultsPerRun);
      parts.push({ runIndex, findings: slice, ...(n > 1 ? { automationId: partCategory(run, n) } : {}) });
    }
  }
  if (parts.length <= CODE_SCANNING_LIMITS.runsPerFile) return { parts, leftOut: 0 };

  const kept = new Set(
    parts
      .map((part, order) => ({ part, order, rank: rank(part) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .slice(0, CODE_SCANNING_LIMITS.runsPerFile)
      .map((p) => p.part),
  );
  const leftOut = parts.filter((p) => !kept.has(p)).reduce((n, p) => n + p.findings.length, 0);
  return { parts: parts.filter((p) => kept.has(p)), leftOut };
}
