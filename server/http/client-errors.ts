import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's HTTP parser refused, before any route ran: status and error string. */
function answerFor(code: string | undefined): { status: number; reason: string; error: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, reason: 'Request Header Fields Too Large', error: 'request_headers_too_large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, reason: 'Request Timeout', error: 'request_timeout' };
  return { status: 400, reason: 'Bad Request', error: 'invalid_request' };
}

/**
 * Requests Node's parser refuses (headers over its 16 KB limit, malformed HTTP, a request too
 * slow to arrive) get a JSON error like every other answer, instead of Node's default bare status
 * line. The connection is closed after it: the parser cannot tell where the next request starts.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, error } = answerFor(err.code);
    const body = JSON.stringify({ error });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
