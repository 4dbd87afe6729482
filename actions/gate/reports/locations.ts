import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Checkout } from '../diff/checkout.js';
import { GateError } from '../errors.js';
import { CONTAINER_ROOTS } from './megalinter.js';
import type { SarifLocation, SarifResult, SarifRun } from './sarif.js';

export interface ResultLocation {
  /** Relative to the git top level, `/`-separated; undefined when the result names no file. */
  readonly path?: string;
  /** The path names no file of the head commit (`path` is then the report's, for display). */
  readonly unmapped?: true;
  /** For an unmapped path: the leading part whose removal (`--strip-prefix`) makes it a file of the head, when one does. */
  readonly strippable?: string;
  readonly startLine?: number;
  /**
   * A region without a line: where the report places the result in the file instead (a character
   * or byte offset, or the text itself), for `RegionLines` to turn into a line of the head.
   */
  readonly region?: { readonly charOffset?: number; readonly byteOffset?: number; readonly snippet?: string };
  /** The location as the report wrote it (its `uri`, after an artifact index was followed), for display. */
  readonly written?: string;
}

/** An artifact of `run.artifacts`, as far as the gate reads it. */
interface Artifact {
  readonly location?: { readonly uri?: unknown; readonly uriBaseId?: unknown };
  readonly parentIndex?: unknown;
}

/** A `uriBaseId` resolved through `originalUriBaseIds` (chains allowed, loops refused). */
function baseOf(run: SarifRun, id: string | undefined, seen = new Set<string>()): string | undefined {
  if (!id || seen.has(id)) return undefined;
  seen.add(id);
  const entry = run.originalUriBaseIds?.[id];
  if (!entry?.uri) return undefined;
  const parent = baseOf(run, entry.uriBaseId, seen);
  return parent ? joinUri(parent, entry.uri) : entry.uri;
}

function joinUri(base: string, uri: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/')) return uri;
  return `${base.endsWith('/') ? base : `${base}/`}${uri}`;
}

/** A Windows path: a drive letter (`C:\`, `file:///C:/`), as a report written on Windows has. */
const WINDOWS_PATH = /^(?:file:\/*)?[A-Za-z]:[\\/]/i;

/**
 * Whether a run was written on Windows: one of its base URIs or artifacts is a drive-letter path.
 * Its paths may then use `\` as separator throughout.
 */
function writtenOnWindows(run: SarifRun): boolean {
  const bases = Object.values(run.originalUriBaseIds ?? {}).map((b) => b?.uri);
  const artifacts = Array.isArray(run.artifacts) ? (run.artifacts as { location?: { uri?: unknown } }[]).map((a) => a?.location?.uri) : [];
  return [...bases, ...artifacts].some((uri) => typeof uri === 'string' && WINDOWS_PATH.test(uri));
}

/**
 * A SARIF artifact URI decoded to a path: `file://` URIs and `uriBaseId` (`%SRCROOT%` and
 * friends, through `originalUriBaseIds`) resolved, percent-escapes decoded, `\` read as `/` when
 * the run was written on Windows or the path has no `/` at all. The result is an absolute path or
 * a relative one as the tool wrote it (without a leading `./`).
 */
function decodeUri(run: SarifRun, rawUri: string, uriBaseId: string | undefined, windows: boolean): string {
  const uri = rawUri.includes('\\') && (windows || !rawUri.includes('/')) ? rawUri.replace(/\\/g, '/') : rawUri;
  const base = baseOf(run, uriBaseId);
  let value = base && base !== 'file://' && base !== 'file:///' ? joinUri(base, uri) : uri;
  if (/^file:/i.test(value)) {
    try {
      value = fileURLToPath(value.replace(/^file:\/\/(?!\/)/i, 'file:///'));
    } catch {
      value = decodeURIComponent(value.replace(/^file:\/*/i, '/'));
    }
  } else {
    try {
      value = decodeURIComponent(value);
    } catch {
      // Keep an undecodable URI as written.
    }
  }
  // A Windows file URL decodes to `/C:/…` here: shown, and stripped, as `C:/…`. A scanner in a
  // container may write `file:////src/app.js` (four slashes): runs of `/` read as one, so
  // `--strip-prefix /src/` matches it.
  // Another scheme (`https://…`, a DAST tool's page) is kept as written, for display.
  if (/^[a-z][a-z0-9+.-]+:/i.test(value)) return value;
  return value.replace(/\/{2,}/g, '/').replace(/^\/(?=[A-Za-z]:\/)/, '').replace(/^(\.\/)+/, '');
}

/** A way to read a path, in order of preference; `given` is relative to `--repo`, `top` to the top level. */
interface Candidate {
  readonly path: string;
  readonly base: 'given' | 'top';
}

function inside(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : undefined;
}

/** A relative path read against the given directory, then against the top level. */
function relativeCandidates(path: string, checkout: Checkout): Candidate[] {
  const candidates: Candidate[] = [];
  for (const [joined, base] of [
    [posix.normalize(checkout.prefix + path), 'given'],
    [posix.normalize(path), 'top'],
  ] as const) {
    if (!joined.startsWith('../') && joined !== '..' && !candidates.some((c) => c.path === joined)) candidates.push({ path: joined, base });
  }
  return candidates;
}

/**
 * The repository paths (relative to the git top level, as the diff's are) a decoded path may
 * name. An absolute path under the top level or under `--repo` is read from there; MegaLinter's
 * container prefixes (`/tmp/lint/`, `/github/workspace/`: where it mounts the workspace) leave a
 * relative path; any other absolute path is root-relative (scanners that scan at `/` write
 * `/src/app.py`), read against the top level first.
 */
function candidatePaths(written: string, checkout: Checkout, stripPrefixes: readonly string[]): Candidate[] {
  // `--strip-prefix`: where the scanner saw the repository (a container mount, `../../` from its own directory).
  const prefix = stripPrefixes.find((p) => written.startsWith(p));
  const decoded = prefix ? written.slice(prefix.length) : written;
  for (const root of CONTAINER_ROOTS) {
    if (decoded.startsWith(root)) return relativeCandidates(decoded.slice(root.length), checkout);
  }
  if (!isAbsolute(decoded)) return relativeCandidates(decoded, checkout);
  const underTop = inside(checkout.topLevel, decoded);
  if (underTop !== undefined) return [{ path: underTop, base: 'top' }];
  const underGiven = inside(checkout.directory, decoded);
  if (underGiven !== undefined) return [{ path: posix.normalize(checkout.prefix + underGiven), base: 'given' }];
  return relativeCandidates(decoded.replace(/^\/+/, ''), checkout).reverse();
}

interface Resolved {
  /** Candidates naming a file of the head commit: none, or more than one. */
  readonly existing: readonly Candidate[];
  /** What to show when none does. */
  readonly display: string;
  /** The shortest leading part whose removal names a file of the head (see `strippablePrefix`). */
  readonly strippable?: string;
}

/**
 * The shortest leading part of an unmapped path (as written, decoded) whose removal leaves a file
 * of the head: the directory the scanner saw the repository as (`/Volumes/build/app/`,
 * `C:/github/app/`, `../../path/`), to suggest to `--strip-prefix`. Undefined when no ending of
 * the path names a file of the head.
 */
function strippablePrefix(path: string, files: ReadonlySet<string>): string | undefined {
  for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
    if (files.has(path.slice(slash + 1))) return path.slice(0, slash + 1);
  }
  return undefined;
}

/**
 * The prefixes `--strip-prefix` names, as compared with decoded paths: `./` dropped, `\` as `/`,
 * ending with `/` (so `/src` strips `/src/app.py` but not `/srcs/app.py`).
 */
export function normalisePrefixes(prefixes: readonly string[]): string[] {
  return prefixes
    .map((p) => p.trim().replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^(\.\/)+/, ''))
    .filter((p) => p !== '')
    .map((p) => (p.endsWith('/') ? p : `${p}/`));
}

/** What a region without a line says of where it is: an offset, or the text. */
function placeOf(region: NonNullable<NonNullable<SarifLocation['physicalLocation']>['region']>): Pick<ResultLocation, 'region'> {
  const r = region as { charOffset?: unknown; byteOffset?: unknown; snippet?: { text?: unknown } };
  const found = {
    ...(typeof r.charOffset === 'number' && r.charOffset >= 0 ? { charOffset: r.charOffset } : {}),
    ...(typeof r.byteOffset === 'number' && r.byteOffset >= 0 ? { byteOffset: r.byteOffset } : {}),
    ...(typeof r.snippet?.text === 'string' && r.snippet.text.trim() !== '' ? { snippet: r.snippet.text } : {}),
  };
  return Object.keys(found).length > 0 ? { region: found } : {};
}

/**
 * The physical locations of each result of one run, as paths of the head commit. A path
 * that names no file of the head is `unmapped`. When a path exists both under `--repo` and under
 * the top level, the run's other paths decide: the base that more of them were found in, counting
 * the run's `artifacts` list first and the results read so far (the given directory on a tie). A report names the same files over and over, so each distinct
 * URI is resolved once.
 */
export class RunLocations {
  /**
   * By URI (and base id): the path itself when exactly one candidate names a file of the head, the
   * usual case, else what the candidates say. One string an entry, not four objects: the entries
   * live as long as the run is read, and survivors make V8 grow its young generation.
   */
  private readonly resolved = new Map<string, string | Resolved>();
  private readonly votes = { given: 0, top: 0 };
  private readonly windows: boolean;
  private readonly artifacts: readonly Artifact[];
  private readonly toolName: string;

  constructor(
    private readonly run: SarifRun,
    private readonly checkout: Checkout,
    private readonly stripPrefixes: readonly string[] = [],
  ) {
    this.windows = writtenOnWindows(run);
    this.toolName = run.tool.driver.name ?? 'unknown tool';
    // The run's artifact list, when the tool writes one, votes before any result is read (files
    // nested in others are not files of the repository).
    this.artifacts = Array.isArray(run.artifacts) ? (run.artifacts as Artifact[]) : [];
    for (const artifact of this.artifacts) {
      if (artifact?.parentIndex !== undefined) continue;
      const uri = artifact?.location?.uri;
      const baseId = artifact?.location?.uriBaseId;
      if (typeof uri === 'string' && uri) this.resolve(uri, typeof baseId === 'string' ? baseId : undefined);
    }
  }

  /** Every location of the result, in its order (tools such as nodejsscan write one result per rule, every match a location). */
  all(result: SarifResult): ResultLocation[] {
    return (Array.isArray(result.locations) ? result.locations : []).map((l) => this.at(l));
  }

  /** The result's location at this index. */
  nth(result: SarifResult, index: number): ResultLocation {
    return this.at(Array.isArray(result.locations) ? result.locations[index] : undefined);
  }

  /**
   * The artifact a location names: its own `uri` (and `uriBaseId`), else the `run.artifacts` entry
   * its `index` points at (as the SARIF SDK's converters, Fortify and others write it). An artifact
   * nested in another (`parentIndex`: a file inside an archive) is the outermost one, the file of
   * the repository, and has no line of its own there. An index the run does not have, on a
   * location without its own uri, makes the report unreadable: no answer, never "no location".
   */
  private artifactOf(location: { uri?: unknown; uriBaseId?: unknown; index?: unknown } | undefined): { uri?: string; uriBaseId?: string; nested: boolean } {
    const own = typeof location?.uri === 'string' && location.uri ? location.uri : undefined;
    const ownBase = typeof location?.uriBaseId === 'string' ? location.uriBaseId : undefined;
    if (location?.index === undefined) return { uri: own, uriBaseId: ownBase, nested: false };
    // A location with its own uri does not need the index: some tools write an index into an
    // artifacts list they leave out (the SARIF JS SDK's ESLint sample).
    if (own && !this.has(location.index)) return { uri: own, uriBaseId: ownBase, nested: false };
    let artifact = this.artifact(location.index);
    let nested = false;
    for (let depth = 0; typeof artifact.parentIndex === 'number' || typeof artifact.parentIndex === 'string'; depth++) {
      if (depth > this.artifacts.length) throw new GateError(`the ${this.toolName} run's artifacts name each other as parents in a loop: the report cannot be read`);
      artifact = this.artifact(artifact.parentIndex);
      nested = true;
    }
    const uri = typeof artifact.location?.uri === 'string' && artifact.location.uri ? artifact.location.uri : undefined;
    const uriBaseId = typeof artifact.location?.uriBaseId === 'string' ? artifact.location.uriBaseId : undefined;
    if (nested) return { uri, uriBaseId, nested };
    return { uri: own ?? uri, uriBaseId: ownBase ?? uriBaseId, nested };
  }

  private has(index: unknown): boolean {
    return Number.isInteger(index) && (index as number) >= 0 && typeof this.artifacts[index as number] === 'object' && this.artifacts[index as number] !== null;
  }

  private artifact(index: unknown): Artifact {
    const artifact = Number.isInteger(index) && (index as number) >= 0 ? this.artifacts[index as number] : undefined;
    if (!artifact || typeof artifact !== 'object') {
      throw new GateError(
        `a location of the ${this.toolName} run points at artifacts[${String(index)}], which the run does not have (it lists ${this.artifacts.length}): the report cannot be read, so nothing can be judged`,
      );
    }
    return artifact;
  }

  private at(location: SarifLocation | undefined): ResultLocation {
    const physical = location?.physicalLocation;
    const { uri, uriBaseId, nested } = this.artifactOf(physical?.artifactLocation);
    if (!uri) return {};
    const entry = this.resolve(uri, uriBaseId);
    const region = nested ? undefined : physical!.region;
    const startLine = typeof region?.startLine === 'number' && region.startLine > 0 ? region.startLine : undefined;
    const placed = startLine === undefined && region ? placeOf(region) : undefined;
    if (typeof entry === 'string') return placed ? { path: entry, startLine, written: uri, ...placed } : { path: entry, startLine, written: uri };
    if (entry.existing.length === 0) return { path: entry.display, startLine, written: uri, ...placed, unmapped: true, ...(entry.strippable ? { strippable: entry.strippable } : {}) };
    return { path: this.preferred(entry.existing).path, startLine, written: uri, ...placed };
  }

  private resolve(uri: string, baseId: string | undefined): string | Resolved {
    const key = baseId === undefined ? uri : `${String(baseId)}\u0000${uri}`;
    let entry = this.resolved.get(key);
    if (entry === undefined) {
      const decoded = decodeUri(this.run, uri, baseId, this.windows);
      const onHead = (path: string) => candidatePaths(path, this.checkout, this.stripPrefixes).filter((c) => this.checkout.files.has(c.path));
      let existing = onHead(decoded);
      // Mixed separators (zizmor on Windows writes `.github/workflows\ci.yml`): read as `/` when
      // that names a file of the head and the path as written does not.
      if (existing.length === 0 && decoded.includes('\\')) existing = onHead(decoded.replace(/\\/g, '/'));
      // A file whose name holds what looks like a percent-escape (`100%25.txt` written as
      // `100%.txt`, or a file really named `a%20b.js`): read as written when decoding names no file.
      if (existing.length === 0 && /%[0-9A-Fa-f]{2}/.test(uri)) existing = onHead(decodeUri(this.run, uri.replace(/%/g, '%25'), baseId, this.windows));
      if (existing.length === 1) this.votes[existing[0]!.base]++;
      if (existing.length === 1) entry = existing[0]!.path;
      else if (existing.length > 1) entry = { existing, display: decoded };
      else {
        // Shown as the scanner wrote it (an absolute path keeps its leading `/`), `\` read as `/`.
        const shown = decoded.replace(/\\/g, '/');
        const strippable = strippablePrefix(shown, this.checkout.files);
        entry = { existing, display: shown, ...(strippable ? { strippable } : {}) };
      }
      this.resolved.set(key, entry);
    }
    return entry;
  }

  private preferred(existing: readonly Candidate[]): Candidate {
    const base = this.votes.top > this.votes.given ? 'top' : 'given';
    return existing.find((c) => c.base === base) ?? existing[0]!;
  }
}
