import { readFileSync } from 'node:fs';
import { GateError } from '../errors.js';

/** The parts of SARIF 2.1.0 the gate reads; everything else is carried through untouched. */
export interface SarifLog {
  version?: string;
  $schema?: string;
  runs: SarifRun[];
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SarifRule {
  id?: string;
  defaultConfiguration?: { level?: string };
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SarifRun {
  tool: { driver: { name?: string; rules?: SarifRule[]; [key: string]: unknown }; extensions?: { name?: string; guid?: string; rules?: SarifRule[] }[] };
  results?: SarifResult[];
  invocations?: { executionSuccessful?: boolean; exitCode?: number; [key: string]: unknown }[];
  originalUriBaseIds?: Record<string, { uri?: string; uriBaseId?: string }>;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SarifLocation {
  physicalLocation?: {
    artifactLocation?: { uri?: string; uriBaseId?: string; index?: number };
    region?: { startLine?: number; endLine?: number; snippet?: { text?: string } };
  };
}

export interface SarifResult {
  ruleId?: string;
  ruleIndex?: number;
  rule?: { id?: string; index?: number; toolComponent?: { index?: number; name?: string; guid?: string } };
  level?: string;
  /** `fail` when absent; `pass`, `notApplicable` and `informational` are not findings (SARIF §3.27.9). */
  kind?: string;
  message?: { text?: string };
  locations?: SarifLocation[];
  suppressions?: { kind?: string; status?: string; justification?: string }[];
  baselineState?: string;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What JSON.parse says is wrong, without its quote of the text: a report may hold secrets. */
function jsonProblem(err: SyntaxError): string {
  if (err.message.includes('Unexpected end of JSON input')) return 'unexpected end of the JSON text';
  const at = /at position (\d+)/.exec(err.message)?.[1];
  return at === undefined ? 'invalid JSON' : `invalid JSON at character ${at}`;
}

/** Whether a run computed its results: SARIF §3.14.23, `results` null or absent means none were (as after a tool error). */
export const computed = (run: SarifRun): boolean => Array.isArray(run.results);

/** A run's results; none for a run that computed none. */
export const resultsOf = (run: SarifRun): SarifResult[] => (Array.isArray(run.results) ? run.results : []);

/**
 * Reads a SARIF file whole with JSON.parse and checks that it is a SARIF log with a `runs` array
 * whose runs each have a `tool.driver`. Anything else is a tool error (exit 2). A UTF-8
 * byte-order mark, which some Windows tools write, is accepted.
 */
export function readSarif(path: string): SarifLog {
  let log: unknown;
  try {
    log = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof SyntaxError) throw new GateError(`${path} is not JSON, so not a SARIF report (${jsonProblem(err)})`);
    const code = (err as NodeJS.ErrnoException).code;
    if (code) throw new GateError(`cannot read the SARIF report ${path}: ${code}`);
    throw err;
  }
  const runs = (log as { runs?: unknown } | null)?.runs;
  if (!log || typeof log !== 'object' || !Array.isArray(runs)) throw new GateError(`${path} is not a SARIF 2.1.0 report (no "runs" array)`);
  for (const run of runs as unknown[]) {
    const driver = (run as { tool?: { driver?: unknown } } | null)?.tool?.driver;
    if (!driver || typeof driver !== 'object') throw new GateError(`${path} has a run without tool.driver`);
  }
  return log as SarifLog;
}
