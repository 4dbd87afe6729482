#!/usr/bin/env node
// Fills packages/cli (the CLIs' npm package) with the two command-line bundles of dist/:
// dist/gate/cli -> packages/cli/dist/gate, dist/sync/cli -> packages/cli/dist/sync (chunks,
// licenses.txt and the {"type":"module"} marker included), and the project's LICENSE. A byte copy of
// the committed bundles, rebuilt from scratch, so packing twice gives the same files. `npm run build`
// runs it after bundling, and the package's prepack runs it again (npm pack); scripts/release-cli.js
// fills a staged copy of the package the same way.
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const pkg = join(root, 'packages', 'cli');

/** The package's bin name -> the action whose cli/ bundle it runs. */
export const CLI_BUNDLES = { gate: 'gate', 'gatehouse-sync': 'sync' };

/** Fills `into` (packages/cli unless told): its dist/ from the committed bundles, and LICENSE. */
export function fillCliPackage(into = pkg) {
  rmSync(join(into, 'dist'), { recursive: true, force: true });
  for (const action of Object.values(CLI_BUNDLES)) {
    const from = join(root, 'dist', action, 'cli');
    if (!existsSync(join(from, 'index.js'))) throw new Error(`${from}/index.js is missing: run npm run build first`);
    const to = join(into, 'dist', action);
    mkdirSync(to, { recursive: true });
    cpSync(from, to, { recursive: true });
  }
  copyFileSync(join(root, 'LICENSE'), join(into, 'LICENSE'));
}

// Run as a script (prepack); imported, it only defines fillCliPackage.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  fillCliPackage();
  // stderr: npm pack --json prints its answer on stdout.
  console.error('packages/cli/dist/');
}
