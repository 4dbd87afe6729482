import { systemClock } from '../../server/clock.js';
import { retryAfterMs, retrying, type RetryPolicy } from '../../server/http/retry.js';
import { callFailure } from '../../server/http/outbound.js';
import { jsonObject } from '../../server/http/json.js';
import { type ActionHttp } from '../shared/http.js';
import type { LedgerRecord } from './record.js';
import type { DailyCounts as DayCounts, DeliveryFigures as LedgerFigures } from '../../server/ledger/delivery-figures.js';
import type { Distribution } from '../../server/store/types.js';

export type { DayCounts };

/** The ledger's answer to `POST /v1/deployments`. */
export interface RecordedDeployment {
  deployment_id: string;
  repository: string;
  recorded_at: string;
  duplicate: boolean;
  notified: Record<string, boolean>;
  /**
   * The record the ledger holds under the delivery id: for a duplicate, the original one, which
   * may differ from what this step sent. Undefined when the answer does not carry it (the spec's
   * answer has only the five fields above; Gatehouse's ledger adds every stored field).
   */
  record?: LedgerRecord;
}

const RECORD_STRINGS = ['delivery_id', 'environment', 'status', 'target', 'mode', 'version', 'url', 'commit', 'run_url', 'actor', 'committed_at'] as const;

/**
 * The stored record's fields in a ledger answer, or undefined when they are not all there and of
 * their types (a ledger that answers the spec's five fields only), or name another delivery.
 */
function recordIn(body: Record<string, unknown>, sent: LedgerRecord): LedgerRecord | undefined {
  if (body.delivery_id !== sent.delivery_id || typeof body.environment !== 'string' || typeof body.status !== 'string') return undefined;
  const record: Record<string, unknown> = {};
  for (const key of RECORD_STRINGS) {
    if (body[key] === undefined) continue;
    if (typeof body[key] !== 'string') return undefined;
    record[key] = body[key];
  }
  if (body.verified !== undefined) {
    if (typeof body.verified !== 'boolean') return undefined;
    record.verified = body.verified;
  }
  if (body.duration_ms !== undefined) {
    if (!Number.isSafeInteger(body.duration_ms)) return undefined;
    record.duration_ms = body.duration_ms;
  }
  return record as unknown as LedgerRecord;
}

/**
 * The ledger could not be reached or is down: no answer, 5xx or 429, after the retries. The one
 * failure that is not the step's own doing, so the one that is only a warning by default.
 */
export class LedgerUnavailable extends Error {
  override readonly name = 'LedgerUnavailable';
  constructor(
    message: string,
    /** The ledger's `Retry-After`, when it sent one (a 429 or 503). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The ledger refused the record or answered something else than one: retrying cannot help. */
class LedgerRefused extends Error {
  override readonly name = 'LedgerRefused';
}

/** What to change, for refusals whose cause is the workflow's or the ledger's setup. */
const HINTS: Readonly<Record<string, string>> = {
  audience_mismatch: `input "audience" must be one of the ledger's LEDGER_AUDIENCE values`,
  owner_not_allowed: "this repository's owner must be in the ledger's LEDGER_ALLOWED_OWNERS",
  owner_mismatch: "the token's repository_owner and repository claims disagree",
};

/** One line about an error answer: status, error code, reason and the first validation message. */
function describeRefusal(status: number, text: string): string {
  const body = jsonObject(text);
  const parts = [body?.error, body?.reason, body?.message].filter((p): p is string => typeof p === 'string');
  const line = parts.length > 0 ? `HTTP ${status}: ${parts.join(' - ').slice(0, 500)}` : `HTTP ${status}`;
  const hint = typeof body?.reason === 'string' ? HINTS[body.reason] : undefined;
  if (hint) return `${line} (${hint})`;
  // A path the ledger does not serve: most often an api-url without the ledger's path prefix.
  if (status === 404 || status === 405) return `${line} (is api-url the ledger's base URL?)`;
  return line;
}

/**
 * Posts the record. No answer (refused, or none within the call's bound), 5xx and 429 are retried
 * with back-off, never sooner than the ledger's `Retry-After` (its idempotency makes a repeated POST
 * safe), and end in `LedgerUnavailable`; any other answer that is not a record is final
 * (`LedgerRefused`): 401/403 (the token or the
 * owner refused), 422 (a value refused), 404 (not the ledger's address) cannot pass by retrying.
 */
export async function postDeployment(
  http: ActionHttp,
  apiUrl: URL,
  token: string,
  record: LedgerRecord,
  retry: RetryPolicy,
  onRetry: (message: string) => void,
): Promise<RecordedDeployment> {
  const url = new URL('v1/deployments', apiUrl).href;
  return retrying(
    async () => {
      let status: number;
      let text: string;
      let headers: Headers;
      try {
        ({ status, text, headers } = await http.call('ledger-post', url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(record),
        }));
      } catch (err) {
        const failure = callFailure(err);
        if (failure && 'noAnswer' in failure) throw new LedgerUnavailable(`the ledger did not answer: ${failure.noAnswer}`);
        throw err;
      }
      if (status === 200 || status === 201) {
        const body = jsonObject(text);
        if (typeof body?.deployment_id !== 'string') throw new LedgerRefused(`the ledger answered HTTP ${status} without a deployment record (is api-url the ledger's base URL?)`);
        const stored = recordIn(body, record);
        const { deployment_id, repository, recorded_at, notified } = body as unknown as RecordedDeployment;
        return { deployment_id, repository, recorded_at, duplicate: body.duplicate === true, notified, ...(stored ? { record: stored } : {}) };
      }
      if (status >= 500 || status === 429) throw new LedgerUnavailable(`the ledger is unavailable: ${describeRefusal(status, text)}`, retryAfterMs(headers.get('retry-after') ?? undefined, systemClock.now()));
      if (status === 401 || status === 403) throw new LedgerRefused(`the ledger refused the job's token: ${describeRefusal(status, text)}`);
      throw new LedgerRefused(`the ledger refused the record: ${describeRefusal(status, text)}`);
    },
    retry,
    {
      shouldRetry: (error) => error instanceof LedgerUnavailable,
      onRetry: (error, attempt) => onRetry(`attempt ${attempt} failed (${error.message}); retrying`),
    },
  );
}

/** The ledger's answer to `GET /v1/deployments/metrics`, but for the repository, which the step knows. */
export type DeliveryFigures = Omit<LedgerFigures, 'repository' | 'daily'> & {
  /** Per UTC date of the window, oldest first; absent from a ledger older than the series. */
  readonly daily?: DayCounts[];
};

/** A series each of whose days has a date and four counts; anything else is left out (undefined). */
const dailyOf = (raw: unknown): DayCounts[] | undefined =>
  Array.isArray(raw) && raw.every((d) => typeof d?.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d.date) && ['success', 'failure', 'rolled_back', 'skipped'].every((k) => Number.isInteger(d[k]) && d[k] >= 0))
    ? (raw as DayCounts[])
    : undefined;

const isDistribution = (v: unknown): v is Distribution | null =>
  v === null || (typeof v === 'object' && ['median', 'p90', 'count'].every((k) => typeof (v as Record<string, unknown>)[k] === 'number'));

/**
 * The environment's figures over the last `days` days. One attempt: the figures only decorate a
 * recorded deployment, so any failure is an `Error` saying why, for a warning.
 */
export async function getFigures(http: ActionHttp, apiUrl: URL, token: string, environment: string, days: number): Promise<DeliveryFigures> {
  const url = new URL('v1/deployments/metrics', apiUrl);
  url.searchParams.set('environment', environment);
  url.searchParams.set('days', String(days));
  let answer;
  try {
    answer = await http.call('ledger-metrics', url.href, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  } catch (err) {
    const failure = callFailure(err);
    if (failure && 'noAnswer' in failure) throw new Error(`the ledger did not answer: ${failure.noAnswer}`);
    throw err;
  }
  if (answer.status === 404) throw new Error(`HTTP 404 (a ledger older than GET /v1/deployments/metrics?)`);
  if (answer.status !== 200) throw new Error(describeRefusal(answer.status, answer.text));
  const body = jsonObject(answer.text) as Partial<DeliveryFigures> | undefined;
  const valid =
    typeof body?.deployments?.total === 'number' &&
    typeof body.deployment_frequency?.per_day === 'number' &&
    (body.change_failure_rate === null || typeof body.change_failure_rate === 'number') &&
    isDistribution(body.recovery_time_ms) &&
    isDistribution(body.lead_time_ms) &&
    typeof body.window?.days === 'number';
  if (!valid) throw new Error(`the ledger answered HTTP 200 without figures (a ledger older than GET /v1/deployments/metrics?)`);
  const { daily, ...figures } = body as DeliveryFigures;
  const series = dailyOf(daily);
  return { ...figures, ...(series ? { daily: series } : {}) } as DeliveryFigures;
}
