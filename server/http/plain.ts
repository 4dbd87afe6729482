import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { AppError } from './errors.js';

/**
 * Plain node:http for the one route that runs hot (`POST /token`): under load, Express's own work
 * per request (routing, its request and response extensions, body-parser, `res.json`) cost more
 * CPU than verifying the token and minting together (bench: about 135 µs of a 220 µs limit for
 * routing alone). Everything else stays on Express. These helpers give the hot route the same
 * answers the Express routes give: the same headers, body limits and error bodies.
 */

/** Headers every answer carries (`apiHeaders` for the Express routes). */
export const API_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/** A JSON answer with the API headers and an exact length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...API_HEADERS, ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The request body, at most `limit` bytes (`413 payload_too_large`); a compressed body is
 * `415 unsupported_media_type` and a body cut off is `400 invalid_request`, as body-parser answers
 * them on the Express routes.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return Promise.reject(new AppError(415, 'unsupported_media_type'));
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(new AppError(413, 'payload_too_large'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: AppError): void => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return fail(new AppError(413, 'payload_too_large'));
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      req.off('close', onClose);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onClose = (): void => {
      if (!req.complete) fail(new AppError(400, 'invalid_request'));
    };
    req.on('data', onData).once('end', onEnd).once('close', onClose);
  });
}

/** Paths served by plain handlers for one method; everything else goes to `fallback` (the Express app). */
export function withPlainRoutes(fallback: RequestListener, method: string, routes: Readonly<Record<string, RequestListener>>): RequestListener {
  return (req, res) => {
    if (req.method === method) {
      const url = req.url ?? '';
      const query = url.indexOf('?');
      const handler = routes[query < 0 ? url : url.slice(0, query)];
      if (handler) return handler(req, res);
    }
    return fallback(req, res);
  };
}
