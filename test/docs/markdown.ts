import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/processes.js';

/** The project's Markdown documentation: the README, docs/ and each action folder's README. */
export function docFiles(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  const actions = readdirSync(join(REPO_ROOT, 'actions'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(REPO_ROOT, 'actions', d.name)).filter((f) => f === 'README.md').map((f) => `actions/${d.name}/${f}`));
  return ['README.md', ...docs, ...actions];
}

export const readDoc = (file: string): string => readFileSync(join(REPO_ROOT, file), 'utf8');

export interface Block {
  lang: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Fenced code blocks (```lang … ```), and the text outside them with each fenced line blanked. */
export function splitFences(text: string): { blocks: Block[]; prose: string[] } {
  const blocks: Block[] = [];
  const prose: string[] = [];
  let open: Block | undefined;
  text.split('\n').forEach((line, i) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (open) {
      if (fence) {
        blocks.push(open);
        open = undefined;
      } else open.body += `${line}\n`;
      prose.push('');
    } else if (fence) {
      open = { lang: fence[1]!, body: '', line: i + 1 };
      prose.push('');
    } else prose.push(line);
  });
  return { blocks, prose };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers (a repeated heading gets -1, -2 … as on GitHub). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of splitFences(text).prose) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Link targets of the prose (inline code and fenced blocks left out), with their 1-based lines. */
export function links(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  splitFences(text).prose.forEach((line, i) => {
    const bare = line.replace(/`[^`]*`/g, '');
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}
