import { createHash } from 'node:crypto';
import { normalisedLine } from '../diff/git-diff.js';
import type { Finding } from '../rules/classify.js';

/** Path, then line. */
export const byPlace = (a: Finding, b: Finding): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : (a.startLine ?? 0) - (b.startLine ?? 0));

/**
 * A finding's identity across pushes: its rule, its path and the text of its line, whitespace
 * normalised, never its line number, so a finding that moves keeps it. Two findings of one rule
 * on identical lines of one file are told apart by their order in the file (`-2`, `-3`, …).
 * `lineText` reads a line of the head commit (undefined when it cannot).
 */
export function fingerprints(findings: readonly Finding[], lineText: (path: string, line: number) => string | undefined): Map<Finding, string> {
  const seen = new Map<string, number>();
  const inPlaceOrder = [...findings].sort(byPlace);
  const result = new Map<Finding, string>();
  for (const finding of inPlaceOrder) {
    const text = finding.startLine === undefined ? '' : normalisedLine(lineText(finding.path, finding.startLine) ?? '');
    const base = createHash('sha256').update(`${finding.ruleId ?? ''}\0${finding.path}\0${text}`).digest('hex').slice(0, 24);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    result.set(finding, n === 1 ? base : `${base}-${n}`);
  }
  return result;
}
