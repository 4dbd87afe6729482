import type { CommitFiles } from '../diff/commit-files.js';
import type { ResultLocation } from './locations.js';

/*
 * Regions without a line (SARIF §3.30): a character or byte offset into the file, or only the
 * text (`snippet`). The line is read off the head's file, so the diff can judge it like any
 * other; a snippet found more than once (or not at all) places nothing.
 */

/** The line (1-based) at an offset of `text`: in UTF-16 code units for a string (`columnKind: utf16CodeUnits`; code points differ only past the Basic Multilingual Plane), in bytes for the file's UTF-8 bytes; undefined past the end. */
function lineAtOffset(text: string | Buffer, offset: number): number | undefined {
  if (offset > text.length) return undefined;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The line where the snippet starts, when it occurs exactly once (line endings aside). */
function lineOfSnippet(text: string, snippet: string): number | undefined {
  for (const [haystack, needle] of [
    [text, snippet],
    [text.replace(/\r\n/g, '\n'), snippet.replace(/\r\n/g, '\n')],
  ] as const) {
    const at = haystack.indexOf(needle);
    if (at < 0) continue;
    if (haystack.indexOf(needle, at + 1) >= 0) return undefined;
    return lineAtOffset(haystack, at);
  }
  return undefined;
}

export class RegionLines {
  constructor(
    private readonly files: CommitFiles,
    private readonly head: string,
  ) {}

  /** The location with its line read off the head's file, when its region gives an offset or a snippet instead of a line. */
  placed(location: ResultLocation): ResultLocation {
    const region = location.region;
    if (location.startLine !== undefined || !region || !location.path || location.unmapped) return location;
    const text = this.files.text(this.head, location.path);
    if (text === undefined) return location;
    const line =
      region.charOffset !== undefined ? lineAtOffset(text, region.charOffset) : region.byteOffset !== undefined ? lineAtOffset(Buffer.from(text, 'utf8'), region.byteOffset) : region.snippet !== undefined ? lineOfSnippet(text, region.snippet) : undefined;
    return line === undefined ? location : { ...location, startLine: line };
  }
}
