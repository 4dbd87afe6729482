import { createHash } from 'node:crypto';
import { html, Html } from './html.js';

/*
 * The page frame: one inline style sheet (allowed by its hash in the Content-Security-Policy, so
 * no other style and no script at all can run), a skip link, the header with the person's login
 * and the sign-out form (POST with its CSRF field), and the main landmark.
 */

const CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --bg: #ffffff; --panel: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible, summary:focus-visible, [tabindex]:focus-visible { outline: 3px solid #bf3989; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header.top .brand { font-weight: 700; text-decoration: none; color: var(--ink); }
header.top form { display: flex; gap: .75rem; align-items: center; margin: 0; }
main { padding: 1rem; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; word-break: break-word; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
button, .button { font: inherit; padding: .4rem .9rem; border: 1px solid #1f6feb; border-radius: 6px; background: #1f6feb; color: #fff; cursor: pointer; text-decoration: none; display: inline-block; }
button.quiet { background: #fff; color: var(--accent); border-color: var(--line); }
form.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; margin: 0 0 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: .9rem; color: var(--muted); }
select { font: inherit; padding: .3rem; min-width: 8rem; }
input[type="text"] { font: inherit; padding: .3rem .4rem; border: 1px solid #6e7781; border-radius: 4px; color: var(--ink); }
form.filters.wide label { flex: 1 1 13rem; max-width: 28rem; }
form.filters.wide input { width: 100%; margin-top: .2rem; }
.hint { font-size: .85rem; color: var(--muted); }
code { font: .85rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.line { display: block; }
.nowrap { white-space: nowrap; }
td.wide { min-width: 16rem; max-width: 30rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid var(--line); }
th { background: var(--panel); white-space: nowrap; }
th a { color: var(--ink); }
td.num { white-space: nowrap; }
.band { display: inline-block; font-size: .8rem; font-weight: 600; padding: 0 .45rem; border-radius: 999px; margin-left: .35rem; }
.band-Elite { background: #d3f5df; color: #0a3d1c; }
.band-High { background: #dbe9ff; color: #0b2e6b; }
.band-Medium { background: #fff1c2; color: #5c3d00; }
.band-Low { background: #ffd9d6; color: #6b0f08; }
td.Elite { border-left: 4px solid #1a7f37; } td.High { border-left: 4px solid #0969da; } td.Medium { border-left: 4px solid #9a6700; } td.Low { border-left: 4px solid #cf222e; }
.gap { color: var(--muted); font-size: .85rem; display: block; white-space: normal; min-width: 12rem; max-width: 22rem; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; background: #fff; }
.card h3 { margin-top: 0; font-size: 1rem; }
.card .value { font-size: 1.25rem; font-weight: 600; }
figure { margin: .5rem 0 1rem; }
figcaption { font-size: .9rem; color: var(--muted); }
svg.chart { width: 100%; height: auto; max-height: 12rem; display: block; }
details { margin: .25rem 0 .75rem; }
.notice { border: 1px solid var(--line); border-left: 4px solid #9a6700; background: #fff8e1; padding: .75rem 1rem; border-radius: 6px; }
.pager { display: flex; gap: 1rem; margin: .75rem 0; }
.centre { max-width: 36rem; margin: 4rem auto; text-align: center; }
@media (max-width: 600px) { main { padding: .75rem; } th, td { padding: .4rem; } h1 { font-size: 1.3rem; } }
`;

/** The style sheet's hash, for the Content-Security-Policy. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/**
 * No script, no outside resource, no framing; forms post only here. The callback's code is in its
 * URL: no referrer leaves the console (`same-origin`, not `no-referrer`, under which browsers send
 * `Origin: null` with the sign-out form and its origin could not be checked).
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export interface Viewer {
  readonly login: string;
  readonly csrf: string;
}

export function page(title: string, body: Html, viewer?: Viewer): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Gatehouse</title>
<style>${new Html(CSS)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/console">Gatehouse console</a>
${
  viewer
    ? html`<form method="post" action="/console/logout"><span>Signed in as <strong>${viewer.login}</strong></span><input type="hidden" name="csrf" value="${viewer.csrf}"><button type="submit" class="quiet">Sign out</button></form>`
    : ''
}
</header>
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>
`.text;
}
