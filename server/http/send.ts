import { systemClock } from '../clock.js';
import { MAX_ANSWER_BYTES, syncCall } from './call-bounds.js';
import { HttpError, TransportError, UnexpectedAnswerError } from './call-errors.js';
import { retryAfterMs } from './retry.js';
import { jsonValue } from './json.js';
import { boundedFetch } from './outbound.js';

/** The strings of a Python list's `str()` (`['a', "b's"]`), as DefectDojo puts a validation error in `message`; undefined for other text. */
function pythonStrings(text: string): string[] | undefined {
  const inner = /^\[(.*)\]$/s.exec(text.trim())?.[1];
  if (inner === undefined) return undefined;
  const found = [...inner.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
  return found.length > 0 ? found : undefined;
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined);

/**
 * A readable reason from an error body, whatever documented shape it has: a JSON list of strings
 * (DRF's non-field errors, as DefectDojo answers product and product-type problems); `detail`;
 * field errors (`{"file": ["…"]}`, each named by its field); `message` (DefectDojo's, which may be
 * the `str()` of a Python list); SonarQube's `errors[0].msg`. Keys that only advertise (`pro`) are
 * left out. Not JSON: undefined (an HTML error page says little that is safe and useful).
 */
function readableError(body: unknown): string | undefined {
  const list = strings(body);
  if (list) return list.join('; ');
  if (!body || typeof body !== 'object') return undefined;
  const { detail, message, errors, pro: _advert, ...fields } = body as Record<string, unknown>;
  if (typeof detail === 'string') return detail;
  const fieldErrors = Object.entries(fields)
    .map(([name, value]) => [name, strings(value)] as const)
    .filter((entry): entry is readonly [string, string[]] => entry[1] !== undefined)
    .map(([name, value]) => `${name}: ${value.join(' ')}`);
  if (fieldErrors.length > 0) return fieldErrors.join('; ');
  if (typeof message === 'string') {
    return (strings(jsonValue(message)) ?? pythonStrings(message) ?? [message]).join('; ');
  }
  const first = Array.isArray(errors) ? (errors[0] as { msg?: unknown } | undefined)?.msg : undefined;
  if (typeof first === 'string') return first;
  const rest = { ...(detail === undefined ? {} : { detail }), ...(errors === undefined ? {} : { errors }), ...fields };
  return Object.keys(rest).length > 0 ? JSON.stringify(rest) : undefined;
}

async function errorDetail(response: Response): Promise<string | undefined> {
  let text: string;
  try {
    text = (await response.text()).slice(0, 4000);
  } catch {
    return undefined;
  }
  return readableError(jsonValue(text))?.slice(0, 300);
}

export interface SendOptions extends Omit<RequestInit, 'signal'> {
  readonly timeoutMs: number;
  /** The largest answer read (default `MAX_ANSWER_BYTES`); above it the call is a `TransportError` caused by `AnswerTooLarge`. */
  readonly maxBytes?: number;
}

/**
 * One HTTP exchange. Resolves with a 2xx response, read whole; throws `HttpError` for other
 * statuses and `TransportError` when no answer came. `timeoutMs` bounds the whole exchange, the
 * body's last byte included.
 *
 * A redirect is not followed: it is an `HttpError` (final) naming where it pointed. These APIs
 * never redirect a correct URL, and following would send Dependency-Track's `X-Api-Key` (which
 * undici keeps across origins; it drops only `Authorization`) and a reimport's report to
 * whatever host the answer names.
 */
export async function send(service: string, operation: string, url: string, options: SendOptions): Promise<Response> {
  const { timeoutMs, maxBytes = MAX_ANSWER_BYTES, ...init } = options;
  let response: Response;
  try {
    response = await boundedFetch(syncCall(timeoutMs), { maxBytes })(url, { ...init, redirect: 'manual' });
  } catch (err) {
    throw TransportError.of(service, operation, err);
  }
  if (response.ok) return response;
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    const header = response.headers.get('location');
    const location = header ? URL.parse(header, url)?.origin : undefined;
    throw new HttpError(service, operation, response.status, `a redirect${location ? ` to ${location}` : ''}, not followed`, undefined);
  }
  const detail = await errorDetail(response);
  throw new HttpError(service, operation, response.status, detail, retryAfterMs(response.headers.get('retry-after') ?? undefined, systemClock.now()));
}

/** The answer (read whole by `send`) as JSON; one that is not JSON is an `UnexpectedAnswerError`. */
export async function jsonAnswer(service: string, operation: string, response: Response): Promise<unknown> {
  const value = jsonValue(await response.text());
  if (value === undefined) throw new UnexpectedAnswerError(service, operation, 'the answer is not valid JSON');
  return value;
}
