import type { ActionsCore } from '../shared/core.js';
import { baseUrl, booleanInput, optionalInput } from '../shared/inputs.js';
import { requestIdToken } from '../shared/oidc.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../shared/retry.js';
import { appendSummary, cell } from '../shared/summary.js';
import type { ActionHttp } from '../shared/http.js';
import { postDeployment, type RecordedDeployment } from './ledger-client.js';
import { recordFromInputs, type LedgerRecord } from './record.js';

export const DEFAULT_AUDIENCE = 'gatehouse-ledger';

export interface RecordDeploymentDeps {
  readonly core: ActionsCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
  readonly retry?: RetryPolicy;
}

function summaryOf(record: LedgerRecord, result: RecordedDeployment): string {
  const notified = Object.entries(result.notified)
    .map(([sink, ok]) => `${sink}: ${ok ? 'sent' : 'failed'}`)
    .join(', ');
  return [
    `### Deployment ${result.duplicate ? 'already recorded' : 'recorded'}`,
    '',
    '| Repository | Environment | Status | Version | Deployment id | Recorded at | Notified |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${cell(result.repository)} | ${cell(record.environment)} | ${cell(record.status)} | ${cell(record.version ?? '')} | ${cell(result.deployment_id)} | ${cell(result.recorded_at)} | ${cell(notified || 'none configured')} |`,
    '',
  ].join('\n');
}

/**
 * The record-deployment action. With an empty `api-url` it does nothing (the ledger is optional).
 * A ledger failure is a warning unless `fail-on-error` is true: recording must not fail a deploy.
 */
export async function run({ core, http, env, retry = DEFAULT_RETRY }: RecordDeploymentDeps): Promise<void> {
  const apiUrlInput = optionalInput(core, 'api-url');
  if (apiUrlInput === undefined) {
    core.notice('record-deployment: api-url is empty, so nothing was recorded (the ledger is optional)');
    return;
  }
  let failOnError = false;
  try {
    failOnError = booleanInput(core, 'fail-on-error', false);
    const apiUrl = baseUrl('api-url', apiUrlInput);
    const record = recordFromInputs(core, env);
    const token = await requestIdToken(http, core, env, optionalInput(core, 'audience') ?? DEFAULT_AUDIENCE, retry.minTimeoutMs);
    const result = await postDeployment(http, apiUrl, token, record, retry, (message) => core.info(message));

    core.setOutput('deployment-id', result.deployment_id);
    core.setOutput('duplicate', String(result.duplicate));
    core.setOutput('recorded-at', result.recorded_at);
    core.setOutput('notified', JSON.stringify(result.notified));
    core.info(
      result.duplicate
        ? `delivery ${record.delivery_id} was already recorded as ${result.deployment_id}`
        : `recorded ${record.environment} ${record.status} as ${result.deployment_id}`,
    );
    await appendSummary(core, summaryOf(record, result));
  } catch (err) {
    const message = `deployment not recorded: ${err instanceof Error ? err.message : String(err)}`;
    if (failOnError) core.setFailed(message);
    else core.warning(message);
  }
}
