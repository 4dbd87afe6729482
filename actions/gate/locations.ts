import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Checkout } from './checkout.js';
import { CONTAINER_ROOTS } from './megalinter.js';
import type { SarifResult, SarifRun } from './sarif.js';

export interface ResultLocation {
  /** Relative to the git top level, `/`-separated; undefined when the result names no file. */
  readonly path?: string;
  /** The path names no file of the head commit (`path` is then the report's, for display). */
  readonly unmapped?: true;
  readonly startLine?: number;
  readonly endLine?: number;
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

/**
 * A SARIF artifact URI decoded to a path: `file://` URIs and `uriBaseId` (`%SRCROOT%` and
 * friends, through `originalUriBaseIds`) resolved, percent-escapes decoded. The result is an
 * absolute path or a relative one as the tool wrote it (without a leading `./`).
 */
function decodeUri(run: SarifRun, uri: string, uriBaseId: string | undefined): string {
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
  return value.replace(/^(\.\/)+/, '');
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
function candidatePaths(decoded: string, checkout: Checkout): Candidate[] {
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
}

/**
 * The first physical location of each result of one run, as a path of the head commit. A path
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

  constructor(
    private readonly run: SarifRun,
    private readonly checkout: Checkout,
  ) {
    // The run's artifact list, when the tool writes one, votes before any result is read.
    const artifacts = Array.isArray(run.artifacts) ? (run.artifacts as { location?: { uri?: unknown; uriBaseId?: unknown } }[]) : [];
    for (const artifact of artifacts) {
      const uri = artifact?.location?.uri;
      const baseId = artifact?.location?.uriBaseId;
      if (typeof uri === 'string' && uri) this.resolve(uri, typeof baseId === 'string' ? baseId : undefined);
    }
  }

  of(result: SarifResult): ResultLocation {
    const physical = result.locations?.[0]?.physicalLocation;
    const uri = physical?.artifactLocation?.uri;
    if (!uri || typeof uri !== 'string') return {};
    const entry = this.resolve(uri, physical.artifactLocation?.uriBaseId);
    const region = physical.region;
    const startLine = typeof region?.startLine === 'number' && region.startLine > 0 ? region.startLine : undefined;
    const endLine = typeof region?.endLine === 'number' && region.endLine >= (startLine ?? 1) ? region.endLine : startLine;
    if (typeof entry === 'string') return { path: entry, startLine, endLine };
    if (entry.existing.length === 0) return { path: entry.display, startLine, endLine, unmapped: true };
    return { path: this.preferred(entry.existing).path, startLine, endLine };
  }

  private resolve(uri: string, baseId: string | undefined): string | Resolved {
    const key = baseId === undefined ? uri : `${String(baseId)}\u0000${uri}`;
    let entry = this.resolved.get(key);
    if (entry === undefined) {
      const decoded = decodeUri(this.run, uri, baseId);
      const candidates = candidatePaths(decoded, this.checkout);
      const existing = candidates.filter((c) => this.checkout.files.has(c.path));
      if (existing.length === 1) this.votes[existing[0]!.base]++;
      entry = existing.length === 1 ? existing[0]!.path : { existing, display: candidates[0]?.path ?? decoded };
      this.resolved.set(key, entry);
    }
    return entry;
  }

  private preferred(existing: readonly Candidate[]): Candidate {
    const base = this.votes.top > this.votes.given ? 'top' : 'given';
    return existing.find((c) => c.base === base) ?? existing[0]!;
  }
}
