import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, refuseHttp } from './errors.js';

/**
 * A fixed number of request bodies read at once, and a bounded number of requests waiting for a
 * turn. A request waiting for a slot has not been read: the socket is paused, so it holds a few
 * kilobytes, not its body. What an unauthenticated sender can make the process hold is therefore
 * `size × limit`, however many connections it opens.
 */
export class BodySlots {
  private free: number;
  private readonly queue: { grant: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    size: number,
    private readonly maxWaiting: number,
  ) {
    this.free = size;
  }

  /** A release function once a slot is free; `undefined` when too many wait or none came within `waitMs`. */
  acquire(waitMs: number, abandoned?: AbortSignal): Promise<(() => void) | undefined> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.maxWaiting) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const entry = {
        grant: () => resolve(this.releaser()),
        timer: setTimeout(() => {
          this.leave(entry);
          resolve(undefined);
        }, waitMs),
      };
      this.queue.push(entry);
      // A sender that hangs up while waiting gives its place back at once.
      abandoned?.addEventListener('abort', () => {
        clearTimeout(entry.timer);
        this.leave(entry);
        resolve(undefined);
      }, { once: true });
    });
  }

  private leave(entry: { grant: () => void; timer: NodeJS.Timeout }): void {
    const at = this.queue.indexOf(entry);
    if (at >= 0) this.queue.splice(at, 1);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant();
      } else {
        this.free++;
      }
    };
  }
}

export interface SlottedBodyOptions {
  readonly slots: BodySlots;
  /** Bytes; a declared or received body above it is `413`. */
  readonly limit: number;
  /** How long a request may wait for a slot before `503` with `Retry-After`. */
  readonly waitMs: number;
  /** How long reading the whole body may take once it has a slot (`408` after it). */
  readonly readMs: number;
  /** The `503` when no slot came, given the seconds its `Retry-After` says (the route's own code). */
  readonly busy: (retryAfterSeconds: number) => AppError;
  /** Sees each chunk as it arrives (a signature computed while the body streams in). */
  readonly onChunk?: (req: Parameters<RequestHandler>[0], chunk: Buffer) => void;
}

/**
 * Reads the raw body into `req.rawBody` within a slot: bounded in size, in time and in how many
 * are read at once. Refusals made before or during the read close the connection, so a sender
 * cannot keep streaming into a request that was already answered.
 */
export function slottedRawBody(options: SlottedBodyOptions): RequestHandler {
  return (req, res, next) => {
    const refuse = (error: AppError): void => {
      res.set('Connection', 'close');
      next(error);
    };
    // Refused from the headers alone, without taking a slot.
    const refused = bodyRefusal(req, options.limit);
    if (refused) return refuse(refused);

    const hungUp = new AbortController();
    const onHangUp = (): void => hungUp.abort();
    req.once('close', onHangUp);
    void options.slots.acquire(options.waitMs, hungUp.signal).then((release) => {
      req.off('close', onHangUp);
      if (hungUp.signal.aborted) return release?.();
      if (!release) return refuse(options.busy(Math.ceil(options.waitMs / 1000)));
      const onChunk = options.onChunk;
      readBody(req, options.limit, { timeoutMs: options.readMs, ...(onChunk ? { onChunk: (chunk: Buffer) => onChunk(req, chunk) } : {}) }).then(
        (body) => {
          release();
          req.rawBody = body;
          next();
        },
        (error: AppError) => {
          // A sender that went away is answered nothing; the slot is freed all the same.
          release();
          refuse(error);
        },
      );
    });
  };
}

/**
 * Why a body cannot be read at all, from its headers alone: compressed (`415
 * unsupported_media_type`) or announced over `limit` (`413 payload_too_large`), as body-parser
 * answers them on the Express routes.
 */
function bodyRefusal(req: IncomingMessage, limit: number): AppError | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return refuseHttp('unsupported_media_type');
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return refuseHttp('payload_too_large');
  return undefined;
}

interface ReadBodyOptions {
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
function readBody(req: IncomingMessage, limit: number, options: ReadBodyOptions = {}): Promise<Buffer> {
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
      if (size > limit) return settle(refuseHttp('payload_too_large'));
      options.onChunk?.(chunk);
      chunks.push(chunk);
    };
    const onEnd = (): void => settle();
    const onError = (): void => settle(refuseHttp('invalid_request'));
    // The sender went away before the end.
    const onClose = (): void => {
      if (!req.complete) settle(refuseHttp('invalid_request'));
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => settle(refuseHttp('request_timeout')), options.timeoutMs);
    req.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
