import { HttpError } from '../http/call-errors.js';

/**
 * A credential the server refused (401 or 403). The message names the credential (its setting,
 * never its value) and the server, so the operator knows which of several to replace.
 */
export class CredentialRefused extends Error {
  override readonly name = 'CredentialRefused';
  constructor(
    readonly credential: string,
    readonly service: string,
    readonly server: string,
    reason: string,
  ) {
    super(`${service} at ${server} refused ${credential}: ${reason}`);
  }
}

/** Whether `err` is a server's refusal of the credential: a 401 or 403 answer. */
export function isRefusal(err: unknown): err is HttpError {
  return err instanceof HttpError && (err.status === 401 || err.status === 403);
}

/** `err` as a `CredentialRefused` when it is a 401 or 403 answer; otherwise unchanged. */
export function refusedAs(err: unknown, credential: string, service: string, server: string): unknown {
  if (!isRefusal(err)) return err;
  return new CredentialRefused(credential, service, server, `answered ${err.status}${err.detail ? ` (${err.detail})` : ''} to ${err.operation}`);
}
