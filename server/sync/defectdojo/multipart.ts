import { randomBytes } from 'node:crypto';

export interface FilePart {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/**
 * A `multipart/form-data` body, whole: sent with a `Content-Length`, never chunked (Django behind
 * DefectDojo's nginx and uWSGI reads a chunked body as empty).
 */
export function multipartBody(fields: Readonly<Record<string, string>>, file: FilePart): { contentType: string; body: Buffer } {
  const boundary = `----gatehouse${randomBytes(16).toString('hex')}`;
  const quote = (s: string) => s.replace(/["\r\n\\]/g, (c) => encodeURIComponent(c));
  const head = [
    ...Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`),
    `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  ].join('');
  const body = Buffer.concat([Buffer.from(head), file.content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}
