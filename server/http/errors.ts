/**
 * The one error type of the backend. Business code throws it; `errorHandler` is the only
 * place that turns an error into an HTTP answer, so every failure has the same JSON shape:
 * `{"error": <stable code>, ...extra}`.
 */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly status: number,
    readonly code: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown; headers?: Readonly<Record<string, string>> },
  ) {
    super(code, options?.cause === undefined ? undefined : { cause: options.cause });
    this.headers = options?.headers ?? {};
  }

  readonly headers: Readonly<Record<string, string>>;

  body(): Record<string, unknown> {
    return { error: this.code, ...this.extra };
  }
}

/**
 * The codes every Express app of Gatehouse answers from its HTTP layer (the parser's refusals,
 * routing, bodies, the error handler), with their statuses. Each server's catalogue includes them.
 */
export const HTTP_ERRORS = {
  invalid_json: 400,
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  request_headers_too_large: 431,
  unsupported_media_type: 415,
  validation_failed: 422,
  internal_error: 500,
  store_unavailable: 503,
} as const satisfies Record<string, number>;

export type Catalogue = Readonly<Record<string, number>>;

/**
 * A server's way to refuse: by code, its status taken from the server's catalogue, so no route
 * writes a status of its own and every code a server answers is in one place.
 */
export function refusalsOf<C extends Catalogue>(catalogue: C) {
  return (code: keyof C & string, extra: Readonly<Record<string, unknown>> = {}, options?: { cause?: unknown; headers?: Readonly<Record<string, string>> }): AppError =>
    new AppError(catalogue[code]!, code, extra, options);
}

/** A refusal of the HTTP layer, by code. */
export const refuseHttp = refusalsOf(HTTP_ERRORS);

export const notFound = (): AppError => refuseHttp('not_found');

export const methodNotAllowed = (allowed: readonly string[]): AppError => refuseHttp('method_not_allowed', {}, { headers: { Allow: allowed.join(', ') } });

export const invalidJson = (): AppError => refuseHttp('invalid_json');
