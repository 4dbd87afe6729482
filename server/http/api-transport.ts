import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Response as UndiciResponse, type Dispatcher } from 'undici';
import { NULL_BODY, sharedAgent, type Fetch } from './outbound.js';

/**
 * The transport of GitHub's API: undici's `request` under fetch's signature, for calls that send
 * a string or bytes (or nothing) and follow no redirect (a 3xx comes back as it is, as with
 * `redirect: 'manual'`; `github/client.ts` decides), and ask for no compression (no
 * `Accept-Encoding`: answers come as they are). Where `fetch` builds a WHATWG request,
 * response and stream per call, and registers the answer with a `FinalizationRegistry` that keeps
 * it through every young collection, this keeps only the answer: the broker spends a quarter to
 * a third less CPU per token, and at 200 tokens a second its p99 is 2.5 to 7 ms lower
 * (docs/benchmarks.md). Any other body (a form, a stream) is refused: those calls use `fetch`.
 */
export function apiTransport(connectMs: number): Fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('apiTransport takes a URL, not a Request');
    const { body: payload } = init;
    if (payload != null && typeof payload !== 'string' && !(payload instanceof Uint8Array)) throw new TypeError('apiTransport sends a string or bytes');
    const url = new URL(input);
    const { statusCode, headers, body } = await sharedAgent(connectMs).request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
      headers: Object.fromEntries(new Headers(init.headers)),
      body: payload ?? null,
      signal: init.signal ?? null,
    });
    let stream: ReadableStream<Uint8Array> | null = null;
    if (NULL_BODY.has(statusCode)) await body.dump();
    else stream = webStream(body);
    const response = new UndiciResponse(stream, { status: statusCode, headers: headerPairs(headers) }) as unknown as Response;
    Object.defineProperty(response, 'url', { value: url.href });
    return response;
  }) as Fetch;
}

/**
 * undici's body as the stream a `Response` reads: pulled chunk by chunk (its errors reach the
 * reader); cancelling it destroys the body, which ends the exchange. (node 20's `Readable.toWeb`
 * still enqueues a chunk after a cancel, and throws.)
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel() {
      body.destroy();
    },
  });
}

function headerPairs(headers: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const one of value) pairs.push([name, one]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}
