import type { Checkout } from '../diff/checkout.js';
import { packageOf } from './dependencies.js';
import { GateError } from '../errors.js';
import { RunLocations } from '../reports/locations.js';
import { readSarif, resultsOf, type SarifLog, type SarifResult, type SarifRun } from '../reports/sarif.js';
import { ruleIdOf, ruleOf } from './severity.js';

/*
 * `--baseline-sarif`: the report of the base commit, when the user has one (the last run on the
 * default branch). A result it also holds was there before the pull request, whatever the diff
 * says: the same tool and rule, and the same fingerprint where the tool writes one
 * (`fingerprints`, `partialFingerprints`), else the same path and package. A code result without
 * fingerprints has neither: the diff alone judges it. A result without a file (logical locations
 * only, or none) is matched by tool, rule and fingerprint, else by its logical locations, else by
 * its message: there is no diff to judge it by.
 */

/** The base report's result a finding matched: what a reviewer checks it against. */
export interface BaselineMatch {
  readonly rule: string | undefined;
  readonly path: string | undefined;
  readonly line: number | undefined;
  /** What matched: `partialFingerprints/<name>=<value>`, `fingerprints/<name>=<value>`, `package:<name>`, `logical:<name>` or `message`. */
  readonly fingerprint: string;
}

/** One way a result is known, and what it is shown as when it matches. */
interface Key {
  readonly key: string;
  readonly fingerprint: string;
  /** The path it is known at; `''` for a result without a file. */
  readonly path: string;
}

function logicalNames(result: SarifResult): string[] {
  const names: string[] = [];
  for (const location of Array.isArray(result.locations) ? result.locations : []) {
    for (const logical of (location as { logicalLocations?: { fullyQualifiedName?: unknown; name?: unknown }[] }).logicalLocations ?? []) {
      const name = logical?.fullyQualifiedName ?? logical?.name;
      if (typeof name === 'string' && name) names.push(name);
    }
  }
  return names;
}

/** The keys a result is known by: one per fingerprint, one per package location, and for a result without a file its logical locations or message; none for the rest. */
function keysOf(run: SarifRun, result: SarifResult, paths: readonly string[]): Key[] {
  const rule = ruleIdOf(run, result) ?? '';
  const tool = run.tool.driver.name ?? '';
  // A result without a file is known at no path.
  const at = paths.length > 0 ? paths : [''];
  const keys: Key[] = [];
  for (const kind of ['fingerprints', 'partialFingerprints'] as const) {
    const prints = result[kind];
    if (!prints || typeof prints !== 'object') continue;
    for (const [name, value] of Object.entries(prints as Record<string, unknown>)) {
      if (typeof value !== 'string' || value === '') continue;
      // With the path: a line hash (CodeQL's primaryLocationLineHash) is the same for one line of code in two files.
      const fingerprint = `${kind}/${name}=${value}`;
      for (const path of at) keys.push({ key: `${tool}\u0000${rule}\u0000${path}\u0000${fingerprint}`, fingerprint, path });
    }
  }
  if (keys.length > 0) return keys;
  if (paths.length > 0) {
    const pkg = packageOf(result, ruleOf(run, result));
    const fingerprint = pkg && `package:${pkg.names[0]!.toLowerCase()}`;
    if (fingerprint) for (const path of paths) keys.push({ key: `${tool}\u0000${rule}\u0000${path}\u0000${fingerprint}`, fingerprint, path });
    return keys;
  }
  for (const name of logicalNames(result)) keys.push({ key: `${tool}\u0000${rule}\u0000\u0000logical:${name}`, fingerprint: `logical:${name}`, path: '' });
  const text = result.message?.text;
  if (keys.length === 0 && typeof text === 'string' && text) keys.push({ key: `${tool}\u0000${rule}\u0000\u0000message:${text}`, fingerprint: 'message', path: '' });
  return keys;
}

export class Baseline {
  private constructor(private readonly keys: ReadonlyMap<string, BaselineMatch>) {}

  /** Reads the baseline report once, keeping its results' keys and what each names. */
  static open(path: string, checkout: Checkout, stripPrefixes: readonly string[] = []): Baseline {
    let log: SarifLog;
    try {
      log = readSarif(path);
    } catch (err) {
      if (err instanceof GateError) throw new GateError(`the baseline report cannot be used: ${err.message}`);
      throw err;
    }
    const keys = new Map<string, BaselineMatch>();
    for (const run of log.runs) {
      const locations = new RunLocations(run, checkout, stripPrefixes);
      for (const result of resultsOf(run)) {
        // A file since deleted at head is still the same path.
        const located = locations.all(result).filter((l) => l.path);
        const paths = located.map((l) => l.path!);
        const rule = ruleIdOf(run, result);
        for (const { key, fingerprint, path: at } of keysOf(run, result, paths)) {
          if (!keys.has(key)) keys.set(key, { rule, path: at || undefined, line: located.find((l) => l.path === at)?.startLine, fingerprint });
        }
      }
    }
    return new Baseline(keys);
  }

  /** The baseline's result this one matches (at any of the given paths; none for a result without a file), if any. */
  match(run: SarifRun, result: SarifResult, paths: readonly string[]): BaselineMatch | undefined {
    for (const { key } of keysOf(run, result, paths)) {
      const found = this.keys.get(key);
      if (found) return found;
    }
    return undefined;
  }
}
