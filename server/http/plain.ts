import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { API_HEADERS } from './api-headers.js';
import { AppError } from './errors.js';

/**
 * Plain node:http for the one route that runs hot (`POST /token`): under load, Express's own work
 * per request (routing, its request and response extensions, body-parser, `res.json`) cost more
 * CPU than verifying the token and minting together (bench: about 135 µs of a 220 µs limit for
 * routing alone). Everything else stays on Express. These helpers give the hot route the same
 * answers the Express routes give: the same headers, body limits and error bodies.
 */

/** A token request (both brokers' `POST /token`) is a few KB; anything near this is not one. */
export const TOKEN_BODY_LIMIT = 64 * 1024;

const JSON_HEADERS = { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8' } as const;

/** A JSON answer with the API headers and an exact length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(body);
  const length = Buffer.byteLength(text);
  res.writeHead(status, headers === undefined ? { ...JSON_HEADERS, 'content-length': length } : { ...API_HEADERS, ...headers, 'content-type': JSON_HEADERS['content-type'], 'content-length': length });
  res.end(text);
}

/**
 * Why a body cannot be read at all, from its headers alone: compressed (`415
 * unsupported_media_type`) or announced over `limit` (`413 payload_too_large`), as body-parser
 * answers them on the Express routes.
 */
export function bodyRefusal(req: IncomingMessage, limit: number): AppError | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return new AppError(415, 'unsupported_media_type');
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return new AppError(413, 'payload_too_large');
  return undefined;
}

export interface ReadBodyOptions {
  /** Sees each chunk as it arrives (a signature computed while the body streams in). */
  readonly onChunk?: (chunk: Buffer) => void;
  /** How long the whole body may take to arrive (`408 request_timeout` after it). */
  readonly timeoutMs?: number;
}

/**
 * The request body, at most `limit` bytes: refused as `bodyRefusal` says, `413
 * payload_too_large` when more arrives, `400 invalid_request` when it is cut off or the stream
 * fails, `408 request_timeout` past `timeoutMs`. A refused body's stream is paused.
 */
export function readBody(req: IncomingMessage, limit: number, options: ReadBodyOptions = {}): Promise<Buffer> {
  const refused = bodyRefusal(req, limit);
  if (refused) return Promise.reject(refused);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: AppError): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (!error) return resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return settle(new AppError(413, 'payload_too_large'));
      options.onChunk?.(chunk);
      chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    const onError = (): void => settle(new AppError(400, 'invalid_request'));
    // The sender went away before the end.
    const onClose = (): void => {
      if (!req.complete) settle(new AppError(400, 'invalid_request'));
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => settle(new AppError(408, 'request_timeout')), options.timeoutMs);
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
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
