import type { SarifResult, SarifRule } from '../reports/sarif.js';

/*
 * The versions a dependency finding's own report says fix it, as each scanner writes them, and a
 * comparison of package versions good enough to tell "below the fix" across ecosystems (semver,
 * PEP 440, Debian and Alpine revisions).
 */

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A comma- or space-separated list of versions, as "Fixed Version: 4.5.13, 5.0.3"; none for "None" or nothing. */
function versionList(list: string): string[] {
  return list
    .split(/[,\s]+/)
    .map((v) => v.trim())
    .filter((v) => /^v?\d/.test(v));
}

/**
 * The fixed versions a result's report names: Trivy's `Fixed Version:` (in the message, or the
 * rule's help in its older template), grype's `Fix Version:` (the rule's help), Snyk's
 * "Upgrade `name` to version X or higher" (the rule's help), osv-scanner's "Fixed Versions" table
 * (the rule's help: `| id | package | version |`). Empty when the report names none.
 */
export function fixedVersionsOf(result: SarifResult, rule: SarifRule | undefined, packageNames: readonly string[]): string[] {
  const help = rule?.help as { text?: unknown; markdown?: unknown } | undefined;
  const texts = [text(result.message?.text), text(help?.text), text(help?.markdown)];
  const found: string[] = [];
  for (const t of texts) {
    for (const m of t.matchAll(/^\s*(?:Fixed Version|Fix Version)s?: *(.*)$/gim)) found.push(...versionList(m[1]!));
    for (const m of t.matchAll(/Upgrade `([^`]+)` to version (\S+?) or higher/g)) {
      if (packageNames.some((n) => sameName(n, m[1]!))) found.push(...versionList(m[2]!));
    }
    const table = /#+\s*Fixed Versions?\s*\n([\s\S]*?)(?:\n#|\n\s*\n(?!\|)|$)/i.exec(t)?.[1];
    if (table) {
      for (const row of table.split('\n')) {
        const cells = row.split('|').map((c) => c.trim()).filter(Boolean);
        if (cells.length >= 3 && packageNames.some((n) => sameName(n, cells[1]!))) found.push(...versionList(cells[2]!));
      }
    }
  }
  return [...new Set(found)];
}

function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[-_.]+/g, '-');
  return norm(a) === norm(b) || norm(a).endsWith(`/${norm(b)}`) || norm(b).endsWith(`/${norm(a)}`);
}

/** A version's parts: an epoch, then runs of digits and of letters, separators dropped (`1:1.2.3-r4` → [1, 1, 2, 3, 'r', 4]). */
function partsOf(version: string): (number | string)[] {
  const v = version.trim().replace(/^v(?=\d)/i, '');
  const epoch = /^(\d+):/.exec(v);
  const rest = epoch ? v.slice(epoch[0].length) : v;
  return [Number(epoch?.[1] ?? 0), ...[...rest.matchAll(/\d+|[A-Za-z]+/g)].map((m) => (/^\d/.test(m[0]) ? Number(m[0]) : m[0].toLowerCase()))];
}

/**
 * Orders two versions: numbers numerically, words alphabetically, a number after a word; a version
 * that goes on with a word after the other ends is a pre-release of it (`1.0.0-rc1` < `1.0.0`),
 * one that goes on with a number is later (`1.0` < `1.0.1`).
 */
export function compareVersions(a: string, b: string): number {
  const x = partsOf(a);
  const y = partsOf(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined) return typeof q === 'string' ? 1 : -1;
    if (q === undefined) return typeof p === 'string' ? -1 : 1;
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    if (typeof p === 'string' && typeof q === 'string') return p < q ? -1 : 1;
    return typeof p === 'number' ? 1 : -1;
  }
  return 0;
}

/** A version's major: its first number after the epoch. */
export function majorOf(version: string): number | string | undefined {
  return partsOf(version)[1];
}

/**
 * The fix `version` is below, when it is below the fix: the fixed version of its own release line
 * (the same major, when the report names fixes for several lines), else below every fixed version
 * (then the lowest). Undefined when it is not below the fix.
 */
export function fixAbove(version: string, fixed: readonly string[]): string | undefined {
  if (fixed.length === 0) return undefined;
  const line = fixed.filter((f) => majorOf(f) === majorOf(version));
  const relevant = line.length > 0 ? line : fixed;
  if (!relevant.every((f) => compareVersions(version, f) < 0)) return undefined;
  return [...relevant].sort(compareVersions)[0];
}

/** Whether `version` is below the fix (see `fixAbove`). */
export function belowFix(version: string, fixed: readonly string[]): boolean {
  return fixAbove(version, fixed) !== undefined;
}
