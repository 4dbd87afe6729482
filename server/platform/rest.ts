import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { MAX_ANSWER_BYTES } from '../http/call-bounds.js';
import { AnswerTooLarge, CallTimedOut, transportFailure, type CallBounds } from '../http/outbound.js';
import { answerError, PlatformError } from './errors.js';

/** The platform's REST API version this client is written against; sent on every call. */
export const API_VERSION = '2022-11-28';

export interface RestOptions {
  readonly userAgent: string;
  readonly bounds: CallBounds;
}

/** No connection within the connect bound. */
class ConnectTimedOut extends Error {
  override readonly name = 'ConnectTimedOut';
  readonly code = 'UND_ERR_CONNECT_TIMEOUT';
}

/**
 * Keep-alive pools shared by every client of the process (an agent keeps one pool per host and
 * port): a client is made per (API base, app, key), and `AppClients` drops old ones without a
 * hook to close a pool of their own, while their calls in flight may still use it.
 */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new HttpsAgent({ keepAlive: true, scheduling: 'lifo' }),
} as const;

/**
 * The platform calls on `/token`'s path (installation lookup, mint), made with Node's own HTTP
 * client over keep-alive connections and nothing around it. Octokit over `fetch` cost about twice
 * a plain HTTP request per call (a Request, web streams, hooks, a bigint-safe JSON parser), and
 * undici's `request` about 50 µs more than Node's client, on a route whose whole budget is a few
 * hundred; the other calls keep Octokit (pagination, GraphQL). Same bounds as every outbound call:
 * the connection, then the whole exchange, body included.
 */
export class PlatformRest {
  private readonly base: URL;
  private readonly send: typeof httpRequest;
  private readonly agent: HttpAgent;
  private readonly pathPrefix: string;
  /** The headers every call sends, built once (a call adds its authorization and body headers). */
  private readonly fixedHeaders: Readonly<Record<string, string>>;

  constructor(
    apiBase: string,
    private readonly options: RestOptions,
  ) {
    this.base = new URL(apiBase.endsWith('/') ? apiBase : `${apiBase}/`);
    const secure = this.base.protocol === 'https:';
    this.send = secure ? httpsRequest : httpRequest;
    this.agent = AGENTS[secure ? 'https:' : 'http:'];
    this.pathPrefix = this.base.pathname.slice(0, -1);
    this.fixedHeaders = { accept: 'application/vnd.github+json', 'user-agent': options.userAgent, 'x-github-api-version': API_VERSION };
  }

  /** The answer's JSON on 2xx; a `PlatformError` otherwise (with status, or null when no answer came). */
  call(method: 'GET' | 'POST', path: string, authorization: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const { bounds } = this.options;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const options: RequestOptions = {
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port,
      path: this.pathPrefix + path,
      method,
      agent: this.agent,
      headers:
        payload === undefined
          ? { authorization, ...this.fixedHeaders }
          : { authorization, ...this.fixedHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    };
    return new Promise((resolve, reject) => {
      let settled = false;
      let timedOut = false;
      const onAbort = (): void => void req.destroy(signal!.reason as Error);
      const fail = (reason: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        // Whatever broke first once the deadline passed (the socket, the body), the deadline is why.
        const why = timedOut ? new CallTimedOut(bounds.totalMs) : reason;
        reject(why instanceof PlatformError ? why : new PlatformError(`platform call failed: ${transportFailure(why, bounds)}`, null, {}, { cause: why }));
      };
      const req = this.send(options, (res) => {
        readAnswer(res).then((text) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          const data = text.length > 0 ? parse(text) : undefined;
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(data);
          else reject(answerError(status, res.headers, data));
        }, fail);
      });
      // The whole exchange, body included, within the bound; then the connection is dropped.
      const deadline = setTimeout(() => {
        timedOut = true;
        req.destroy(new CallTimedOut(bounds.totalMs));
      }, bounds.totalMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const connect = setTimeout(() => req.destroy(new ConnectTimedOut(`no connection within ${bounds.connectMs} ms`)), bounds.connectMs);
        socket.once('connect', () => clearTimeout(connect)).once('close', () => clearTimeout(connect));
      });
      req.on('error', fail);
      // A caller's own deadline (a whole route's) can end the call sooner.
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      req.end(payload);
    });
  }
}

/** The answer's body, at most `MAX_ANSWER_BYTES`. */
function readAnswer(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return res.destroy(new AnswerTooLarge(MAX_ANSWER_BYTES));
      chunks.push(chunk);
    });
    res.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')));
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(new Error('the answer was cut off'));
    });
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
    return undefined;
  }
}
