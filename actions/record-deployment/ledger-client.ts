import { NoAnswer, type ActionHttp } from '../shared/http.js';
import { PermanentError, withRetry, type RetryPolicy } from '../shared/retry.js';
import type { LedgerRecord } from './record.js';

/** The ledger's answer to `POST /v1/deployments`. */
export interface RecordedDeployment {
  deployment_id: string;
  repository: string;
  recorded_at: string;
  duplicate: boolean;
  notified: Record<string, boolean>;
}

/** One line about an error answer: status, error code, reason and the first validation message. */
function describeRefusal(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; reason?: unknown; message?: unknown };
    const parts = [body.error, body.reason, body.message].filter((p): p is string => typeof p === 'string');
    if (parts.length > 0) return `HTTP ${status}: ${parts.join(' - ').slice(0, 500)}`;
  } catch {
    // not JSON: status only
  }
  return `HTTP ${status}`;
}

/**
 * Posts the record. No answer (refused, or none within the call's bound), 5xx and 429 are retried
 * with back-off (the ledger's idempotency makes a repeated POST safe); any other refusal is final.
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
  return withRetry(
    async () => {
      let status: number;
      let text: string;
      try {
        ({ status, text } = await http.call('ledger-post', url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(record),
        }));
      } catch (err) {
        if (err instanceof NoAnswer) throw new Error(`the ledger did not answer: ${err.reason}`);
        throw err;
      }
      if (status === 200 || status === 201) {
        const body = JSON.parse(text) as RecordedDeployment;
        if (typeof body.deployment_id !== 'string') throw new PermanentError('the ledger answered without a deployment_id');
        return body;
      }
      const message = `the ledger refused the record: ${describeRefusal(status, text)}`;
      if (status >= 500 || status === 429) throw new Error(message);
      throw new PermanentError(message);
    },
    retry,
    (error, attempt) => onRetry(`attempt ${attempt} failed (${error.message}); retrying`),
  );
}
