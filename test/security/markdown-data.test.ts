import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codeSpan, codeSpanInCell, inlineText, link, plainText, scannerMessage } from '../../server/markdown.js';
import { disguisedLinks, liveMentions, renderGfm, shownText, tagsIn } from '../support/rendered-markdown.js';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<details><summary>open me</summary>hidden</details>',
  '<script>alert(1)</script>',
  '<a href="javascript:alert(1)">x</a>',
  '@org/team',
  '@user',
  'ping @octocat',
  '#123',
  'octo-org/other#3',
  'GH-42',
  '![pixel](https://evil.example/p.png)',
  '[click](https://evil.example/phish)',
  'a | b',
  'x`y',
  '&lt;img src=x&gt;',
  '\\<img src=x>',
  'line one\n# heading\n<img src=y>',
];

/** Whitespace as HTML shows it: runs as one, none at the ends; no zero-width spaces. */
const shown = (text: string): string => text.replace(/\u200b/g, '').replace(/\s+/g, ' ').trim();
/** Emphasis characters are left to format (see server/markdown.ts): compared without them, and their elements allowed. */
const unformatted = (text: string): string => shown(text.replace(/[*_~]/g, ''));
const FORMATTING = ['em', 'strong', 'del'];
/** Control characters as the module makes them: spaces. */
const oneLine = (text: string): string => text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ');

// Characters that build Markdown and HTML, letters, digits, an astral emoji and a line break.
// No bare URL: marked links one from its raw characters, escapes and all, unlike GitHub (the
// examples above have bare URLs).
const piece = fc.constantFrom(...'<>&@#[]()!\\|`/:.=-+*_~ abcZ09'.split(''), '\u{1F600}', '\n', '\t', 'img', 'details', 'GH-1', '1.', '    ');
const data = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));

describe('data as Markdown text (server/markdown.ts), rendered as GitHub-flavoured Markdown', function () {
  // Each run renders into a fresh jsdom document: a few hundred runs take seconds on a busy machine.
  this.timeout(120_000);
  for (const text of HOSTILE) {
    it(`inline text: ${JSON.stringify(text)} shows as itself and does nothing`, () => {
      const doc = renderGfm(`Environment: ${inlineText(text)}`);
      // GFM links a bare URL: an `a` showing its own address is all data may add.
      assert.deepEqual(tagsIn(doc).filter((t) => t !== 'a'), ['p']);
      assert.deepEqual(disguisedLinks(doc), []);
      assert.deepEqual(liveMentions(doc), []);
      assert.equal(shownText(doc), shown(`Environment: ${oneLine(text)}`));
    });
  }

  it('inline text, any string, at the start of a line too: one paragraph, its characters shown, no element, mention or reference', () => {
    fc.assert(
      fc.property(data, (text) => {
        const doc = renderGfm(`${inlineText(text)} x`);
        assert.deepEqual(tagsIn(doc).filter((t) => !FORMATTING.includes(t)), ['p']);
        assert.deepEqual(liveMentions(doc), []);
        assert.equal(unformatted(shownText(doc)), unformatted(`${oneLine(text)} x`));
      }),
      { numRuns: 200 },
    );
  });

  it('table cells, any strings: the row keeps its cells, each shows its text', () => {
    fc.assert(
      fc.property(data, data, (a, b) => {
        const doc = renderGfm(`| A | B |\n| --- | --- |\n| ${inlineText(a)} | ${inlineText(b)} |\n`);
        assert.deepEqual(tagsIn(doc).filter((t) => !FORMATTING.includes(t)), ['table', 'tbody', 'td', 'th', 'thead', 'tr']);
        assert.deepEqual(liveMentions(doc), []);
        const cells = [...doc.querySelectorAll('tbody td')].map((td) => unformatted(td.textContent!));
        assert.deepEqual(cells, [unformatted(oneLine(a)), unformatted(oneLine(b))]);
      }),
      { numRuns: 150 },
    );
  });

  it('code spans, any string: one code element holding the text exactly; in a cell too', () => {
    fc.assert(
      fc.property(data.filter((t) => t.trim() !== ''), (text) => {
        const inline = renderGfm(`see ${codeSpan(text)} here`);
        assert.deepEqual(tagsIn(inline).filter((t) => t !== 'a'), ['code', 'p']);
        assert.equal(inline.querySelector('code')!.textContent, oneLine(text));
        const table = renderGfm(`| A |\n| --- |\n| ${codeSpanInCell(text)} |\n`);
        assert.equal(table.querySelectorAll('tbody td').length, 1);
        // A backslash right before a pipe shows twice there (see codeSpanInCell).
        assert.equal(table.querySelector('tbody td code')!.textContent, oneLine(text).replace(/(\\+)\|/g, '$1$1|'));
      }),
      { numRuns: 150 },
    );
  });

  it("the product's links: data labels, destinations that cannot be ended early", () => {
    const doc = renderGfm(link('src/<img src=x>(1).js:3 @user', 'https://github.com/o/r/blob/abc/src/a(1) b.js#L3'));
    assert.deepEqual(tagsIn(doc), ['a', 'p']);
    assert.equal(doc.querySelector('a')!.getAttribute('href'), 'https://github.com/o/r/blob/abc/src/a%281%29%20b.js#L3');
    assert.equal(shown(doc.querySelector('a')!.textContent!), 'src/<img src=x>(1).js:3 @user');
  });

  describe("a SARIF message: the scanner's own links kept, everything else data", () => {
    it('http(s) links and embedded links to related locations stay links, with their targets as written', () => {
      const doc = renderGfm(scannerMessage('Tainted data from [this source](1) reaches [a sink](https://example.com/docs?a=1&b=2#x), see \\[not a link\\] @user'));
      assert.deepEqual([...doc.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]), [
        ['this source', '1'],
        ['a sink', 'https://example.com/docs?a=1&b=2#x'],
      ]);
      assert.match(shown(doc.body.textContent!), /see \[not a link\] @user$/);
      assert.deepEqual(liveMentions(doc), []);
    });

    it('an image, raw HTML, a javascript: link, a mention in a link text: none of them', () => {
      const doc = renderGfm(scannerMessage('![p](https://evil.example/p.png) <img src=x onerror=alert(1)> <details>x</details> [js](javascript:alert(1)) [@org/team #9](https://example.com/)'));
      assert.deepEqual(tagsIn(doc), ['a', 'p']);
      assert.deepEqual([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href')), ['https://evil.example/p.png', 'https://example.com/']);
      assert.deepEqual(liveMentions(doc), []);
      assert.match(shown(doc.body.textContent!), /<img src=x onerror=alert\(1\)> <details>x<\/details> \[js\]\(javascript:alert\(1\)\) @org\/team #9$/);
    });

    it('any message: no element but links (to http(s) or a location id), no mention', () => {
      const linkish = fc.tuple(data, fc.constantFrom('https://a.example/x', '2', 'javascript:x', 'http://b.example/<y>')).map(([t, u]) => `[${t}](${u})`);
      const message = fc.array(fc.oneof(data, linkish, fc.constant('!')), { maxLength: 6 }).map((p) => p.join(''));
      fc.assert(
        fc.property(message, (text) => {
          const doc = renderGfm(scannerMessage(text));
          assert.ok(tagsIn(doc).every((t) => ['p', 'a', ...FORMATTING].includes(t)), `${tagsIn(doc).join(',')} from ${JSON.stringify(text)}`);
          for (const a of doc.querySelectorAll('a')) assert.match(a.getAttribute('href') ?? '', /^(https?:\/\/|\d+$)/);
          assert.deepEqual(liveMentions(doc), []);
        }),
        { numRuns: 200 },
      );
    });
  });

  it('plain text (an issue title): mentions and references inert, one line, nothing else changed', () => {
    assert.equal(plainText('High: <b>x</b> in @scope/pkg #34 GH-7\nmore'), 'High: <b>x</b> in @\u200bscope/pkg #\u200b34 GH\u200b-7 more');
  });
});
