import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';

/** A body of unknown length, written to a private temporary file so it can be sent with its length. */
export interface Spooled {
  readonly stream: AsyncIterable<Uint8Array>;
  readonly length: number;
  /** Removes the file; safe to call more than once. */
  dispose(): Promise<void>;
}

/**
 * Writes `body` to a temporary file (mode 0600, in a directory of its own) and gives it back as a
 * stream of known length, so an upload of a download that came without `Content-Length` needs
 * neither chunked transfer nor the whole body in memory. Stops with `tooLarge()` as soon as more
 * than `limit` bytes arrived.
 */
export async function spool(body: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error): Promise<Spooled> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-upload-'));
  let reader: ReturnType<typeof createReadStream> | undefined;
  const dispose = async () => {
    // An upload that stopped early leaves the reader open.
    reader?.destroy();
    await rm(dir, { recursive: true, force: true });
  };
  const file = join(dir, 'body');
  try {
    const out = createWriteStream(file, { mode: 0o600 });
    let length = 0;
    try {
      for await (const chunk of body) {
        length += chunk.byteLength;
        if (length > limit) throw tooLarge();
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'close');
    }
    reader = createReadStream(file);
    return { stream: reader, length, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
