import type { PullRequestDiff } from '../diff/git-diff.js';
import type { CommitFiles } from '../diff/commit-files.js';

/*
 * Container image scanners (grype, Trivy image, Snyk Container) put an image's packages on its
 * Dockerfile: on line 1, or on the `FROM` line. Those lines rarely change, so the line-based rule
 * would call every package of a new base image pre-existing. An image finding is judged by the
 * image instead: it is net-new when the pull request changed what the image is built from.
 */

/**
 * `Dockerfile` and `Containerfile` (any case), `Dockerfile.<x>` and `Containerfile.<x>` (as builders'
 * `-f` conventions write them, capitalised: a source file `dockerfile.go` is not one), and
 * `<x>.Dockerfile`, `<x>.dockerfile`, `<x>.Containerfile`.
 */
const CONTAINERFILE = /^(?:(?:[Dd]ocker|[Cc]ontainer)file|DOCKERFILE|(?:Docker|Container)file\..+|.+\.(?:[Dd]ocker|[Cc]ontainer)file)$/;

export function isContainerfile(path: string): boolean {
  return CONTAINERFILE.test(path.slice(path.lastIndexOf('/') + 1));
}

/** One instruction of a Dockerfile: its keyword, its text (continuations joined) and its lines (1-based, inclusive). */
interface Instruction {
  readonly keyword: string;
  readonly text: string;
  readonly from: number;
  readonly to: number;
}

/** The escape character: `\`, or the one a leading `# escape=` parser directive names. */
function escapeOf(lines: readonly string[]): string {
  for (const line of lines) {
    const directive = /^\s*#\s*escape\s*=\s*(\S)\s*$/i.exec(line);
    if (directive) return directive[1]!;
    // Directives come first: any other line, comment or not, ends them.
    if (!/^\s*#\s*\w+\s*=/.test(line)) break;
  }
  return '\\';
}

/** The instructions of a Dockerfile, each with the lines it spans (comments and blank lines skipped). */
function instructionsOf(lines: readonly string[]): Instruction[] {
  const escape = escapeOf(lines);
  const instructions: Instruction[] = [];
  let current: { parts: string[]; from: number } | undefined;
  lines.forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (!current && (/^\s*#/.test(line) || line.trim() === '')) return;
    const continued = line.trimEnd().endsWith(escape);
    const part = continued ? line.trimEnd().slice(0, -1) : line;
    if (!current) current = { parts: [], from: index + 1 };
    // Comment lines inside a continued instruction are dropped, as the builder does.
    if (!/^\s*#/.test(line)) current.parts.push(part);
    if (continued) return;
    const text = current.parts.join(' ').trim();
    instructions.push({ keyword: (/^(\S+)/.exec(text)?.[1] ?? '').toUpperCase(), text, from: current.from, to: index + 1 });
    current = undefined;
  });
  if (current) {
    const text = current.parts.join(' ').trim();
    instructions.push({ keyword: (/^(\S+)/.exec(text)?.[1] ?? '').toUpperCase(), text, from: current.from, to: lines.length });
  }
  return instructions;
}

/** The lines that say what an image is built from: every `FROM`, and every `ARG` a `FROM` reads. */
export function baseImageLines(lines: readonly string[]): Set<number> {
  const instructions = instructionsOf(lines);
  const froms = instructions.filter((i) => i.keyword === 'FROM');
  const used = new Set<string>();
  for (const from of froms) for (const m of from.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) used.add(m[1]!);
  const result = new Set<number>();
  const mark = (i: Instruction) => {
    for (let n = i.from; n <= i.to; n++) result.add(n);
  };
  froms.forEach(mark);
  for (const arg of instructions.filter((i) => i.keyword === 'ARG')) {
    const names = arg.text
      .slice(3)
      .trim()
      .split(/\s+/)
      .map((d) => d.split('=')[0]!);
    if (names.some((n) => used.has(n))) mark(arg);
  }
  return result;
}

/** Whether the pull request changed what each Dockerfile's images are built from; head files read once, from git. */
export class ImageChanges {
  private readonly answers = new Map<string, boolean>();

  constructor(
    private readonly diff: PullRequestDiff,
    private readonly files: CommitFiles,
  ) {}

  /** True when the file is new, or an added line is a `FROM` (or an `ARG` a `FROM` reads); a changed file unreadable at head counts as changed. */
  baseChanged(path: string): boolean {
    const added = this.diff.files.get(path);
    if (added === undefined) return false;
    if (added === 'all') return true;
    let answer = this.answers.get(path);
    if (answer === undefined) {
      const lines = this.files.lines(this.diff.head, path);
      answer = lines === undefined || [...baseImageLines(lines)].some((n) => added.has(n));
      this.answers.set(path, answer);
    }
    return answer;
  }
}
