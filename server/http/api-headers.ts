import type { RequestHandler } from 'express';

/** Every answer is JSON and none may be cached by an intermediary (tokens and records pass here). */
export const apiHeaders: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  next();
};
