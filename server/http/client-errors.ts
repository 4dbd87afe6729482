import { API_HEADERS } from './api-headers.js';
import { HTTP_ERRORS } from './errors.js';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's HTTP parser refused, before any route ran: the code, its status from the catalogue. */
function answerFor(parserCode: string | undefined): { status: number; reason: string; error: string } {
  const error = parserCode === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : parserCode === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'invalid_request';
  const status = HTTP_ERRORS[error];
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
 * One request, one answer: when the parser fails inside the body of a request a route has already
 * answered (a refused credential is answered before the body is read), that answer stands and the
 * connection is closed without a second one.
 */
function answerClientErrors(server: Server): void {
  // The request each connection is reading, with its response.
  const reading = new WeakMap<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => reading.set(req.socket, { req, res }));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const current = reading.get(socket);
    // An incomplete request is the one whose body failed; a complete one was an earlier request.
    if (current && !current.req.complete && current.res.headersSent) {
      if (current.res.writableFinished) socket.end();
      else socket.destroy();
      return;
    }
    socket.end(rawAnswer(answerFor(err.code)));
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
      res.writeHead(HTTP_ERRORS.invalid_request, { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
      res.end(body);
      return;
    }
    listener(req, res);
  });
  answerClientErrors(server);
  return server;
}
