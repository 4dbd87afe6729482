import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real git repository in a temporary folder, for tests that need history. */
export class GitRepo {
  private constructor(readonly dir: string) {}

  static create(): GitRepo {
    const repo = new GitRepo(mkdtempSync(join(tmpdir(), 'gatehouse-git-')));
    repo.git('init', '--quiet', '--initial-branch=main');
    repo.git('config', 'user.email', 'test@example.com');
    repo.git('config', 'user.name', 'Test');
    repo.git('config', 'commit.gpgsign', 'false');
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync('git', ['-C', this.dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  }

  write(path: string, content: string): this {
    const file = join(this.dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return this;
  }

  /** Commits everything in the working tree; returns the commit id. */
  commit(message: string): string {
    this.git('add', '--all');
    this.git('commit', '--quiet', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `count` numbered lines, `prefix` + n. */
export const lines = (count: number, prefix = 'line '): string => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`).join('\n') + '\n';
