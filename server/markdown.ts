/**
 * Data as Markdown text: the one place that decides how text the product did not write (a
 * scanner's message, a file name, an environment name, a product name, an error a peer sent)
 * goes into the Markdown GitHub renders (job summaries, pull-request and review comments, issue
 * bodies) or into text GitHub links up (issue titles).
 *
 * What data must not do there: make HTML (`<img>` is a tracking pixel, `<details>` hides text,
 * raw HTML restyles the page), mention anyone (`@user`, `@org/team` notify), cross-reference an
 * issue (`#123`, `owner/repo#123` leave a "mentioned this" on it), make a link or an image of its
 * own, or break the surrounding structure (a `|` ends a table cell, a line break ends the block,
 * a backtick opens a code span). What it may still do: show every character it holds. So:
 * - `<`, `>`, `&` become character references: GitHub shows them, and no tag can form;
 * - a zero-width space goes after each `@` and `#`, and inside `GH-` before a number: shown the
 *   same, but no mention or reference;
 * - `\`, `` ` ``, `|`, `[`, `]`, `!` get a backslash: shown as themselves, with no code span,
 *   cell boundary, link or image (`!` too, so that a `!` of the data cannot turn a link the
 *   product keeps into an image);
 * - line breaks (and the other control characters) become spaces: inline text stays inline.
 * Emphasis characters (`*`, `_`, `~`) are left alone: at most they make text bold or struck,
 * and escaping them would make rule ids and `snake_case` names harder to search for. At the
 * start of the text, what would open a block (`- `, `1. `, `***`, `~~~`) is escaped too, since the
 * product puts data at the start of a line (a review comment's message). A bare URL still becomes
 * a link (GitHub links them, and one to an issue still references it).
 */
import { spaceControlCharacters } from './http/control-characters.js';

const MARKDOWN_PUNCTUATION = /[\\`|[\]!]/g;
const REFERENCES: Readonly<Record<string, string>> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/** Text GitHub renders as it is (an issue title): no mention, no issue reference, one line. */
export const plainText = (data: string): string =>
  spaceControlCharacters(data)
    .replace(/[@#]/g, '$&\u200b')
    .replace(/(gh)-(?=\d)/gi, '$1\u200b-');

/** Each character of `data` as itself: nothing it holds builds HTML, a mention, a link or a span. */
const escaped = (data: string): string =>
  plainText(data)
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/[<>&]/g, (c) => REFERENCES[c]!);

/**
 * Inline Markdown made safe at the start of a line, where the product puts data (a review
 * comment's message): what would open a block instead (a list, a rule, a fence, an indented code
 * block) has its marker escaped; the leading spaces, which HTML does not show, are dropped.
 */
const atLineStart = (markdown: string): string =>
  markdown
    .replace(/^\s+/, '')
    // A bullet, a rule (`***`, `- - -`, `___`), a `~~~` fence, a setext underline.
    .replace(/^([-+*](?=\s|$)|([-*_])(?=[ \t]*\2[ \t]*\2)|~(?=~~)|=(?==*[ \t]*$))/, '\\$1')
    // An ordered list's `1.` or `1)`.
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');

/** Data as inline Markdown text, in a paragraph, a heading, a list item or a table cell: shown as it is, doing nothing. */
export const inlineText = (data: string): string => atLineStart(escaped(data));

/**
 * Data as a code span (a path, a rule id, a component), outside a table: a fence of backticks
 * longer than any run inside, so the span cannot end early. Inside a code span nothing renders
 * (no HTML, no mention), so nothing else is escaped.
 */
export function codeSpan(data: string): string {
  const text = spaceControlCharacters(data);
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // A space each side keeps a backtick at either end from joining the fence, and a space of the
  // data at either end from being stripped: CommonMark strips one space each side when both have one.
  const pad = /^[` ]|[` ]$/.test(text) || text === '' ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A code span inside a table cell: GitHub splits the row at every `|` not escaped by a
 * backslash, code spans included, and reads `\\` as an escaped backslash first. So each `|`
 * gets a backslash and the data's backslashes right before it are doubled: the cell holds, and
 * such a backslash shows twice (a code span cannot show `\|` in a cell otherwise).
 */
export const codeSpanInCell = (data: string): string => codeSpan(data).replace(/(\\*)\|/g, (_, slashes: string) => `${slashes}${slashes}\\|`);

/**
 * A link of the product's own making to a URL it built: the label is data, the URL's characters
 * that could end the destination (`(`, `)`, spaces, `<`, `>`) are percent-encoded.
 */
export function link(label: string, url: string): string {
  const destination = url.replace(/[()\s<>|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${inlineText(label)}](${destination})`;
}

/**
 * A SARIF result's `message.text` as Markdown. SARIF 2.1.0 (§3.11.6) lets a plain-text message
 * carry embedded links, `[text](target)`, whose target is a URI or the id of one of the result's
 * `relatedLocations` (a whole number), and escapes a literal bracket as `\[` `\]`. Those links
 * are the scanner's own format and stay links (http and https targets, and ids, kept as the
 * scanner wrote them); everything else is data (`inlineText`), the link texts included, so a
 * message can make no image, no HTML and no mention, and a link only to an http(s) address.
 */
export function scannerMessage(message: string): string {
  const parts: string[] = [];
  const embedded = /\\([[\]])|\[((?:[^[\]\\]|\\[[\]\\])*)\]\((https?:\/\/[^\s()<>|\\`]+|\d+)\)/g;
  let at = 0;
  for (const m of message.matchAll(embedded)) {
    parts.push(escaped(message.slice(at, m.index)));
    if (m[1] !== undefined) parts.push(escaped(m[1]));
    else parts.push(`[${escaped(m[2]!.replace(/\\([[\]\\])/g, '$1'))}](${m[3]})`);
    at = m.index + m[0].length;
  }
  parts.push(escaped(message.slice(at)));
  return atLineStart(parts.join(''));
}
