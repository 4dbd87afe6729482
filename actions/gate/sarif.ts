import { readFile } from 'node:fs/promises';
import { GateError } from './errors.js';

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
  tool: { driver: { name?: string; rules?: SarifRule[]; [key: string]: unknown }; extensions?: { rules?: SarifRule[] }[] };
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
  rule?: { id?: string; index?: number; toolComponent?: { index?: number } };
  level?: string;
  message?: { text?: string };
  locations?: SarifLocation[];
  suppressions?: { kind?: string; status?: string }[];
  baselineState?: string;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Reads a SARIF file; anything that is not a SARIF log with a `runs` array is a tool error. */
export async function loadSarif(path: string): Promise<SarifLog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new GateError(`cannot read the SARIF report ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let log: unknown;
  try {
    log = JSON.parse(text);
  } catch {
    throw new GateError(`${path} is not JSON, so not a SARIF report`);
  }
  const runs = (log as { runs?: unknown } | null)?.runs;
  if (!log || typeof log !== 'object' || !Array.isArray(runs)) throw new GateError(`${path} is not a SARIF 2.1.0 report (no "runs" array)`);
  for (const run of runs as unknown[]) {
    const driver = (run as { tool?: { driver?: unknown } } | null)?.tool?.driver;
    if (!driver || typeof driver !== 'object') throw new GateError(`${path} has a run without tool.driver`);
  }
  return log as SarifLog;
}
