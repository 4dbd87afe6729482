import { REASON_TEXT, REASONS, type NotCounted, type Reason } from '../rules/not-counted.js';
import { inlineText } from '../../../server/markdown.js';

/*
 * "Not counted, and why" as the outputs show it: one entry per result that is not net-new in the
 * counts document, and in the job summary the count per reason with the first findings of each in
 * a collapsed section. Text the report chose is escaped there: HTML, markdown and mentions.
 */

/** One entry of `not_counted` in the counts document. */
export interface NotCountedEntry {
  readonly reason: Reason;
  readonly tool: string;
  readonly rule?: string;
  readonly severity: string;
  readonly path?: string;
  readonly line?: number;
  /** The result's run (index in `runs`) and position in that run's `results`. */
  readonly run: number;
  readonly result: number;
  readonly moved_from?: { path: string; line: number };
  readonly baseline?: { rule?: string; path?: string; line?: number; fingerprint: string };
  readonly bump?: { package: string; base_version: string; head_version?: string; fixed_version: string; crosses_major: boolean };
  readonly package?: { name: string; version?: string };
  readonly suppression?: { kind?: string; status?: string; justification?: string };
  readonly path_as_written?: string;
  readonly kind?: string;
  readonly baseline_state?: string;
}

/**
 * The entry as written. Fields that are not known are left undefined, which JSON.stringify leaves
 * out: one object a result, no copying (a report may have a hundred thousand of them).
 */
export function entryOf(n: NotCounted): NotCountedEntry {
  const d = n.detail;
  const entry: { -readonly [K in keyof NotCountedEntry]: NotCountedEntry[K] } = {
    reason: n.reason,
    tool: n.tool,
    rule: n.ruleId,
    severity: n.severity,
    path: n.path,
    line: n.line,
    run: n.runIndex,
    result: n.index,
  };
  if (!d) return entry;
  if ('movedFrom' in d) entry.moved_from = { path: d.movedFrom.path, line: d.movedFrom.line };
  else if ('baseline' in d) entry.baseline = { rule: d.baseline.rule, path: d.baseline.path, line: d.baseline.line, fingerprint: d.baseline.fingerprint };
  else if ('bump' in d) entry.bump = { package: d.bump.package, base_version: d.bump.baseVersion, head_version: d.bump.headVersion, fixed_version: d.bump.fixedVersion, crosses_major: d.bump.crossesMajor };
  else if ('package' in d) entry.package = { name: d.package, version: d.version };
  else if ('suppression' in d) entry.suppression = { kind: d.suppression.kind, status: d.suppression.status, justification: d.suppression.justification };
  else if ('pathAsWritten' in d) entry.path_as_written = d.pathAsWritten;
  else {
    entry.kind = d.kind;
    entry.baseline_state = d.baselineState;
  }
  return entry;
}

/** Counts per reason, every reason present (zeros included), in the summary's order. */
export function countsByReason(notCounted: readonly NotCounted[]): Record<Reason, number> {
  const counts = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<Reason, number>;
  for (const n of notCounted) counts[n.reason]++;
  return counts;
}

/** At most `max` characters (code points), with an ellipsis when cut. */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max).join('')}…`;
}

/** What one entry says beside its place: the detail a reviewer checks the reason against. */
function detailText(n: NotCounted): string {
  const d = n.detail;
  if (!d) return '';
  if ('movedFrom' in d) return `moved from ${d.movedFrom.path}:${d.movedFrom.line}`;
  if ('baseline' in d) {
    const b = d.baseline;
    return `baseline: ${b.rule ?? 'no rule'} at ${b.path ? `${b.path}${b.line ? `:${b.line}` : ''}` : 'no file'}, matched by ${b.fingerprint}`;
  }
  if ('bump' in d) {
    const b = d.bump;
    return `${b.package} ${b.baseVersion} → ${b.headVersion ?? '?'}, fixed in ${b.fixedVersion}${b.crossesMajor ? ' (crosses a major version: check whether the base version was affected)' : ''}`;
  }
  if ('package' in d) return `package ${d.package}${d.version ? ` ${d.version}` : ''}`;
  if ('suppression' in d) {
    const s = d.suppression;
    return `suppression ${s.kind ?? '(no kind)'}${s.status ? ` (${s.status})` : ''}${s.justification ? `: ${s.justification}` : ''}`;
  }
  if ('pathAsWritten' in d) return `written as ${d.pathAsWritten}`;
  return [d.baselineState ? `baselineState ${d.baselineState}` : '', d.kind ? `kind ${d.kind}` : ''].filter(Boolean).join(', ');
}

/** How many findings of each reason the summary lists. */
export const LISTED_PER_REASON = 20;

/**
 * The summary's section: a table of counts per reason (those with any), then (with `list`, in the
 * job summary) the first `LISTED_PER_REASON` findings of each in one collapsed `<details>`
 * section. Empty when every result is net-new.
 */
export function notCountedSection(notCounted: readonly NotCounted[], list: boolean): string[] {
  if (notCounted.length === 0) return [];
  const counts = countsByReason(notCounted);
  const present = REASONS.filter((r) => counts[r] > 0);
  const lines = ['**Not counted, and why** (every result that is not net-new, by the rule that dropped it):', '', '| Reason | Results | Meaning |', '| --- | --- | --- |'];
  for (const r of present) lines.push(`| \`${r}\` | ${counts[r]} | ${REASON_TEXT[r]} |`);
  lines.push('');
  if (!list) return lines;
  lines.push('<details><summary>The first findings of each reason</summary>', '');
  for (const r of present) {
    const listed = notCounted.filter((n) => n.reason === r).slice(0, LISTED_PER_REASON);
    lines.push(`**${r}** (${listed.length} of ${counts[r]}):`, '');
    for (const n of listed) {
      const place = n.path ? `${n.path}${n.line ? `:${n.line}` : ''}` : '(no file)';
      const message = typeof n.result.message?.text === 'string' ? n.result.message.text.split('\n', 1)[0]! : '';
      const detail = detailText(n);
      lines.push(
        `- ${inlineText(cut(place, 300))} · ${n.severity} · ${inlineText(cut(n.tool, 100))}${n.ruleId ? ` ${inlineText(cut(n.ruleId, 200))}` : ''}${message ? ` · ${inlineText(cut(message, 200))}` : ''}${detail ? ` · ${inlineText(cut(detail, 400))}` : ''}`,
      );
    }
    lines.push('');
  }
  lines.push('</details>', '');
  return lines;
}
