import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NO_SARIF_LINTERS } from './no-sarif-linters.js';
import type { SarifLog, SarifRun } from './sarif.js';

/** Where MegaLinter mounts the workspace in its container: a path under one is a repository path. */
export const CONTAINER_ROOTS: readonly string[] = ['/tmp/lint/', '/github/workspace/'];

export interface SkippedLinter {
  readonly linter: string;
  readonly reason: string;
}

/**
 * The MegaLinter linter key of a run: `properties.megalinter.linterKey`, else the driver-name
 * suffix `(MegaLinter KEY)` (which some versions write twice). SBOM runs carry no key: not linters.
 */
export function linterKeyOf(run: SarifRun): string | undefined {
  const megalinter = run.properties?.megalinter as { linterKey?: unknown } | undefined;
  if (typeof megalinter?.linterKey === 'string' && megalinter.linterKey) return megalinter.linterKey;
  const match = /\(MegaLinter ([A-Z0-9_]+)\)/.exec(run.tool.driver.name ?? '');
  return match?.[1];
}

/** A major version from MegaLinter's version texts: `v8`, `v7.10.0`, `8.3.0`, never `latest` or `beta`. */
const VERSION = /^v?(\d+)(?:\.\d+){0,2}$/;

/**
 * The MegaLinter major version that wrote the report: its image's build version (`v6`, `v7.10.0`),
 * else the last path segment of a docs URL (`https://megalinter.io/8.3.0`,
 * `https://oxsecurity.github.io/megalinter/v6.6.0`), the report's own, then its runs'
 * (`…/7.9.0/descriptors/bash_shellcheck`).
 */
export function megalinterMajor(log: SarifLog): number | undefined {
  const image = (log.properties?.dockerImage as { buildVersion?: unknown } | undefined)?.buildVersion;
  if (typeof image === 'string' && VERSION.test(image.trim())) return Number(VERSION.exec(image.trim())![1]);
  const urls = [log.properties?.docUrl, ...log.runs.map((run) => (run.properties?.megalinter as { docUrl?: unknown } | undefined)?.docUrl)];
  for (const url of urls) {
    if (typeof url !== 'string') continue;
    for (const segment of url.split(/[/?#]/)) {
      const match = VERSION.exec(segment);
      if (match) return Number(match[1]);
    }
  }
  return undefined;
}

/** A report MegaLinter merged: its comment or image says so, or a run carries a linter key. */
function isMegalinterReport(log: SarifLog): boolean {
  const comment = log.properties?.comment;
  return (typeof comment === 'string' && /MegaLinter/i.test(comment)) || log.properties?.dockerImage !== undefined || log.runs.some((run) => linterKeyOf(run) !== undefined);
}

/** The table of a major version: an older report uses the oldest table, an unknown or newer one the newest. */
function tableFor(major: number | undefined): { version: number; table: ReadonlySet<string> } {
  const versions = Object.keys(NO_SARIF_LINTERS).map(Number).sort((a, b) => a - b);
  const version = major === undefined ? versions.at(-1)! : major < versions[0]! ? versions[0]! : (versions.filter((v) => v <= major).at(-1) ?? versions.at(-1)!);
  return { version, table: NO_SARIF_LINTERS[version]! };
}

/**
 * Enabled linters that cannot reach the merged SARIF: their descriptor lacks `can_output_sarif`,
 * or `SARIF_REPORTER_LINTERS` leaves them out. They are skipped by name, with the reason, and
 * yield no findings.
 */
export function skippedLinters(enabled: readonly string[] | undefined, major: number | undefined, sarifLinters?: readonly string[]): SkippedLinter[] {
  if (!enabled) return [];
  const { version, table } = tableFor(major);
  const skipped: SkippedLinter[] = [];
  for (const linter of [...new Set(enabled)].sort()) {
    if (table.has(linter)) skipped.push({ linter, reason: `MegaLinter v${version} cannot write SARIF for ${linter} (no can_output_sarif in its descriptor)` });
    else if (sarifLinters && !sarifLinters.includes(linter)) skipped.push({ linter, reason: `SARIF_REPORTER_LINTERS does not list ${linter}, so MegaLinter writes no SARIF for it` });
  }
  return skipped;
}

/**
 * Enabled linters that can write SARIF but have no run in the report. MegaLinter's SARIF reporter
 * merges the runs of each linter's own `sarif/<KEY>.sarif` and silently leaves out one that is
 * missing or is not JSON; it also has no run for a linter that had no file to lint. When the
 * linter's own file is beside the report, it was written but not merged: the reason says so.
 */
export function missingLinters(log: SarifLog, sarifPath: string, enabled: readonly string[] | undefined, skipped: readonly SkippedLinter[]): SkippedLinter[] {
  if (!enabled || !isMegalinterReport(log)) return [];
  const ran = new Set(log.runs.map(linterKeyOf).filter((k): k is string => k !== undefined));
  const notExpected = new Set(skipped.map((s) => s.linter));
  return [...new Set(enabled)]
    .filter((linter) => !ran.has(linter) && !notExpected.has(linter))
    .sort()
    .map((linter) => {
      const own = join(dirname(sarifPath), 'sarif', `${linter}.sarif`);
      return {
        linter,
        reason: existsSync(own)
          ? `enabled, but its SARIF file sarif/${linter}.sarif beside the report was not merged (MegaLinter leaves out a file it cannot read as JSON)`
          : 'enabled and able to write SARIF, but the report has no run of it (its SARIF file was not written, or it had no file to lint)',
      };
    });
}
