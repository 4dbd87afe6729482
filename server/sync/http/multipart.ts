import { randomBytes } from 'node:crypto';

export interface FilePart {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  /** Read once, as the request body is sent. */
  readonly content: AsyncIterable<Uint8Array> | Uint8Array;
}

/**
 * A `multipart/form-data` body produced as it is sent, so a file part of unknown length (a
 * download still arriving) is never held whole. The platform's `FormData` needs every file as a
 * finished `Blob`, which would hold the export in memory.
 */
export function multipartBody(fields: Readonly<Record<string, string>>, file: FilePart): { contentType: string; body: AsyncIterable<Uint8Array> } {
  const boundary = `----gatehouse${randomBytes(16).toString('hex')}`;
  const quote = (s: string) => s.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
  const encoder = new TextEncoder();
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`);
    }
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
    );
    if (file.content instanceof Uint8Array) yield file.content;
    else yield* file.content;
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: body() };
}
