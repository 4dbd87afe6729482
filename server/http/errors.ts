import { ConfigError } from '../config-error.js';

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

export const notFound = (): AppError => new AppError(404, 'not_found');

export const methodNotAllowed = (allowed: readonly string[]): AppError =>
  new AppError(405, 'method_not_allowed', {}, { headers: { Allow: allowed.join(', ') } });

export const invalidJson = (): AppError => new AppError(400, 'invalid_json');

/**
 * Wraps a settings source so that an unusable setting answers `500 misconfigured` (the body names
 * nothing; the log names the setting) instead of an anonymous crash.
 */
export function settingsOrMisconfigured<T>(source: () => T): () => T {
  return () => {
    try {
      return source();
    } catch (err) {
      if (err instanceof ConfigError) throw new AppError(500, 'misconfigured', {}, { cause: err });
      throw err;
    }
  };
}
