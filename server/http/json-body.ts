import express, { type RequestHandler } from 'express';
import { invalidJson } from './errors.js';
import { jsonValue } from './json.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

declare module 'express-serve-static-core' {
  interface Request {
    /** The request body exactly as received (after the size limit), for signature checks. */
    rawBody?: Buffer;
  }
}

/**
 * Reads the body as bytes whatever the Content-Type says, bounded by `limit` (over it: 413).
 * Compressed bodies are refused (415) so the limit bounds what is actually parsed.
 */
export function rawBody(limit: string): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit, inflate: false }),
    (req, _res, next) => {
      req.rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      req.body = undefined;
      next();
    },
  ];
}

/**
 * Parses `req.rawBody` as JSON. Invalid UTF-8, an empty body and unparseable text are all
 * `400 invalid_json`; any JSON value is returned (routes decide whether it must be an object).
 */
export function parseJson(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) throw invalidJson();
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw invalidJson();
  }
  const value = jsonValue(text);
  if (value === undefined) throw invalidJson();
  return value;
}

/** `rawBody` followed by `parseJson` into `req.body`. */
export function jsonBody(limit: string): RequestHandler[] {
  return [
    ...rawBody(limit),
    (req, _res, next) => {
      req.body = parseJson(req.rawBody);
      next();
    },
  ];
}

/** A parsed JSON value that is an object (not null, not an array). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A request field counts as given unless absent, null or the empty string. */
export const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
