import { GateError } from '../errors.js';

/** Added lines of one file of the diff, by its path at head; `all` for a new file (or one whose lines git cannot give). */
export type AddedLines = 'all' | ReadonlySet<number>;

/** A line of the merge-base: where a moved line's text was removed. */
export interface BaseLine {
  readonly path: string;
  readonly line: number;
}

export interface ParsedDiff {
  /** Head path → what the pull request added there. Files absent from the map are unchanged. */
  readonly files: Map<string, AddedLines>;
  /**
   * Head path → added line → the first line of the merge-base whose text (whitespace normalised)
   * it repeats: code that moved, was re-indented or changed line endings. Absent when no line of
   * the file moved.
   */
  readonly moved: Map<string, Map<number, BaseLine>>;
  /**
   * Files git calls binary that the pull request changed (not added): their lines are unknown.
   * Each with its path at the merge-base, for a second look (`git-diff.ts`).
   */
  readonly binary: { readonly path: string; readonly from: string }[];
}

/** Git's C-style quoting of unusual paths ("a\tb", octal escapes for non-ASCII bytes). */
function unquotePath(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1]!;
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The end of a quoted name that starts at `from` (the index after its closing quote). */
function quotedEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

/**
 * The path of a `diff --git a/<p> b/<p>` line whose two names are the same (an added, deleted or
 * changed file, not a rename): the prefixes are the gate's own (`a/`, `b/`), so the line splits
 * unambiguously even when the name holds spaces. Undefined when the names differ.
 */
function samePathOf(header: string): string | undefined {
  const names = header.slice('diff --git '.length);
  if (names.startsWith('"')) {
    const end = quotedEnd(names, 0);
    if (end < 0 || names[end] !== ' ') return undefined;
    const [a, b] = [unquotePath(names.slice(0, end)), unquotePath(names.slice(end + 1))];
    return a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? b.slice(2) : undefined;
  }
  if (names.length % 2 === 0) return undefined;
  const half = (names.length - 1) / 2;
  const [a, b] = [names.slice(0, half), names.slice(half + 1)];
  return names[half] === ' ' && a.startsWith('a/') && b.startsWith('b/') && a.slice(2) === b.slice(2) ? b.slice(2) : undefined;
}

/** A name of a `---`/`+++` line without its prefix (`a/` or `b/`, the gate's own); undefined for /dev/null. */
function diffName(raw: string, prefix: 'a/' | 'b/'): string | undefined {
  // git ends the name with a tab when it holds a space; a real tab in a name is quoted.
  const name = raw.replace(/\t$/, '');
  if (name === '/dev/null') return undefined;
  const path = unquotePath(name);
  if (!path.startsWith(prefix)) throw new GateError(`git diff wrote a name without the prefix the gate asked for (${prefix}): the diff cannot be read`);
  return path.slice(prefix.length);
}

/**
 * A diff line's text as moved code is recognised by: leading and trailing whitespace (CR included)
 * dropped, inner runs counted as one space. So `\tfoo(a,  b)\r` and `foo(a, b)` match, and
 * `foo(a,b)` does not. Undefined for a line without a letter, a digit or a non-ASCII character:
 * blank lines and lone brackets say nothing about where code came from.
 */
function movableText(line: string): string | undefined {
  if (!/[A-Za-z0-9\u0080-\uffff]/.test(line)) return undefined;
  return normalisedLine(line.slice(1));
}

/** A line's text with leading and trailing whitespace dropped and inner runs counted as one space. */
export function normalisedLine(text: string): string {
  // One pass of a regular expression, then at most one space at each end: this runs for every
  // added and removed line of the diff, and a second pass cost a large diff's parse about 40 %.
  const spaced = text.replace(/[ \t\r\v\f]+/g, ' ');
  const from = spaced.startsWith(' ') ? 1 : 0;
  const to = spaced.length > from && spaced.endsWith(' ') ? spaced.length - 1 : spaced.length;
  return spaced.slice(from, to);
}

const HUNK = /^@@@* -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** What one file's header says, until its first hunk (or the next file). */
interface Header {
  readonly line: string;
  newFile: boolean;
  deleted: boolean;
  binary: boolean;
  renameFrom?: string;
  renameTo?: string;
  newPath?: string;
}

/**
 * `git diff` output (with the gate's prefixes `a/` and `b/`): the added lines of each file by its
 * head path, and which of them only moved (their text, as `movableText`, is a removed line
 * anywhere in the diff), with the first merge-base line they repeat. Added lines are read from the
 * `+` lines themselves, never from a hunk header's counts, so context lines (a `GIT_DIFF_OPTS` or
 * `diff.interHunkContext` the gate did not ask for) are never taken for added ones. A file whose
 * header has no `+++` line (an empty or binary new file, a binary change) is registered from its
 * header: a new one is new whatever its content.
 */
export function parseDiff(output: string): ParsedDiff {
  const files = new Map<string, AddedLines>();
  const binary: { path: string; from: string }[] = [];
  /** Removed text → the first merge-base place it was removed from (path index × 2^32 + line). */
  const removed = new Map<string, number>();
  const oldPaths: string[] = [];
  /** Every meaningful added line: its path, line number and text, until every removed line is known. */
  const added: { path: string; line: number; text: string }[] = [];
  let header: Header | undefined;
  let current: Set<number> | undefined;
  let path: string | undefined;
  let oldIndex = -1;
  let nextNew = 0;
  let nextOld = 0;

  /** Registers a file whose header ended without a `+++` line. */
  const endHeader = () => {
    if (!header || header.deleted) return;
    const target = header.renameTo ?? header.newPath ?? samePathOf(header.line);
    if (target === undefined) throw new GateError(`git diff wrote a header the gate cannot read (${JSON.stringify(header.line.slice(0, 200))}): the diff cannot be read`);
    if (header.newFile) files.set(target, 'all');
    else if (header.binary) {
      files.set(target, 'all');
      binary.push({ path: target, from: header.renameFrom ?? target });
    }
    // Otherwise a mode change or a pure rename: no line changed.
  };

  for (const line of output.split('\n')) {
    if (line.startsWith('diff --git ')) {
      if (header) endHeader();
      header = { line, newFile: false, deleted: false, binary: false };
      current = path = undefined;
    } else if (line.startsWith('@@')) {
      // A header that goes on into hunks had its `+++` line; "+++ x" from here on is an added line.
      header = undefined;
      const match = HUNK.exec(line);
      if (!match) continue;
      nextOld = Number(match[1]);
      nextNew = Number(match[2]);
    } else if (header) {
      if (line.startsWith('new file mode')) header.newFile = true;
      else if (line.startsWith('deleted file mode')) header.deleted = true;
      else if (line.startsWith('rename from ') || line.startsWith('copy from ')) header.renameFrom = unquotePath(line.slice(line.indexOf(' from ') + 6));
      else if (line.startsWith('rename to ') || line.startsWith('copy to ')) header.renameTo = unquotePath(line.slice(line.indexOf(' to ') + 4));
      else if (line.startsWith('Binary files ') || line === 'GIT binary patch') header.binary = true;
      else if (line.startsWith('--- ')) {
        const old = diffName(line.slice(4), 'a/');
        oldIndex = old === undefined ? -1 : oldPaths.push(old) - 1;
      } else if (line.startsWith('+++ ')) {
        const target = diffName(line.slice(4), 'b/');
        if (target === undefined) {
          header.deleted = true;
          continue;
        }
        path = header.newPath = target;
        current = header.newFile ? undefined : new Set();
        files.set(path, current ?? 'all');
      }
    } else if (line !== '') {
      // A hunk's line: added, removed, context, or git's "\ No newline" marker.
      const kind = line[0];
      if (kind === '+') {
        const at = nextNew++;
        current?.add(at);
        const text = movableText(line);
        if (text !== undefined && path !== undefined) added.push({ path, line: at, text });
      } else if (kind === '-') {
        const at = nextOld++;
        const text = movableText(line);
        if (text !== undefined && oldIndex >= 0 && !removed.has(text)) removed.set(text, oldIndex * 2 ** 32 + at);
      } else if (kind === ' ') {
        nextNew++;
        nextOld++;
      }
    }
  }
  if (header) endHeader();

  const moved = new Map<string, Map<number, BaseLine>>();
  for (const { path, line, text } of added) {
    const from = removed.get(text);
    if (from === undefined) continue;
    let lines = moved.get(path);
    if (!lines) moved.set(path, (lines = new Map()));
    lines.set(line, { path: oldPaths[Math.floor(from / 2 ** 32)]!, line: from % 2 ** 32 });
  }
  return { files, moved, binary };
}
