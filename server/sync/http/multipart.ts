import { randomBytes } from 'node:crypto';

/** A file part's bytes: whole, or a stream whose exact length is known before it is read. */
export type FileContent = Uint8Array | { readonly stream: AsyncIterable<Uint8Array>; readonly length: number };

export interface FilePart {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  /** Read once, as the request body is sent. */
  readonly content: FileContent;
}

/**
 * A `multipart/form-data` body produced as it is sent, so a file part that is still arriving (a
 * download) is never held whole, and its exact length, computed from the parts' sizes: the body
 * goes out with a `Content-Length`, never chunked (Django behind DefectDojo's nginx and uWSGI reads
 * a chunked body as empty). The platform's `FormData` needs every file as a finished `Blob`, which
 * would hold the export in memory.
 */
export function multipartBody(fields: Readonly<Record<string, string>>, file: FilePart): { contentType: string; body: AsyncIterable<Uint8Array>; length: number } {
  const boundary = `----gatehouse${randomBytes(16).toString('hex')}`;
  const quote = (s: string) => s.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
  const encoder = new TextEncoder();
  const head = [
    ...Object.entries(fields).map(([name, value]) => encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`)),
    encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
  ];
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const content = file.content;
  const fileLength = content instanceof Uint8Array ? content.byteLength : content.length;
  const length = head.reduce((n, part) => n + part.byteLength, 0) + fileLength + tail.byteLength;
  async function* body(): AsyncGenerator<Uint8Array> {
    yield* head;
    if (content instanceof Uint8Array) yield content;
    else yield* content.stream;
    yield tail;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: body(), length };
}
