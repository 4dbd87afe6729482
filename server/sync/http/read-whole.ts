/**
 * A body read whole into memory, refused with `tooLarge()` as soon as more than `limit` bytes have
 * arrived: a download that is parsed before it is sent on (a Dependency-Track export) is bounded by
 * the upload limit it must meet anyway.
 */
export async function readWhole(body: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.byteLength;
    if (length > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}
