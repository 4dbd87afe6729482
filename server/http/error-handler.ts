import type { ErrorRequestHandler } from 'express';
import { StoreUnavailable } from '../store/types.js';
import { API_HEADERS } from './api-headers.js';
import { AppError, HTTP_ERRORS, invalidJson, refuseHttp } from './errors.js';

/** Errors raised by body-parser (raw-body) carry a `type`; map the ones a client can cause. */
function fromBodyParser(err: { type?: unknown; status?: unknown }): AppError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return refuseHttp('payload_too_large');
    case 'entity.parse.failed':
      return invalidJson();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return refuseHttp('unsupported_media_type');
    case 'request.aborted':
    case 'request.size.invalid':
      return refuseHttp('invalid_request');
    default:
      return undefined;
  }
}

/** What an error is answered with: its own status and code, or the client error behind it, or 500. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // No verdict was reached and nothing was half-written: the client may retry.
  if (err instanceof StoreUnavailable) return refuseHttp('store_unavailable', {}, { cause: err, headers: { 'Retry-After': '2' } });
  if (err && typeof err === 'object') {
    const mapped = fromBodyParser(err as { type?: unknown });
    if (mapped) return mapped;
    const status = (err as { status?: unknown }).status;
    // Other client errors raised by Express itself (a path parameter whose percent-encoding does
    // not decode is a 400): the catalogued code of that status, else `400 invalid_request`. No
    // cause is logged: Express's message quotes the parameter, which may be a webhook's secret.
    if (typeof status === 'number' && status >= 400 && status < 500) return refuseHttp(CLIENT_ERROR_BY_STATUS.get(status) ?? 'invalid_request');
  }
  return refuseHttp('internal_error');
}

/** The HTTP layer's code for a client-error status (for 400, the general one, not `invalid_json`). */
const CLIENT_ERROR_BY_STATUS = new Map<number, keyof typeof HTTP_ERRORS>(
  (Object.entries(HTTP_ERRORS) as [keyof typeof HTTP_ERRORS, number][]).filter(([code, status]) => status < 500 && code !== 'invalid_json').map(([code, status]) => [status, code]),
);

/** The error code an error is answered with (for counting outcomes without answering twice). */
export const answeredCode = (err: unknown): string => toAppError(err).code;

/** The single place where an error becomes an HTTP response, for every Express app (its error handler). */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = toAppError(err);
  if (appError.status >= 500) {
    // The request's log line carries `res.err`: one line per failed request, with the real error.
    res.err = err instanceof Error ? err : new Error(String(err));
  } else if (appError.cause !== undefined) {
    req.log?.info({ code: appError.code, cause: describeCause(appError.cause) }, 'request refused');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(appError.status).set({ ...API_HEADERS, ...appError.headers }).json(appError.body());
};

/** Only the class name and message of a cause are logged: never a stack with request data. */
function describeCause(cause: unknown): string {
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
