import type { RequestHandler } from 'express';

/** Every answer is JSON and none may be cached by an intermediary (tokens and records pass here). */
export const API_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/** `API_HEADERS` on every answer of an Express app. */
export const apiHeaders: RequestHandler = (_req, res, next) => {
  res.set(API_HEADERS);
  next();
};
