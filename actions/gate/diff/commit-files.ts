import { execFileSync } from 'node:child_process';

/**
 * Files of a repository's commits as lines, each read once (`git cat-file blob <commit>:<path>`)
 * and shared by every rule that asks: undefined when the commit has no such file. Read
 * synchronously: the rules ask one result at a time, and only for the few files they must read.
 */
export class CommitFiles {
  private readonly texts = new Map<string, string[] | undefined>();

  constructor(private readonly repo: string) {}

  lines(commit: string, path: string): string[] | undefined {
    const key = `${commit}:${path}`;
    if (!this.texts.has(key)) {
      let lines: string[] | undefined;
      try {
        lines = execFileSync('git', ['-C', this.repo, 'cat-file', 'blob', key], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] }).split(/\r?\n/);
      } catch {
        lines = undefined;
      }
      this.texts.set(key, lines);
    }
    return this.texts.get(key);
  }
}
