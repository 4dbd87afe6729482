import { connect, type Socket } from 'node:net';

/**
 * An upload that sends its head and `sent` bytes of the announced body, then holds the
 * connection: a sender that occupies a body reader (or a place in the queue for one).
 */
export function heldUpload(port: number, announced: number, sent: number, options: { path?: string; headers?: Readonly<Record<string, string>> } = {}): Promise<Socket> {
  const head = Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST ${options.path ?? '/in'} HTTP/1.1\r\nHost: x\r\n${head}Content-Length: ${announced}\r\n\r\n${'a'.repeat(sent)}`);
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}
