#!/usr/bin/env node
// Bundles every action (actions/<name>/main.ts, already compiled by tsc into build/) into
// dist/<name>/index.js with ncc, an action's post step (post.ts) into dist/<name>/post/index.js and
// its command-line entry (cli.ts) into dist/<name>/cli/index.js.
// dist/ is rebuilt from scratch so a removed action leaves nothing behind.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const names = readdirSync(join(root, 'actions'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'actions', d.name, 'main.ts')))
  .map((d) => d.name)
  .sort();

rmSync(join(root, 'dist'), { recursive: true, force: true });
const ncc = join(root, 'node_modules', '.bin', 'ncc');
// --no-cache: ncc keeps a webpack cache per working directory (~/.cache/ncc), and a build from a
// stale cache once numbered a lazily loaded chunk differently from a fresh build, which CI's
// check that dist/ equals a fresh build would reject.
function bundle(entry, outDir) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run tsc first (npm run build does)`);
  execFileSync(ncc, ['build', entry, '-o', outDir, '--license', 'licenses.txt', '--no-cache', '--quiet'], { stdio: 'inherit' });
  console.log(`${outDir.slice(root.length)}/index.js`);
}

for (const name of names) {
  bundle(join(root, 'build', 'actions', name, 'main.js'), join(root, 'dist', name));
  for (const extra of ['post', 'cli']) {
    if (existsSync(join(root, 'actions', name, `${extra}.ts`))) {
      bundle(join(root, 'build', 'actions', name, `${extra}.js`), join(root, 'dist', name, extra));
    }
  }
}
