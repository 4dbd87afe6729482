import { execFileSync } from 'node:child_process';

/**
 * Files of a repository's commits as text or lines, each read once (`git cat-file blob
 * <commit>:<path>`) and shared by every rule that asks: undefined when the commit has no such
 * file. Read synchronously: the rules ask one result at a time, and only for the few files they
 * must read.
 */
export class CommitFiles {
  private readonly texts = new Map<string, string | undefined>();
  private readonly lineLists = new Map<string, string[] | undefined>();

  constructor(private readonly repo: string) {}

  text(commit: string, path: string): string | undefined {
    const key = `${commit}:${path}`;
    if (!this.texts.has(key)) {
      let text: string | undefined;
      try {
        text = execFileSync('git', ['-C', this.repo, 'cat-file', 'blob', key], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        text = undefined;
      }
      this.texts.set(key, text);
    }
    return this.texts.get(key);
  }

  lines(commit: string, path: string): string[] | undefined {
    const key = `${commit}:${path}`;
    if (!this.lineLists.has(key)) {
      const text = this.text(commit, path);
      // The lines are what the rules keep: the text itself is not held twice.
      this.texts.delete(key);
      this.lineLists.set(key, text?.split(/\r?\n/));
    }
    return this.lineLists.get(key);
  }
}
