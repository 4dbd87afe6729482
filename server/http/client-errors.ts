import { API_HEADERS } from './api-headers.js';
import { HTTP_ERRORS } from './errors.js';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The codes answered before any route runs, by every server `apiServer` makes (the minimal
 * broker's vocabulary included): headers over the parser's limit, a request too slow to arrive,
 * and anything else the parser refuses (or an HTTP/1.1 request without `Host`).
 */
export const PARSER_ERRORS = {
  invalid_request: HTTP_ERRORS.invalid_request,
  request_headers_too_large: HTTP_ERRORS.request_headers_too_large,
  request_timeout: HTTP_ERRORS.request_timeout,
} as const;

/** What Node's HTTP parser refused, before any route ran: the code, its status from the catalogue. */
function answerFor(parserCode: string | undefined): { status: number; reason: string; error: keyof typeof PARSER_ERRORS } {
  const error = parserCode === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : parserCode === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'invalid_request';
  const status = PARSER_ERRORS[error];
  return { status, reason: STATUS_CODES[status]!, error };
}

/** The raw answer to a request no route may see: JSON, `no-store`, and the connection closed after it. */
function rawAnswer({ status, reason, error }: { status: number; reason: string; error: string }): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Requests Node's parser refuses (headers over its 16 KB limit, malformed HTTP, a request too
 * slow to arrive) get a JSON error like every other answer, instead of Node's default bare status
 * line. The connection is closed after it: the parser cannot tell where the next request starts.
 *
 * Every complete request is answered first: a pipelined `POST /token` whose mint is still at
 * GitHub when the next request fails to parse gets its token, then the parser's 400 follows (the
 * answer written at once would close the connection under the mint, and the token would be
 * neither delivered nor revoked).
 *
 * One request, one answer: when the parser fails inside the body of a request a route has already
 * answered (a refused credential is answered before the body is read), that answer stands and the
 * connection is closed without a second one.
 */
function answerClientErrors(server: Server): void {
  // Per connection: the request it is reading, and the responses not yet finished (in order).
  const connections = new WeakMap<Duplex, { reading?: { req: IncomingMessage; res: ServerResponse }; unfinished: Set<ServerResponse> }>();
  // The parser repeats its error on every later chunk of a connection it refused: answered once.
  const refused = new WeakSet<Duplex>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let connection = connections.get(req.socket);
    if (!connection) connections.set(req.socket, (connection = { unfinished: new Set() }));
    connection.reading = { req, res };
    connection.unfinished.add(res);
    // 'close' follows the last byte handed to the socket, or the socket's end, whichever comes.
    res.once('close', () => {
      connection.unfinished.delete(res);
      // A complete request is not the one a parser error is about: it is let go with its answer,
      // not kept until the connection's next request (a keep-alive client may send none for long).
      if (connection.reading?.req === req && req.complete) delete connection.reading;
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const connection = connections.get(socket);
    // An incomplete request is the one whose body failed; a complete one was an earlier request.
    const failed = connection?.reading && !connection.reading.req.complete ? connection.reading : undefined;
    const answer = (): void => {
      if (!socket.writable) socket.destroy();
      else if (failed?.res.headersSent) {
        if (failed.res.writableFinished) socket.end();
        else socket.destroy();
      } else socket.end(rawAnswer(answerFor(err.code)));
    };
    const earlier = [...(connection?.unfinished ?? [])].filter((res) => res !== failed?.res);
    if (earlier.length === 0) return answer();
    let waiting = earlier.length;
    for (const res of earlier) res.once('close', () => --waiting === 0 && answer());
  });
}

/**
 * The HTTP server of every Gatehouse process (backend, minimal broker, sync service): `listener`
 * behind the parser's JSON answers above. An HTTP/1.1 request without `Host` must be refused (RFC
 * 9112 §3.2); Node's own refusal is an empty, non-JSON 400, so Node's check is turned off and the
 * request is refused here instead, with `400 invalid_request` like any other malformed request.
 */
export function apiServer(listener: RequestListener): Server {
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      const body = JSON.stringify({ error: 'invalid_request' });
      res.shouldKeepAlive = false;
      res.writeHead(PARSER_ERRORS.invalid_request, { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
      res.end(body);
      return;
    }
    listener(req, res);
  });
  answerClientErrors(server);
  return server;
}
