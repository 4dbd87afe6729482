import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';

/** Mermaid's own parser on the one ```mermaid block of `markdown` (it needs a DOM for its sanitiser, which jsdom gives it). */
export async function parseMermaidBlock(markdown: string): Promise<{ diagramType: string; source: string }> {
  if (!('window' in globalThis)) {
    const { window } = new JSDOM('');
    Object.assign(globalThis, { window, document: window.document });
  }
  const { default: mermaid } = await import('mermaid');
  const blocks = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)];
  assert.equal(blocks.length, 1, 'one mermaid block');
  const source = blocks[0]![1]!;
  const { diagramType } = (await mermaid.parse(source)) as { diagramType: string };
  return { diagramType, source };
}

/** The values of each `bar [...]` line of an xychart, in order. */
export const barsOf = (source: string): number[][] =>
  source
    .split('\n')
    .filter((l) => l.trim().startsWith('bar '))
    .map((l) => JSON.parse(l.trim().slice(4)) as number[]);
