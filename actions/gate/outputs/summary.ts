import { codeSpan, codeSpanInCell, inlineText, link as markdownLink, scannerMessage } from '../../../server/markdown.js';
import type { CiOutcome } from '../ci.js';
import type { SkippedLinter } from '../reports/megalinter.js';
import { messageOf, type Finding } from '../rules/classify.js';
import { SEVERITIES } from '../rules/severity.js';
import { notCountedSection } from './not-counted.js';

/** A `blob/<head>/<path>#L<line>` link, so the finding opens at the commit the gate judged. */
function link(env: NodeJS.ProcessEnv, head: string | undefined, path: string, line: number | undefined): string {
  // A result without a file is net-new only by a baseline that lacks it.
  if (path === '') return '(no file)';
  const label = `${path}:${line ?? 1}`;
  if (!env.GITHUB_SERVER_URL || !env.GITHUB_REPOSITORY || !head) return codeSpanInCell(label);
  return markdownLink(label, `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/blob/${head}/${path.split('/').map(encodeURIComponent).join('/')}#L${line ?? 1}`);
}

/** How large a report may be, measured as its destination measures it. */
export interface ReportLimit {
  /** Table rows at most. */
  readonly maxRows: number;
  /** The most the whole text may measure, its final newline included. */
  readonly maxSize: number;
  readonly size: (text: string) => number;
  /** Whether the first findings of each "not counted" reason are listed (the job summary) or only their counts (the comment). */
  readonly listNotCounted?: boolean;
}

/** Unicode code points: what GitHub counts against a comment's 65,536 characters. */
export function codePoints(text: string): number {
  // A string iterates by code point: a surrogate pair is one step, a lone surrogate one too.
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The job summary: GitHub takes at most 1 MiB per step (UTF-8 bytes). */
export const SUMMARY_LIMIT: ReportLimit = { maxRows: 1000, maxSize: 1024 * 1024, size: (text) => Buffer.byteLength(text, 'utf8'), listNotCounted: true };

/** At most `max` code points of `text`, never half a surrogate pair. */
function cutCodePoints(text: string, max: number): string {
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) {
    const c = text.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}

/**
 * The net-new findings worst first (severity, then report order). The summary, the comment and
 * the annotations each show a prefix of this one ranking.
 */
export function rankFindings(outcome: CiOutcome): readonly Finding[] {
  // Array.prototype.sort is stable: equal severities stay in report order.
  return [...(outcome.classification?.netNew ?? [])].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/**
 * The job summary and the pull-request comment: findings by severity (worst first, then report
 * order), warnings, missing and skipped linters, results not in the repository, counts. The table is cut to what `limit` allows, with a line saying how
 * many rows were left out; everything else is always there.
 */
export function gateReport(
  outcome: CiOutcome,
  env: NodeJS.ProcessEnv,
  limit: ReportLimit = SUMMARY_LIMIT,
  findings: readonly Finding[] = rankFindings(outcome),
  /** Lines about findings without an inline comment (the review mode's). */
  notes: readonly string[] = [],
): string {
  const c = outcome.counts;
  const cautions = c.warnings.length + c.linters_missing.length;
  const status = outcome.exitCode === 0 ? (cautions > 0 ? '✅ passed, with warnings' : '✅ passed') : outcome.exitCode === 1 ? '❌ blocked' : '⚠️ no answer';
  const head = [`### Gatehouse gate: ${status}`, '', inlineText(outcome.message), ''];
  const tail: string[] = [];
  const list = (title: string, items: readonly string[]) => {
    if (items.length > 0) tail.push(title, '', ...items.map((item) => `- ${item}`), '');
  };
  const linter = (l: SkippedLinter) => `${codeSpan(l.linter)}: ${inlineText(l.reason)}`;
  list('**Warnings**:', c.warnings.map(inlineText));
  list('**Linters missing** (enabled, but no run in the report, so no findings):', c.linters_missing.map(linter));
  list('**Linters skipped** (no SARIF output, so no findings):', c.linters_skipped.map(linter));
  if (c.unmapped_count > 0) {
    const examples = (outcome.classification?.unmappedExamples ?? []).map(codeSpan).join(', ');
    tail.push(`**Not in the repository**: ${c.unmapped_count} result${c.unmapped_count === 1 ? '' : 's'} name a file that the head commit does not have, so they were not judged${examples ? ` (for example ${examples})` : ''}.`, '');
  }
  if (c.unattributed_count > 0) {
    const n = c.unattributed_count;
    tail.push(`${n} finding${n === 1 ? '' : 's'} without a line in a changed file name${n === 1 ? 's' : ''} no package: net-new unless \`unattributed-dependency\` is \`pre-existing\`.`, '');
  }
  if (c.moved_count > 0) tail.push(`${c.moved_count} finding${c.moved_count === 1 ? ' is' : 's are'} on lines that only moved (or changed indentation or line endings): pre-existing.`, '');
  for (const note of notes) tail.push(note, '');
  tail.push(...notCountedSection(outcome.classification?.notCounted ?? [], limit.listNotCounted === true));
  if (c.filtered_left_out_count > 0) {
    tail.push(`${c.filtered_left_out_count} net-new result${c.filtered_left_out_count === 1 ? ' is' : 's are'} not in the filtered SARIF: code scanning takes at most 20 runs per upload, and the runs with the worst findings were kept.`, '');
  }
  tail.push(
    '| Net-new | Blocking | Pre-existing | Suppressed | SOPS-encrypted | Without location | Not in repository | Not findings | Total | Fail on |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${c.net_new_count} | ${c.blocking_count} | ${c.pre_existing_count} | ${c.suppressed_count} | ${c.sops_ignored_count} | ${c.no_location_count} | ${c.unmapped_count} | ${c.not_a_finding_count} | ${c.total_count} | ${c.fail_on} |`,
    '',
  );

  const table: string[] = [];
  if (findings.length > 0) {
    const header = ['| Severity | Blocking | Location | Tool | Rule | Message |', '| --- | --- | --- | --- | --- | --- |'];
    const leftOutLine = (n: number) => `… ${n} more row${n === 1 ? '' : 's'} left out of ${findings.length} (see the filtered SARIF).`;
    // Lines are joined with '\n' and the text ends with one: each line costs its size plus one.
    const cost = (lines: readonly string[]) => lines.reduce((n, line) => n + limit.size(line) + 1, 0);
    // The room for rows keeps space for the left-out line at its longest.
    let room = limit.maxSize - cost(head) - cost(tail) - cost(header) - cost(['', leftOutLine(findings.length), '']);
    const candidates = findings.slice(0, limit.maxRows);
    const rows: string[] = [];
    for (const f of candidates) {
      const message = cutCodePoints(messageOf(f), 200);
      const row = `| ${f.severity} | ${f.blocking ? 'yes' : 'no'} | ${link(env, outcome.diff?.head, f.path, f.startLine)} | ${inlineText(f.tool)} | ${inlineText(f.ruleId ?? '')} | ${scannerMessage(message)} |`;
      room -= limit.size(row) + 1;
      if (room < 0) break;
      rows.push(row);
    }
    table.push(...header, ...rows);
    if (rows.length < findings.length) table.push('', leftOutLine(findings.length - rows.length));
    table.push('');
  }
  const text = [...head, ...table, ...tail].join('\n');
  // The parts above are bounded by the room left for rows; only a huge message of the gate's own
  // (head) or a huge list of skipped linters (tail) could still overflow: cut the text then.
  return limit.size(`${text}\n`) <= limit.maxSize ? text : cutToSize(text, limit);
}

function cutToSize(text: string, limit: ReportLimit): string {
  let low = 0;
  let high = codePoints(text);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (limit.size(`${cutCodePoints(text, mid)}\n`) <= limit.maxSize) low = mid;
    else high = mid - 1;
  }
  return cutCodePoints(text, low);
}
