import pLimit from 'p-limit';
import type { SourceName } from './config.js';
import type { ReimportCounts } from './defectdojo/statistics.js';

export type ItemStatus = 'synced' | 'failed' | 'skipped';

/** One reimport: a Dependency-Track project, or one alert kind of one repository. */
export interface ItemResult {
  /** How the operator knows it: `name version`, or `owner/repo code-scanning`. */
  readonly label: string;
  readonly product: string;
  readonly engagement: string;
  readonly test: string;
  readonly scan_type: string;
  readonly status: ItemStatus;
  /** Findings in the report sent; absent when nothing was sent. */
  readonly findings?: number;
  /**
   * The report was not sent: its digest equals that of the last report imported into its test
   * (`defectdojo/digests.ts`). The item still counts as synced (DefectDojo holds this report).
   */
  readonly unchanged?: true;
  /** DefectDojo's own counts of what the reimport changed, when it gave them. */
  readonly counts?: ReimportCounts;
  /** Why it failed or was skipped. */
  readonly reason?: string;
  /** What the operator should know even when it synced (a product found under another product type). */
  readonly notes?: readonly string[];
  readonly attempts: number;
}

/** `notes` for an item result, left out when there is none; repeated notes (retries) once. */
export function notesOf(notes: readonly string[]): { notes?: readonly string[] } {
  return notes.length > 0 ? { notes: [...new Set(notes)] } : {};
}

/** Item counts, and the sums of DefectDojo's own counts of the reimports. */
export interface Totals extends ReimportCounts {
  readonly items: number;
  readonly synced: number;
  readonly failed: number;
  readonly skipped: number;
  /** Synced items whose report was unchanged, so not sent. */
  readonly unchanged: number;
  readonly findings: number;
}

export interface SourceReport {
  /** The CLI command of the connector that ran. */
  readonly command: string;
  readonly source: SourceName;
  /** True when every item synced or was skipped for a stated reason, and nothing failed before them. */
  readonly ok: boolean;
  /** A failure before any item could start (for example, the project list could not be read). */
  readonly error?: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly duration_ms: number;
  readonly totals: Totals;
  readonly items: readonly ItemResult[];
  /** DefectDojo's triage written back to Dependency-Track (`sources.dependencytrack.writeBackTriage`). */
  readonly triage?: TriageCounts;
}

/** What a triage write-back did (`dependency-track/triage.ts`). */
export interface TriageCounts {
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

/** What a running sync tells the operator as it goes. */
export interface Progress {
  started(total: number): void;
  item(index: number, total: number, result: ItemResult): void;
  retry(label: string, error: Error, retry: number, delayMs: number): void;
  warn(message: string): void;
}

function totalsOf(items: readonly ItemResult[]): Totals {
  const sum = (pick: (i: ItemResult) => number | undefined) => items.reduce((n, i) => n + (pick(i) ?? 0), 0);
  return {
    items: items.length,
    synced: items.filter((i) => i.status === 'synced').length,
    failed: items.filter((i) => i.status === 'failed').length,
    skipped: items.filter((i) => i.status === 'skipped').length,
    unchanged: items.filter((i) => i.unchanged === true).length,
    findings: sum((i) => i.findings),
    created: sum((i) => i.counts?.created),
    closed: sum((i) => i.counts?.closed),
    reactivated: sum((i) => i.counts?.reactivated),
    untouched: sum((i) => i.counts?.untouched),
  };
}

/** Syncs every item (`syncEachKind` with one kind), `concurrency` at a time, telling `progress` as each ends; results in the items' order. */
export function syncEach<T>(items: readonly T[], concurrency: number, progress: Progress, syncOne: (item: T) => Promise<ItemResult>): Promise<ItemResult[]> {
  return syncEachKind(items, [undefined], concurrency, progress, (item) => () => syncOne(item));
}

/**
 * `syncEach` for items of several kinds each (a project's issues and hotspots, a repository's
 * alert kinds): the items `concurrency` at a time, one item's kinds one after another, so two of
 * them never both create its product. `forItem` is called as an item starts and answers how each
 * of its kinds syncs (with what the kinds of one item share). Results in the items' order.
 */
export async function syncEachKind<T, K>(
  items: readonly T[],
  kinds: readonly K[],
  concurrency: number,
  progress: Progress,
  forItem: (item: T) => (kind: K) => Promise<ItemResult>,
): Promise<ItemResult[]> {
  const total = items.length * kinds.length;
  progress.started(total);
  const limit = pLimit(concurrency);
  let done = 0;
  const perItem = await Promise.all(
    items.map((item) =>
      limit(async () => {
        const syncKind = forItem(item);
        const results: ItemResult[] = [];
        for (const kind of kinds) {
          const result = await syncKind(kind);
          progress.item(++done, total, result);
          results.push(result);
        }
        return results;
      }),
    ),
  );
  return perItem.flat();
}

export function finishReport(
  base: { command: SourceReport['command']; source: SourceName; startedAt: Date; error?: string },
  items: readonly ItemResult[],
  now: Date = new Date(),
): SourceReport {
  const totals = totalsOf(items);
  return {
    command: base.command,
    source: base.source,
    ok: base.error === undefined && totals.failed === 0,
    ...(base.error !== undefined ? { error: base.error } : {}),
    started_at: base.startedAt.toISOString(),
    finished_at: now.toISOString(),
    duration_ms: now.getTime() - base.startedAt.getTime(),
    totals,
    items,
  };
}

function countsText(counts: ReimportCounts | undefined): string {
  return counts ? `created ${counts.created}, closed ${counts.closed}, reactivated ${counts.reactivated}, untouched ${counts.untouched}` : 'no statistics in the answer';
}

/** Plain progress lines for a person watching (stderr of the CLI, the action's log). */
export function humanProgress(source: SourceName, noun: string, write: (line: string) => void): Progress {
  return {
    started: (total) => write(`[${source}] ${total} ${noun}${total === 1 ? '' : 's'} to sync`),
    item: (index, total, r) => {
      const head = `[${source}] ${noun} ${index} of ${total}: ${r.label}`;
      if (r.unchanged) write(`${head}: unchanged since the last import; not sent`);
      else if (r.status === 'synced') write(`${head}: ${r.findings ?? '?'} findings sent; ${countsText(r.counts)}`);
      else write(`${head}: ${r.status.toUpperCase()}: ${r.reason ?? ''}`);
      for (const note of r.notes ?? []) write(`[${source}] note: ${r.label}: ${note}`);
    },
    retry: (label, error, retry, delayMs) => write(`[${source}] ${label}: ${error.message}; retry ${retry} in ${(delayMs / 1000).toFixed(1)} s`),
    warn: (text) => write(`[${source}] ${text}`),
  };
}

/**
 * Progress for a log with levels (the sync service): a failed item and a warning at `warn`, so an
 * alert on warn and above sees every item that did not sync; the rest at `info`.
 */
export function leveledProgress(source: SourceName, noun: string, log: { info(line: string): void; warn(line: string): void }): Progress {
  const info = humanProgress(source, noun, (line) => log.info(line));
  const warn = humanProgress(source, noun, (line) => log.warn(line));
  return {
    started: info.started,
    item: (index, total, result) => (result.status === 'failed' ? warn : info).item(index, total, result),
    retry: info.retry,
    warn: warn.warn,
  };
}

/** How bad a closing line is: the totals of a failed run and what stopped it are errors, each failed item a warning. */
export type SummaryLevel = 'info' | 'warn' | 'error';

/** The closing lines with their levels: totals, then every failure with its reason, then the notes. */
export function summaryEntries(report: SourceReport): { readonly level: SummaryLevel; readonly text: string }[] {
  const t = report.totals;
  const line = (level: SummaryLevel, text: string) => ({ level, text: `[${report.source}] ${text}` });
  const entries = [
    line(
      report.ok ? 'info' : 'error',
      `${report.ok ? 'done' : 'FAILED'} in ${(report.duration_ms / 1000).toFixed(1)} s: ${t.synced} synced (${t.unchanged} unchanged, not sent), ${t.failed} failed, ${t.skipped} skipped; ${t.findings} findings sent; created ${t.created}, closed ${t.closed}, reactivated ${t.reactivated}, untouched ${t.untouched}`,
    ),
  ];
  if (report.error) entries.push(line('error', report.error));
  if (report.triage) {
    const tr = report.triage;
    entries.push(line(tr.failed > 0 ? 'warn' : 'info', `triage written back to Dependency-Track: ${tr.written} written, ${tr.unchanged} already so, ${tr.kept} kept (decided in Dependency-Track), ${tr.failed} failed, ${tr.out_of_scope} out of scope (skipped)`));
  }
  for (const item of report.items.filter((i) => i.status === 'failed')) entries.push(line('warn', `failed: ${item.label}: ${item.reason ?? ''}`));
  for (const item of report.items) for (const note of item.notes ?? []) entries.push(line('info', `note: ${item.label}: ${note}`));
  return entries;
}

/** The closing lines, without their levels. */
export function summaryLines(report: SourceReport): string[] {
  return summaryEntries(report).map((e) => e.text);
}
