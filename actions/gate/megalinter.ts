import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SARIF_LINTERS } from './no-sarif-linters.js';
import type { SarifLog, SarifRun } from './sarif.js';

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

/** The MegaLinter major version that wrote the report (its image's build version or a docs URL). */
export function megalinterMajor(log: SarifLog): number | undefined {
  const image = (log.properties?.dockerImage as { buildVersion?: unknown } | undefined)?.buildVersion;
  const doc = log.properties?.docUrl;
  for (const text of [image, doc]) {
    const match = typeof text === 'string' ? /v?(\d+)\.\d+\.\d+/.exec(text) : null;
    if (match) return Number(match[1]);
  }
  return undefined;
}

function keysFrom(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.map((k) => String(k).trim()).filter((k) => /^[A-Z0-9_]+$/.test(k));
}

/**
 * The enabled linters: `--linters`, else MegaLinter's `ENABLE_LINTERS` setting, else the
 * `ENABLE_LINTERS` of `.mega-linter.yml` in the repository. Undefined when none says. The YAML
 * parser is loaded only when that file is read: it is most of the gate's code, and most runs
 * never need it.
 */
export async function enabledLinters(option: string | undefined, env: NodeJS.ProcessEnv, repo: string): Promise<string[] | undefined> {
  if (option !== undefined) return keysFrom(option);
  if (env.ENABLE_LINTERS?.trim()) return keysFrom(env.ENABLE_LINTERS);
  for (const name of ['.mega-linter.yml', '.mega-linter.yaml']) {
    const file = join(repo, name);
    if (!existsSync(file)) continue;
    const { parse } = await import(/* webpackChunkName: "yaml" */ 'yaml');
    const config = parse(readFileSync(file, 'utf8')) as { ENABLE_LINTERS?: unknown } | null;
    if (config?.ENABLE_LINTERS !== undefined) return keysFrom(config.ENABLE_LINTERS);
  }
  return undefined;
}

/**
 * Enabled linters that cannot reach the merged SARIF (their descriptor lacks `can_output_sarif`):
 * they are skipped by name, with the reason, and yield no findings.
 */
export function skippedLinters(enabled: readonly string[] | undefined, major: number | undefined): SkippedLinter[] {
  if (!enabled) return [];
  // An older report uses the oldest table, an unknown or newer one the newest.
  const versions = Object.keys(NO_SARIF_LINTERS).map(Number).sort((a, b) => a - b);
  const version = major === undefined ? versions.at(-1)! : major < versions[0]! ? versions[0]! : (versions.filter((v) => v <= major).at(-1) ?? versions.at(-1)!);
  const table = NO_SARIF_LINTERS[version]!;
  return [...new Set(enabled)]
    .filter((key) => table.has(key))
    .sort()
    .map((linter) => ({ linter, reason: `MegaLinter v${version} cannot write SARIF for ${linter} (no can_output_sarif in its descriptor)` }));
}
