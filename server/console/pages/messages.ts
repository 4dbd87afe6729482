import { html } from './html.js';
import { page, type Viewer } from './layout.js';

/** After sign-out: GitHub would sign an authorised person straight back in, so signing in again is a choice. */
export function signedOutPage(): string {
  return page(
    'Signed out',
    html`<div class="centre"><h1>You are signed out</h1>
<p>Your console session has ended. GitHub may still remember that you authorised Gatehouse, so signing in again can be a single click.</p>
<p><a class="button" href="/console/login">Sign in</a></p></div>`,
  );
}

/** The same page for a repository that does not exist and one the person cannot see. */
export function notFoundPage(viewer?: Viewer): string {
  return page(
    'Not found',
    html`<h1>Not found</h1>
<p>There is nothing here, or nothing you can see: the console shows only repositories that GitHub lists for you through the Gatehouse App, of the owners this Gatehouse serves.</p>
<p><a href="/console">All repositories</a></p>`,
    viewer,
  );
}

/** A page that could not be made, in words for the person (never a token, a code or a cookie). */
export function problemPage(title: string, message: string, viewer?: Viewer, action?: { href: string; label: string }): string {
  return page(title, html`<div class="centre"><h1>${title}</h1><p>${message}</p>${action ? html`<p><a class="button" href="${action.href}">${action.label}</a></p>` : ''}</div>`, viewer);
}
