import { z, type ZodError, type ZodType } from 'zod';
import { refuseHttp, type AppError } from './errors.js';

export interface ValidationDetail {
  readonly path: string;
  readonly message: string;
}

/** Flattens zod issues into `{path, message}` pairs; each unknown field is its own entry. */
function validationDetails(error: ZodError): ValidationDetail[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'unknown field (not accepted)' }));
    }
    return [{ path: base.join('.') || '(root)', message: issue.message }];
  });
}

/** `422 validation_failed` with a readable message and the per-field details. */
export function validationFailed(details: readonly ValidationDetail[]): AppError {
  const message = details
    .slice(0, 5)
    .map((d) => `${d.path}: ${d.message}`)
    .join('; ');
  return refuseHttp('validation_failed', { message, details });
}

/** Parses `input` with `schema`, or throws `422 validation_failed`. */
export function validate<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(validationDetails(result.error));
  return result.data;
}

/**
 * An ISO 8601 date-time with its offset (`Z` or `±hh:mm`), as a query or body value: a time
 * without one names no instant. zod also refuses impossible dates (February 30), which `Date`
 * would roll over silently.
 */
export const isoInstant = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)' })
  .transform((s) => new Date(s));

/** A query parameter holding a whole number from 1 to `max` (three digits at most), as a number. */
export const countParameter = (max: number, noun = 'whole number') =>
  z
    .string()
    .regex(/^[0-9]{1,3}$/, `must be a ${noun} from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().min(1, `must be from 1 to ${max}`).max(max, `must be from 1 to ${max}`));
