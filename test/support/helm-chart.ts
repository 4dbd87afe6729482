import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './processes.js';

/**
 * A Helm chart of charts/, read as text: no Helm binary runs on the development machines or in
 * CI, so the chart tests check the values against the schema and the templates as text.
 */
export type Tree = Record<string, unknown>;

export const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

export function helmChart(name: string) {
  const dir = join(REPO_ROOT, 'charts', name);
  const templates = join(dir, 'templates');
  const template = (file: string): string => readFileSync(join(templates, file), 'utf8');
  const values = (): Tree => parse(readFileSync(join(dir, 'values.yaml'), 'utf8')) as Tree;
  return {
    chart: (): Tree => parse(readFileSync(join(dir, 'Chart.yaml'), 'utf8')) as Tree,
    values,
    schema: (): Tree => JSON.parse(readFileSync(join(dir, 'values.schema.json'), 'utf8')) as Tree,
    template,
    /**
     * The absolute `.Values` paths the templates read (a path relative to a `with` or `range`
     * scope is not seen), how many, and those values.yaml does not have.
     */
    valueReferences(): { files: string[]; count: number; missing: string[] } {
      const files = readdirSync(templates).filter((f) => /\.(yaml|tpl|txt)$/.test(f));
      const all = values();
      const missing: string[] = [];
      let count = 0;
      for (const file of files) {
        for (const match of template(file).matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
          count += 1;
          const path = match[1]!.slice(1);
          if (!lookup(all, path).found) missing.push(`${file}: .Values.${path}`);
        }
      }
      return { files, count, missing };
    },
  };
}

export function lookup(tree: Tree, path: string): { found: boolean; value?: unknown } {
  let node: unknown = tree;
  for (const part of path.split('.')) {
    if (!isTree(node) || !(part in node)) return { found: false };
    node = node[part];
  }
  return { found: true, value: node };
}

/** A copy of `tree` with `value` at `path` (its parents must exist). */
export function withValue(tree: Tree, path: string, value: unknown): Tree {
  const copy = structuredClone(tree);
  const parts = path.split('.');
  let node = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Tree;
  node[parts[parts.length - 1]!] = value;
  return copy;
}
