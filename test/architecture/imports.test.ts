import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The import graph of `server/` and `actions/` as madge reads it with the project's tsconfig (type imports included). */
async function importGraph(): Promise<{ graph: Record<string, string[]>; circular: string[][]; skipped: string[] }> {
  const result = await madge(['server', 'actions'], { baseDir: ROOT, fileExtensions: ['ts'], tsConfig: path.join(ROOT, 'tsconfig.json') });
  return { graph: result.obj(), circular: result.circular(), skipped: result.warnings().skipped };
}

/** Strongly connected groups of more than one folder, ignoring imports between a folder and one inside it. */
function folderCycles(graph: Record<string, string[]>): string[][] {
  const nested = (a: string, b: string) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  const edges = new Map<string, Set<string>>();
  for (const [file, deps] of Object.entries(graph)) {
    const from = path.dirname(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dep of deps) {
      const to = path.dirname(dep);
      if (to !== from && !nested(from, to)) edges.get(from)!.add(to);
    }
  }
  // Tarjan's algorithm over the folder graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('imports of server/ and actions/ (madge)', function () {
  this.timeout(120_000);
  let found: Awaited<ReturnType<typeof importGraph>>;
  before(async () => {
    found = await importGraph();
  });

  it('resolves every import (a file madge cannot read would hide its cycles)', () => {
    assert.deepEqual(found.skipped, []);
    assert.ok(Object.keys(found.graph).length > 200, `only ${Object.keys(found.graph).length} files read`);
  });

  it('has no circular import between files', () => {
    assert.deepEqual(found.circular, []);
  });

  it('has no folder importing one that imports it back (a folder and its subfolders apart)', () => {
    assert.deepEqual(folderCycles(found.graph), []);
  });
});
