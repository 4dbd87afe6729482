import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAIN_INPUTS, POST_INPUTS } from '../support/bundle-runs.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { actionEnv, runAction } from '../support/runner.js';

/**
 * Tools that run an action from its sources (`@github/local-action`) import the logic entry and
 * call the `run()` it exports; the runner runs the bundle of the entry that calls it. Both must
 * give the same answer, and importing must run nothing (or the tool would run the action twice).
 */
const IMPORTED = '--- imported ---';
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

async function runExported(source: string, bundle: string, inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-entry-'));
  try {
    const script = `const m = await import(${JSON.stringify(pathToFileURL(source).href)});
if (typeof m.run !== 'function') { console.log('no run() export'); process.exit(9); }
console.log(${JSON.stringify(IMPORTED)});
await m.run();`;
    // The tsx loader by URL: the process runs in the temporary workspace, as the runner's would.
    return await runToEnd(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], { cwd: dir, env: actionEnv(bundle, inputs, dir) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const actions = readdirSync(join(REPO_ROOT, 'actions')).filter((name) => existsSync(join(REPO_ROOT, 'actions', name, 'action.yml')));

describe('action entries: run() exported for local runners, the bundles unchanged', () => {
  for (const name of actions) {
    for (const [logic, entry, bundle, inputs] of [
      ['main.ts', 'index.ts', join('dist', name, 'index.js'), MAIN_INPUTS[name]],
      ['post.ts', 'post-index.ts', join('dist', name, 'post', 'index.js'), POST_INPUTS[name]],
    ] as const) {
      if (logic === 'post.ts' && !existsSync(join(REPO_ROOT, 'actions', name, logic))) continue;
      it(`${name}: ${logic} exports run(); importing it runs nothing; run() answers as ${bundle} does`, async () => {
        assert.ok(inputs, `no smoke inputs for ${name} ${logic}`);
        // The runner's entry only calls the exported run().
        assert.match(readFileSync(join(REPO_ROOT, 'actions', name, entry), 'utf8'), new RegExp(`^import \\{ run \\} from '\\./${logic.replace('.ts', '')}\\.js';\\s+await run\\(\\);\\s*$`));
        const fromSource = await runExported(join(REPO_ROOT, 'actions', name, logic), join(REPO_ROOT, bundle), inputs);
        const [before, after] = fromSource.stdout.split(`${IMPORTED}\n`);
        assert.equal(after === undefined ? 'missing' : 'present', 'present', fromSource.stdout + fromSource.stderr);
        assert.equal(before, '', 'importing the entry printed something: it ran on import');
        const fromBundle = await runAction(join(REPO_ROOT, bundle), inputs);
        assert.equal(fromSource.code, fromBundle.code, fromSource.stderr);
        assert.equal(after, fromBundle.stdout);
        assert.ok(fromBundle.stdout.length > 0);
      });
    }
  }
});
