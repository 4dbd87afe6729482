import { RequestError } from '@octokit/request-error';
import { Agent, fetch as undiciFetch, Response as UndiciResponse, type Dispatcher } from 'undici';
import { systemClock, type Clock } from '../clock.js';
import { retryAfterMs } from './retry.js';

/**
 * How long one outbound HTTP call may take. Every call of every part goes through
 * `boundedFetch`, so none can wait on a peer that accepts the connection and never answers, or
 * sends its headers and then stalls the body. The defaults of each call site are in
 * `call-bounds.ts` (and the table in docs/outbound-calls.md).
 */
export interface CallBounds {
  /** TCP (and TLS) connection established within this. */
  readonly connectMs: number;
  /** The whole exchange — request sent, headers and the last byte of the body received — within this. */
  readonly totalMs: number;
}

export type Fetch = typeof fetch;

/** The call ran past its whole-exchange bound. Its message is safe to show: no URL, no credential. */
export class CallTimedOut extends Error {
  override readonly name = 'CallTimedOut';
  constructor(readonly totalMs: number) {
    super(`no complete answer within ${seconds(totalMs)}`);
  }
}

/** An answer above its size bound: stated so (`Content-Length`), or seen to grow past it (a peer streaming without end). */
export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge';
  constructor(
    readonly maxBytes: number,
    /** The length the answer stated, when its `Content-Length` was above the bound. */
    readonly statedBytes?: number,
  ) {
    super(`the answer is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}

/** No connection within the connect bound: nothing was sent. */
export class NoConnection extends Error {
  override readonly name = 'NoConnection';
  constructor(
    readonly connectMs: number,
    options?: { cause?: unknown },
  ) {
    super(`no connection within ${seconds(connectMs)}`, options);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * One deadline shared by several calls (a whole route's work): pass `signal` to each call; it
 * aborts them with `CallTimedOut`. `clear` once the work is done.
 */
export function sharedDeadline(totalMs: number): { readonly signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new CallTimedOut(totalMs)), totalMs);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/**
 * Why a call got no usable answer, in words safe for a log or a summary: the bound that cut it,
 * or the network's error code. Never the URL (it can hold a secret path).
 */
export function transportFailure(err: unknown): string {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof CallTimedOut || e instanceof AnswerTooLarge || e instanceof NoConnection) return e.message;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return err instanceof Error ? err.message : 'network error';
}

/**
 * Network errors that end a call before any connection carried it: nothing was sent, so the peer
 * cannot have acted on it (refused, no route, no such name, the connect bound passed).
 */
const BEFORE_SENDING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed call provably never reached its peer (see `BEFORE_SENDING`). A timeout, a reset
 * or a closed socket once connected may come after the peer acted: those are not.
 */
export function neverSent(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof NoConnection) return true;
    if (e instanceof CallTimedOut || e instanceof AnswerTooLarge) return false;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return BEFORE_SENDING.has(code);
  }
  return false;
}

const agents = new Map<number, Agent>();

/**
 * One connection pool per connect bound, shared by `fetch` here and `apiTransport`.
 * undici's own header and body timeouts are off (0): the whole-exchange deadline bounds both, and
 * their 300 s defaults would cut a reimport that DefectDojo answers after five minutes.
 */
export function sharedAgent(connectMs: number): Agent {
  let agent = agents.get(connectMs);
  if (!agent) {
    agent = new Agent({ connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 });
    agents.set(connectMs, agent);
  }
  return agent;
}

/**
 * The network transport: undici's fetch with a connection bound. `dispatcherFor` picks another
 * dispatcher for some addresses (the actions' proxy).
 */
export function networkTransport(connectMs: number, dispatcherFor?: (url: URL) => Dispatcher | undefined): Fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const dispatcher = dispatcherFor?.(url) ?? sharedAgent(connectMs);
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
  }) as unknown as Fetch;
}

export interface BoundedFetchOptions {
  /** What carries the request; tests pass a recording fetch. Default: `networkTransport(connectMs)`. */
  readonly transport?: Fetch;
  /**
   * The largest body read. Every body is read whole inside the deadline before the call resolves:
   * no caller sees half an answer (Octokit would turn a stalled or cut body into an empty one),
   * and none holds more memory than this.
   */
  readonly maxBytes: number;
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
export const NULL_BODY: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose every call is bounded by `bounds`: the connection by the transport, the rest by a
 * deadline that aborts the request, the wait for headers and the reading of the body alike, with
 * `CallTimedOut` as the reason; and whose answer is read whole, at most `maxBytes`
 * (`AnswerTooLarge`, at once when `Content-Length` says so). A caller's own signal can end the
 * call sooner, never later.
 */
export function boundedFetch(bounds: CallBounds, options: BoundedFetchOptions): Fetch {
  const transport = options.transport ?? networkTransport(bounds.connectMs);
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new CallTimedOut(bounds.totalMs)), bounds.totalMs);
    // The deadline never keeps a process alive on its own.
    timer.unref();
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await transport(input, { ...init, signal });
    } catch (err) {
      clearTimeout(timer);
      // An abort surfaces as the signal's reason in undici, but as a generic error in some transports.
      if (signal.aborted) throw signal.reason;
      throw transportFailure(err) === 'UND_ERR_CONNECT_TIMEOUT' ? new NoConnection(bounds.connectMs, { cause: err }) : err;
    }
    try {
      const bytes = response.body ? await readAll(response, options.maxBytes, signal) : null;
      return rebuilt(response, bytes);
    } finally {
      clearTimeout(timer);
    }
  }) as Fetch;
}

/**
 * The whole body, at most `maxBytes`, ending with the signal's reason when it aborts (the reader
 * is ours, so it can be cancelled even while a read waits on a stalled peer).
 */
async function readAll(response: Response, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const stated = response.headers.get('content-length');
  // A compressed answer's length is not the length of the bytes read from it.
  if (stated !== null && /^\d+$/.test(stated) && !response.headers.get('content-encoding') && Number(stated) > maxBytes) {
    await response.body!.cancel().catch(() => undefined);
    throw new AnswerTooLarge(maxBytes, Number(stated));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body!.getReader();
  const stop = (): void => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new AnswerTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } catch (err) {
    throw signal.aborted ? signal.reason : err;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return Buffer.concat(chunks, size);
}

/** The answer with the bytes read for its body, its status, headers and URL kept. */
function rebuilt(original: Response, body: Uint8Array | null): Response {
  const response = new UndiciResponse(NULL_BODY.has(original.status) ? null : (body as ConstructorParameters<typeof UndiciResponse>[0]), {
    status: original.status,
    statusText: original.statusText,
    headers: [...original.headers],
  }) as unknown as Response;
  Object.defineProperty(response, 'url', { value: original.url });
  return response;
}

/**
 * What a failed call came to: the peer's answer (its status, and the wait it asked for with
 * `Retry-After`), or no answer at all (why, in words safe to print, and whether the request may
 * have reached the peer). The one vocabulary of the actions, the sync and the App client.
 */
export type CallFailure =
  | { readonly status: number; readonly retryAfterMs: number | undefined }
  | { readonly noAnswer: string; readonly maybeSent: boolean };

/** An error that says what its call came to (`HttpError`, `TransportError`, `PlatformError`). */
export interface CallFailed {
  readonly failure: CallFailure;
}

/**
 * What the call that threw `err` came to, whoever made it: the bounded fetch (its bounds), Octokit
 * over it (`RequestError`, with or without a response), or an error that carries its `failure`
 * (the sync's `send` and the actions' `call` wrap the network's errors in a `TransportError`).
 * Undefined for an error that is not a failed call (a refusal of our own, an answer of the wrong
 * shape, a bug): callers pass those on.
 */
export function callFailure(err: unknown, clock: Clock = systemClock): CallFailure | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const carried = (e as Partial<CallFailed>).failure;
    if (carried) return carried;
    if (e instanceof RequestError && e.response) {
      const asked = e.response.headers['retry-after'];
      return { status: e.status, retryAfterMs: retryAfterMs(typeof asked === 'string' ? asked : undefined, clock.now()) };
    }
    // Octokit turns a fetch that got no answer into a RequestError without a response, the fetch's error its cause.
    if (e instanceof RequestError) return noAnswer(e.cause ?? e);
    if (e instanceof CallTimedOut || e instanceof AnswerTooLarge || e instanceof NoConnection) return noAnswer(e);
  }
  return undefined;
}

function noAnswer(err: unknown): CallFailure {
  return { noAnswer: transportFailure(err), maybeSent: !neverSent(err) };
}
