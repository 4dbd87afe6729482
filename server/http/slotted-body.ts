import type { RequestHandler } from 'express';
import { AppError } from './errors.js';
import { bodyRefusal, readBody } from './plain.js';

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
  /** `503`'s error code when no slot came. */
  readonly busyCode: string;
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
      if (!release) return refuse(new AppError(503, options.busyCode, {}, { headers: { 'Retry-After': String(Math.ceil(options.waitMs / 1000)) } }));
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
