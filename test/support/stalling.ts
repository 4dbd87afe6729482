import { createServer, type Socket } from 'node:net';

/**
 * How a stalling peer misbehaves: `silent` accepts the connection and never sends a byte;
 * `stall-body` reads the request, sends `200` with JSON headers that promise 64 KB and the first
 * bytes of a body, then nothing. Either way the connection stays open until `close()`.
 */
export type Stall = 'silent' | 'stall-body';
export const STALLS: readonly Stall[] = ['silent', 'stall-body'];

export interface StallingPeer {
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far (undici may open a spare one after a call it aborted). */
  readonly connections: number;
  /** Requests received so far (request lines seen). */
  readonly requests: number;
  close(): Promise<void>;
}

/** A loopback peer that stalls every connection the way `stall` says. */
export async function stallingPeer(stall: Stall): Promise<StallingPeer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let requests = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (/^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(chunk.toString('latin1', 0, 256))) requests++;
    });
    if (stall === 'stall-body') {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 65536\r\n\r\n{"value": "');
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
