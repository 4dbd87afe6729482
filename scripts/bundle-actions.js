#!/usr/bin/env node
// Bundles every action (actions/<name>/index.ts, which calls the run() main.ts exports; already
// compiled by tsc into build/) into dist/<name>/index.js with ncc, an action's post step
// (post-index.ts, calling post.ts's run()) into dist/<name>/post/index.js and its command-line
// entry (cli.ts) into dist/<name>/cli/index.js.
// dist/ is rebuilt from scratch so a removed action leaves nothing behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillCliPackage } from './cli-package.js';

const root = new URL('..', import.meta.url).pathname;
const names = readdirSync(join(root, 'actions'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(root, 'actions', d.name, 'main.ts')))
  .map((d) => d.name)
  .sort();

rmSync(join(root, 'dist'), { recursive: true, force: true });
const ncc = join(root, 'node_modules', '.bin', 'ncc');
// --no-cache: every build starts from the sources alone, as on a fresh clone (ncc otherwise keeps a
// webpack cache per working directory in ~/.cache/ncc), since CI checks dist/ against a fresh build.
function bundle(entry, outDir) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run tsc first (npm run build does)`);
  const work = mkdtempSync(join(tmpdir(), 'gatehouse-bundle-'));
  try {
    const stats = join(work, 'stats.json');
    execFileSync(ncc, ['build', entry, '-o', outDir, '--stats-out', stats, '--no-cache', '--quiet'], { stdio: 'inherit' });
    writeFileSync(join(outDir, 'licenses.txt'), licenses(JSON.parse(readFileSync(stats, 'utf8'))));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`${outDir.slice(root.length)}/index.js`);
}

/**
 * The licenses of every package bundled, in every chunk. ncc's own --license writes one file per
 * chunk under the same name, so with a lazily loaded chunk the last chunk's list replaced the
 * rest. Same layout as ncc's: name, license type, license text.
 */
function licenses(stats) {
  const roots = new Map();
  const visit = (modules) => {
    for (const module of modules ?? []) {
      // The identifier is the loader chain, then the file, then a hash.
      const file = (module.identifier ?? '').split('!').pop().split('|')[0];
      const at = file.lastIndexOf('/node_modules/');
      if (at >= 0) {
        const parts = file.slice(at + '/node_modules/'.length).split('/');
        const name = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
        roots.set(name, `${file.slice(0, at)}/node_modules/${name}`);
      }
      visit(module.modules);
    }
  };
  visit(stats.modules);
  return [...roots]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, dir]) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const type = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN');
      const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
      const text = file ? readFileSync(join(dir, file), 'utf8').trim() : '';
      return `${name}\n${type}\n${text}\n`;
    })
    .join('\n');
}

// The runner's entry of each part: main and post only call run() (main.ts, post.ts export it for
// tools that import an action, such as @github/local-action); the CLI runs on import.
const ENTRIES = [
  ['index', ''],
  ['post-index', 'post'],
  ['cli', 'cli'],
];
for (const name of names) {
  for (const [entry, outDir] of ENTRIES) {
    if (existsSync(join(root, 'actions', name, `${entry}.ts`))) {
      bundle(join(root, 'build', 'actions', name, `${entry}.js`), join(root, 'dist', name, outDir));
    }
  }
}

// The CLIs' npm package gets the fresh command-line bundles too (packages/cli/dist, not committed).
fillCliPackage();
