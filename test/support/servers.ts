import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 with an ephemeral port; `close` also drops idle keep-alive sockets. */
export async function listen(handlerOrServer: RequestListener | Server): Promise<Listening> {
  const server = typeof handlerOrServer === 'function' ? createServer(handlerOrServer) : handlerOrServer;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Reads a request body as text. */
export function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A port that was free a moment ago and has nothing listening on it now. */
export async function closedPort(): Promise<number> {
  const l = await listen(() => undefined);
  await l.close();
  return l.port;
}
