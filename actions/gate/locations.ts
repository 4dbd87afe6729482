import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SarifResult, SarifRun } from './sarif.js';

/** Where MegaLinter mounts the workspace in its container. */
const CONTAINER_ROOTS = ['/tmp/lint/', '/github/workspace/'];

export interface ResultLocation {
  /** Repository-relative, `/`-separated; undefined when the result names no file. */
  readonly path?: string;
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
 * A SARIF artifact URI as a path relative to the repository: `file://` URIs, absolute paths under
 * the workspace, `uriBaseId` (`%SRCROOT%` and friends) and MegaLinter's container prefixes all
 * become `src/app.ts`. A path outside the workspace stays absolute (it can never match the diff).
 */
export function normaliseUri(run: SarifRun, uri: string, uriBaseId: string | undefined, workspace: string): string {
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
  for (const root of CONTAINER_ROOTS) {
    if (value.startsWith(root)) return value.slice(root.length);
  }
  if (isAbsolute(value)) {
    const inside = relative(resolve(workspace), value);
    if (!inside.startsWith('..') && !isAbsolute(inside)) return inside.split(sep).join('/');
    return value;
  }
  return value.replace(/^(\.\/)+/, '');
}

/**
 * The first physical location of each result of one run, normalised. A report names the same
 * files over and over, so each distinct URI is normalised once.
 */
export class RunLocations {
  private readonly paths = new Map<string, string>();

  constructor(
    private readonly run: SarifRun,
    private readonly workspace: string,
  ) {}

  of(result: SarifResult): ResultLocation {
    const physical = result.locations?.[0]?.physicalLocation;
    const uri = physical?.artifactLocation?.uri;
    if (!uri || typeof uri !== 'string') return {};
    const baseId = physical.artifactLocation?.uriBaseId;
    const key = baseId === undefined ? uri : `${String(baseId)}\u0000${uri}`;
    let path = this.paths.get(key);
    if (path === undefined) {
      path = normaliseUri(this.run, uri, baseId, this.workspace);
      this.paths.set(key, path);
    }
    const region = physical.region;
    const startLine = typeof region?.startLine === 'number' && region.startLine > 0 ? region.startLine : undefined;
    const endLine = typeof region?.endLine === 'number' && region.endLine >= (startLine ?? 1) ? region.endLine : startLine;
    return { path, startLine, endLine };
  }
}
