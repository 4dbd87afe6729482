import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A canned failure: an HTTP answer; `'reset'` (the connection dropped, after the first body chunk
 * when the request has a body, so an upload is cut mid-way); `'hang'` (no answer until the
 * server closes); `'stall-body'` (200 and its headers, the start of a JSON body, then nothing
 * until the server closes); `'malformed'` (200 with a body cut off mid-JSON).
 */
export type Fault = { status: number; body?: unknown; headers?: Record<string, string> } | 'reset' | 'hang' | 'stall-body' | 'malformed';

/** The answer of a peer that sends its headers and then stalls: promises more body than it sends. */
export function stallBody(res: ServerResponse): void {
  const start = '{"items": [';
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(64 * 1024) });
  res.write(start);
}

/** Faults queued per route, each used `times` times, oldest first. */
export class Faults<Route extends string> {
  private readonly queued = new Map<Route, Fault[]>();

  inject(route: Route, fault: Fault, times = 1): void {
    const list = this.queued.get(route) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.queued.set(route, list);
  }

  clear(): void {
    this.queued.clear();
  }

  take(route: Route): Fault | undefined {
    return this.queued.get(route)?.shift();
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Plays a fault; `true` when the request is answered (or deliberately left unanswered). */
export async function playFault(fault: Fault | undefined, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (fault === undefined) return false;
  if (fault === 'reset') {
    const hasBody = req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    if (hasBody) await new Promise((resolve) => req.once('data', resolve));
    req.socket.destroy();
    return true;
  }
  if (fault === 'hang') return true;
  if (fault === 'stall-body') {
    stallBody(res);
    return true;
  }
  if (fault === 'malformed') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"results": [ {"name": "cut off');
    return true;
  }
  sendJson(res, fault.status, fault.body, fault.headers);
  return true;
}

/**
 * A service with `ms` of latency: what the fake writes to `res` leaves `ms` after the request
 * arrived, the fake's own work (matching, hash codes, export documents) done meanwhile. Waiting
 * first and working after would add that work, and its queue on the fake's one thread, to every
 * answer, so a benchmark's bound of `ms` a request would not hold.
 */
export function answerAfter(res: ServerResponse, ms: number): void {
  if (ms <= 0) return;
  const due = sleep(ms);
  const write = res.write;
  const end = res.end;
  res.write = ((...args: unknown[]) => {
    void due.then(() => Reflect.apply(write, res, args));
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    void due.then(() => Reflect.apply(end, res, args));
    return res;
  }) as typeof res.end;
}
