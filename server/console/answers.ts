import type { Response } from 'express';
import { PAGE_HEADERS } from './pages/layout.js';

/**
 * Every status the console's pages answer with, by name: the console's catalogue (its pages are
 * HTML, so they are not in the JSON catalogue of server/errors.ts). docs/console.md lists them.
 */
export const CONSOLE_ANSWERS = {
  page: 200,
  signed_out: 200,
  redirect: 302,
  bad_request: 400,
  sign_in_refused: 400,
  csrf_refused: 403,
  authorization_declined: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_page: 422,
  misconfigured: 500,
  github_unavailable: 502,
  store_unavailable: 503,
} as const satisfies Record<string, number>;

export type ConsoleAnswer = keyof typeof CONSOLE_ANSWERS;

export function sendPage(res: Response, answer: ConsoleAnswer, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.status(CONSOLE_ANSWERS[answer]).set({ ...PAGE_HEADERS, ...headers }).send(body);
}

/** A download (the token audit's CSV): the pages' headers, its own type, saved under `filename` (letters, digits, `.`, `_`, `-`). */
export function sendDownload(res: Response, type: string, filename: string, body: string): void {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, '_');
  res.status(CONSOLE_ANSWERS.page).set({ ...PAGE_HEADERS, 'content-type': type, 'content-disposition': `attachment; filename="${safe}"` }).send(body);
}

/** A `302` to a path of the console (never elsewhere: `to` is always built here, not taken from a request). */
export function redirect(res: Response, to: string, headers: Readonly<Record<string, string | string[]>> = {}): void {
  res.status(CONSOLE_ANSWERS.redirect).set({ 'cache-control': 'no-store', ...headers }).location(to).end();
}
