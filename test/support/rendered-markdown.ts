import { JSDOM } from 'jsdom';
import { marked } from 'marked';

// The few DOM members used here (the project compiles without the DOM library: see jsdom.d.ts).
interface RenderedNode {
  textContent: string | null;
  readonly parentElement: RenderedElement | null;
}
interface RenderedElement extends RenderedNode {
  readonly tagName: string;
  readonly outerHTML: string;
  closest(selector: string): RenderedElement | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): RenderedElement | null;
  querySelectorAll(selector: string): ArrayLike<RenderedElement> & Iterable<RenderedElement>;
}
export interface Document {
  readonly body: RenderedElement;
  querySelector(selector: string): RenderedElement | null;
  querySelectorAll(selector: string): ArrayLike<RenderedElement> & Iterable<RenderedElement>;
  createTreeWalker(root: RenderedElement, whatToShow: number): { nextNode(): RenderedNode | null };
}

/**
 * Markdown rendered as GitHub-flavoured Markdown (tables, strikethrough, autolinks) by marked,
 * which, like GitHub's renderer before its sanitiser, passes raw HTML through: an `<img>` that
 * survives the product's escaping is an `img` element here. The result is a DOM to inspect.
 */
export function renderGfm(markdown: string): Document {
  const html = marked.parse(markdown, { gfm: true, async: false });
  return new JSDOM(`<!doctype html><body>${html}</body>`).window.document as Document;
}

/** Text nodes outside code spans, code blocks and links: where GitHub turns `@name` and `#1` into mentions and references. */
function liveText(doc: Document): string[] {
  const texts: string[] = [];
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest('code, pre, a')) texts.push(node.textContent ?? '');
  }
  return texts;
}

/**
 * What GitHub would turn into a notification or a cross-reference: `@user`, `@org/team` (an `@`
 * not after a letter or digit, then a letter or digit) and `#123`, `owner/repo#123`, `GH-123`.
 */
export function liveMentions(doc: Document): string[] {
  return liveText(doc).flatMap((t) => [...t.matchAll(/(?<![A-Za-z0-9])@[A-Za-z0-9][\w/-]*|#\d+|GH-\d+/g)].map((m) => m[0]));
}

/** Tag names of every element in the body, each once. */
export const tagsIn = (doc: Document): string[] => [...new Set([...doc.body.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()))].sort();

/**
 * The body's text, as GitHub shows it. marked links a bare URL from the source's raw characters,
 * so a backslash escape inside one stays in its text; GitHub's renderer, and a browser's
 * display, show the escaped character alone: the escapes inside links are undone here.
 */
export function shownText(doc: Document): string {
  for (const a of doc.querySelectorAll('a')) a.textContent = unescaped(a.textContent ?? '');
  return (doc.body.textContent ?? '').replace(/\u200b/g, '').replace(/\s+/g, ' ').trim();
}

/** Links whose text is not their address: what data must never make (a bare URL GitHub links is its own text). */
export const disguisedLinks = (doc: Document): string[] =>
  [...doc.querySelectorAll('a')].filter((a) => unescaped(a.textContent ?? '') !== unescaped(decodeURI(a.getAttribute('href') ?? ''))).map((a) => a.outerHTML);
const unescaped = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
