import { closeSync, openSync, readSync } from 'node:fs';
import { GateError } from '../errors.js';
import { readElements } from './json-elements.js';
import { JsonReader, JsonSyntaxError } from './json-reader.js';
import { NumberList } from './number-list.js';

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

/** Where a value's bytes are in the report file. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface SourcedResult {
  readonly result: SarifResult;
  readonly source: ByteRange;
}

/**
 * A SARIF report read in two passes, so its results are never all in memory at once: `log` is the
 * report without its results (runs keep their tool, rules, invocations, base URIs and the rest),
 * and `results(i)` reads run i's results from the file one at a time, each with its byte range so
 * that the kept ones can be read again with `readAgain`.
 */
export interface SarifReport {
  /** The report; its runs have no `results` member. */
  readonly log: SarifLog;
  results(runIndex: number): Iterable<SourcedResult>;
  /**
   * Whether run i's `results` is an array (`[]` included). A run whose `results` is null or absent
   * computed none (SARIF §3.14.23: results not computed, as after a tool error).
   */
  computed(runIndex: number): boolean;
  /** The results at these byte ranges, parsed again, in the order given. */
  readAgain(sources: Iterable<ByteRange>): Iterable<SarifResult>;
}

/** Sets a parsed member as JSON.parse would: an own property, even one named `__proto__`. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function readError(path: string, err: unknown): GateError {
  if (err instanceof JsonSyntaxError) return new GateError(`${path} is not JSON, so not a SARIF report (${err.message})`);
  const code = (err as NodeJS.ErrnoException).code;
  if (code) return new GateError(`cannot read the SARIF report ${path}: ${code}`);
  throw err;
}

function openReport(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw readError(path, err);
  }
}

/** A run's `results` array: its bytes, and where each result starts (so it is not scanned again). */
interface ResultsArray extends ByteRange {
  readonly starts: NumberList;
}

/** One run, its `results` array stepped over and located instead of parsed. */
function readRun(reader: JsonReader): { run: unknown; results?: ResultsArray } {
  if (reader.peek() !== 0x7b) return { run: reader.readValue() };
  const run: Record<string, unknown> = {};
  let results: ResultsArray | undefined;
  for (const key of reader.members()) {
    if (key === 'results' && reader.peek() === 0x5b) {
      const start = reader.offset;
      const starts = new NumberList();
      reader.skipArray((offset) => starts.push(offset));
      results = { start, end: reader.offset, starts };
      // A later duplicate wins, as with JSON.parse.
      delete run.results;
    } else {
      if (key === 'results') results = undefined;
      setMember(run, key, reader.readValue());
    }
  }
  return { run, ...(results ? { results } : {}) };
}

/**
 * Opens a SARIF file: reads everything but the results, and checks that it is a SARIF log with a
 * `runs` array whose runs each have a `tool.driver`. Anything else is a tool error (exit 2).
 */
export function openSarif(path: string, options: { readonly chunkBytes?: number } = {}): SarifReport {
  const fd = openReport(path);
  let log: unknown;
  const ranges: (ResultsArray | undefined)[] = [];
  try {
    const reader = new JsonReader(fd, options);
    reader.skipByteOrderMark();
    if (reader.peek() === 0x7b) {
      const top: Record<string, unknown> = {};
      for (const key of reader.members()) {
        if (key === 'runs' && reader.peek() === 0x5b) {
          const runs: unknown[] = [];
          ranges.length = 0;
          for (const _ of reader.elements()) {
            const { run, results } = readRun(reader);
            ranges[runs.length] = results;
            runs.push(run);
          }
          setMember(top, key, runs);
        } else {
          setMember(top, key, reader.readValue());
        }
      }
      log = top;
    } else {
      log = reader.readValue();
    }
    reader.expectEnd();
  } catch (err) {
    throw readError(path, err);
  } finally {
    closeSync(fd);
  }
  const runs = (log as { runs?: unknown } | null)?.runs;
  if (!log || typeof log !== 'object' || !Array.isArray(runs)) throw new GateError(`${path} is not a SARIF 2.1.0 report (no "runs" array)`);
  for (const run of runs as unknown[]) {
    const driver = (run as { tool?: { driver?: unknown } } | null)?.tool?.driver;
    if (!driver || typeof driver !== 'object') throw new GateError(`${path} has a run without tool.driver`);
  }
  return {
    log: log as SarifLog,
    results: (runIndex) => readResults(path, ranges[runIndex], options.chunkBytes),
    computed: (runIndex) => ranges[runIndex] !== undefined,
    readAgain: (sources) => readAgain(path, sources),
  };
}

function* readAgain(path: string, sources: Iterable<ByteRange>): Generator<SarifResult, void, undefined> {
  const fd = openReport(path);
  try {
    // One buffer for all: the ranges are known exactly, so no scanning is needed.
    let buffer = Buffer.allocUnsafe(1 << 16);
    for (const { start, end } of sources) {
      if (end - start > buffer.length) buffer = Buffer.allocUnsafe(end - start);
      let result: SarifResult;
      try {
        const read = readSync(fd, buffer, 0, end - start, start);
        if (read !== end - start) throw new JsonSyntaxError(`the report ended at byte ${start + read} while it was read again`);
        result = JSON.parse(buffer.toString('utf8', 0, read)) as SarifResult;
      } catch (err) {
        throw readError(path, err instanceof SyntaxError ? new JsonSyntaxError(`invalid JSON value at byte ${start}`) : err);
      }
      yield result;
    }
  } finally {
    closeSync(fd);
  }
}

/** A run's results, parsed from the starts the first pass noted (a few per JSON.parse call) and handed out one at a time. */
function* readResults(path: string, results: ResultsArray | undefined, chunkBytes?: number): Generator<SourcedResult, void, undefined> {
  if (!results) return;
  const fd = openReport(path);
  try {
    const elements = readElements(fd, results.starts, results.end, chunkBytes);
    for (;;) {
      let next: SourcedResult;
      try {
        const element = elements.next();
        if (element.done) return;
        const { value, start, end } = element.value;
        next = { result: value as SarifResult, source: { start, end } };
      } catch (err) {
        throw readError(path, err);
      }
      yield next;
    }
  } finally {
    closeSync(fd);
  }
}
