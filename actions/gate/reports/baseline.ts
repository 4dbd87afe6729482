import type { Checkout } from '../diff/checkout.js';
import { packageOf } from '../rules/dependencies.js';
import { GateError } from '../errors.js';
import { RunLocations } from './locations.js';
import { readSarif, resultsOf, type SarifLog, type SarifResult, type SarifRun } from './sarif.js';
import { ruleIdOf, ruleOf } from '../rules/severity.js';

/*
 * `--baseline-sarif`: the report of the base commit, when the user has one (the last run on the
 * default branch). A result it also holds was there before the pull request, whatever the diff
 * says: the same tool and rule, and the same fingerprint where the tool writes one
 * (`fingerprints`, `partialFingerprints`), else the same path and package. A code result without
 * fingerprints has neither: the diff alone judges it.
 */

/** The keys a result is known by: one per fingerprint, one per package location; none for the rest. */
function keysOf(run: SarifRun, result: SarifResult, paths: readonly string[]): string[] {
  const rule = ruleIdOf(run, result) ?? '';
  const tool = run.tool.driver.name ?? '';
  const keys: string[] = [];
  for (const kind of ['fingerprints', 'partialFingerprints'] as const) {
    const prints = result[kind];
    if (!prints || typeof prints !== 'object') continue;
    for (const [name, value] of Object.entries(prints as Record<string, unknown>)) {
      if (typeof value !== 'string' || value === '') continue;
      // With the path: a line hash (CodeQL's primaryLocationLineHash) is the same for one line of code in two files.
      for (const path of paths) keys.push(`${tool}\u0000${rule}\u0000${path}\u0000${kind}/${name}=${value}`);
    }
  }
  if (keys.length > 0) return keys;
  const pkg = packageOf(result, ruleOf(run, result));
  if (pkg) for (const path of paths) keys.push(`${tool}\u0000${rule}\u0000${path}\u0000package:${pkg.names[0]!.toLowerCase()}`);
  return keys;
}

export class Baseline {
  private constructor(private readonly keys: ReadonlySet<string>) {}

  /** Reads the baseline report once, keeping its results' keys. */
  static open(path: string, checkout: Checkout, stripPrefixes: readonly string[] = []): Baseline {
    let log: SarifLog;
    try {
      log = readSarif(path);
    } catch (err) {
      if (err instanceof GateError) throw new GateError(`the baseline report cannot be used: ${err.message}`);
      throw err;
    }
    const keys = new Set<string>();
    for (const run of log.runs) {
      const locations = new RunLocations(run, checkout, stripPrefixes);
      for (const result of resultsOf(run)) {
        // A file since deleted at head is still the same path.
        const paths = locations.all(result).flatMap((l) => (l.path ? [l.path] : []));
        for (const key of keysOf(run, result, paths)) keys.add(key);
      }
    }
    return new Baseline(keys);
  }

  /** Whether the baseline holds this result (at any of the given paths). */
  holds(run: SarifRun, result: SarifResult, paths: readonly string[]): boolean {
    return keysOf(run, result, paths).some((key) => this.keys.has(key));
  }
}
