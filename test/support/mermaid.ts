import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';

let loaded: Promise<typeof import('mermaid').default> | undefined;

/**
 * Mermaid, loaded once with a jsdom window for its sanitiser (DOMPurify takes the window when it
 * loads). The globals are removed again, so that no other test sees a browser.
 */
function mermaid(): Promise<typeof import('mermaid').default> {
  loaded ??= (async () => {
    const { window } = new JSDOM('');
    Object.assign(globalThis, { window, document: window.document });
    try {
      return (await import('mermaid')).default;
    } finally {
      delete (globalThis as { window?: unknown }).window;
      delete (globalThis as { document?: unknown }).document;
    }
  })();
  return loaded;
}

/** Mermaid's own parser on the one ```mermaid block of `markdown`. */
export async function parseMermaidBlock(markdown: string): Promise<{ diagramType: string; source: string }> {
  const parser = await mermaid();
  const blocks = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)];
  assert.equal(blocks.length, 1, 'one mermaid block');
  const source = blocks[0]![1]!;
  const { diagramType } = (await parser.parse(source)) as { diagramType: string };
  return { diagramType, source };
}

/** The values of each `bar [...]` line of an xychart, in order. */
export const barsOf = (source: string): number[][] =>
  source
    .split('\n')
    .filter((l) => l.trim().startsWith('bar '))
    .map((l) => JSON.parse(l.trim().slice(4)) as number[]);
