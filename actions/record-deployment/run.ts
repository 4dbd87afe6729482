import type { ActionsCore } from '../shared/core.js';
import { baseUrl, booleanInput, optionalInput } from '../shared/inputs.js';
import { OidcUnavailable, requestIdToken } from '../shared/oidc.js';
import { ACTION_RETRY, type RetryPolicy } from '../../server/http/retry.js';
import { appendSummary } from '../shared/summary.js';
import { inlineText } from '../../server/markdown.js';
import type { ActionHttp } from '../shared/http.js';
import { actionOctokit } from '../shared/github.js';
import { callFailure, transportFailure } from '../../server/http/outbound.js';
import { githubDeployment, NotDeployable } from './github-deployment.js';
import type { EventContext } from '../shared/event.js';
import { committedAt } from './committed-at.js';
import { differences, differencesWarning, shown, type Difference } from './differences.js';
import { FIGURES_DAYS, figuresOutputs, figuresSummary } from './figures.js';
import { getFigures, LedgerUnavailable, postDeployment, type RecordedDeployment } from './ledger-client.js';
import { recordFromInputs, type LedgerRecord } from './record.js';

const DEFAULT_AUDIENCE = 'gatehouse-ledger';

export interface RecordDeploymentDeps {
  readonly core: ActionsCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
  readonly retry?: RetryPolicy;
  /** The run's event (`@actions/github`'s `context`); none when absent. */
  readonly event?: EventContext;
}

/** The job summary's table: the ledger's record (for a duplicate, the original), never this step's inputs. */
function summaryOf(record: LedgerRecord | undefined, result: RecordedDeployment, differing: readonly Difference[]): string {
  const notified = Object.entries(result.notified ?? {})
    .map(([sink, ok]) => `${sink}: ${ok ? 'sent' : 'failed'}`)
    .join(', ');
  const unknown = 'not in the answer';
  return [
    `### Deployment ${result.duplicate ? 'already recorded' : 'recorded'}`,
    '',
    '| Repository | Environment | Status | Version | Deployment id | Recorded at | Notified |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${[result.repository, record?.environment ?? unknown, record?.status ?? unknown, record?.version ?? '', result.deployment_id, result.recorded_at, notified || 'none configured'].map((v) => inlineText(String(v))).join(' | ')} |`,
    '',
    ...(differing.length > 0 ? [`This step's ${differing.map((d) => inlineText(d.input)).join(', ')} differ from the record, which stands: the table shows the record (see the warning).`, ''] : []),
  ].join('\n');
}

/**
 * The environment's figures of the last 30 days, as outputs and in the job summary. They only
 * decorate a recorded deployment: any failure is a warning, whatever `fail-on-error` says.
 */
async function showFigures({ core, http }: RecordDeploymentDeps, apiUrl: URL, token: string, environment: string): Promise<void> {
  try {
    const figures = await getFigures(http, apiUrl, token, environment, FIGURES_DAYS);
    for (const [name, value] of Object.entries(figuresOutputs(figures))) core.setOutput(name, value);
    await appendSummary(core, figuresSummary(environment, figures));
  } catch (err) {
    core.warning(`figures not shown: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The recorded deployment on GitHub (`github-deployment: true`), after the ledger took it. Its
 * failure is a warning naming the permission or the failure, or a failed step with
 * `fail-on-error: true`; the ledger record stands either way.
 */
async function onGitHub({ core, http, env }: RecordDeploymentDeps, record: LedgerRecord | undefined, result: RecordedDeployment, failOnError: boolean): Promise<void> {
  const fail = (reason: string) => {
    const message = `GitHub deployment not created (${reason}); the ledger record stands`;
    if (failOnError) core.setFailed(message);
    else core.warning(message);
  };
  const token = optionalInput(core, 'github-token');
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!token) return fail('github-token is empty');
  if (!owner || !repo) return fail('GITHUB_REPOSITORY is not owner/name');
  // Only the ledger's record goes to GitHub; an answer without it leaves nothing to make a duplicate's deployment from.
  if (!record) return core.warning(`no GitHub deployment: the ledger's duplicate answer does not carry the original record, and this step's inputs may differ from it`);
  try {
    const octokit = actionOctokit(http, 'github-deployment', token, env.GITHUB_API_URL || 'https://api.github.com');
    const id = await githubDeployment(octokit, { owner, repo }, record, result);
    if (id === undefined) {
      core.warning(`no GitHub deployment: delivery-id ${shown(record.delivery_id)} was recorded before, without a GitHub deployment of its own (made without github-deployment, or its creation failed), and a duplicate delivery creates none`);
      return;
    }
    core.setOutput('github-deployment-id', String(id));
    core.info(`GitHub deployment ${id}: ${record.environment} ${record.status}`);
  } catch (err) {
    if (err instanceof NotDeployable) return fail(err.message);
    const failure = callFailure(err);
    if (!failure || 'noAnswer' in failure) return fail(`GitHub did not answer: ${failure?.noAnswer ?? transportFailure(err)}`);
    fail(failure.status === 403 ? 'HTTP 403: the token needs permissions: deployments: write' : `HTTP ${failure.status}`);
  }
}

/**
 * Failures the step cannot fix by changing itself: the ledger unreachable or down (after the
 * retries), or the runner's token endpoint failing. Everything else (an input, a URL without a
 * scheme, a missing `id-token: write`, a refusal: 401, 403, 404, 422) is a mistake to correct.
 */
const isOutage = (err: unknown): boolean => err instanceof LedgerUnavailable || err instanceof OidcUnavailable;

/**
 * The record-deployment action. With an empty `api-url` it does nothing (the ledger is optional).
 * An outage is a warning unless `fail-on-error` is true (recording must not fail a deploy because
 * the ledger is down); a mistake in the step or its setup fails the step, or it would go unseen.
 */
export async function run(deps: RecordDeploymentDeps): Promise<void> {
  const { core, http, env, retry = ACTION_RETRY } = deps;
  let failOnError = false;
  try {
    failOnError = booleanInput(core, 'fail-on-error', false);
    const onGitHubToo = booleanInput(core, 'github-deployment', false);
    const apiUrlInput = optionalInput(core, 'api-url');
    if (apiUrlInput === undefined) {
      core.notice('record-deployment: api-url is empty, so nothing was recorded (the ledger is optional)');
      return;
    }
    const apiUrl = baseUrl('api-url', apiUrlInput);
    const sent = recordFromInputs(core, env);
    const committed = await committedAt(core, env, sent.commit, deps.event);
    if (committed) sent.committed_at = committed;
    const token = await requestIdToken(http, core, env, optionalInput(core, 'audience') ?? DEFAULT_AUDIENCE, retry.minDelayMs);
    const result = await postDeployment(http, apiUrl, token, sent, retry, (message) => core.info(message));
    // What the ledger holds is what happened: for a duplicate, the original record, whatever this step sent.
    // A first-seen record is what was sent, when the answer does not repeat it.
    const record = result.record ?? (result.duplicate ? undefined : sent);
    const differing = result.duplicate && record ? differences(sent, record) : [];

    core.setOutput('deployment-id', result.deployment_id);
    core.setOutput('duplicate', String(result.duplicate));
    core.setOutput('recorded-at', result.recorded_at);
    core.setOutput('notified', JSON.stringify(result.notified));
    core.info(
      result.duplicate
        ? `delivery ${sent.delivery_id} was already recorded as ${result.deployment_id}`
        : `recorded ${sent.environment} ${sent.status} as ${result.deployment_id}`,
    );
    if (differing.length > 0) core.warning(differencesWarning(sent.delivery_id, result.deployment_id, differing));
    await appendSummary(core, summaryOf(record, result, differing));
    if (onGitHubToo) await onGitHub(deps, record, result, failOnError);
    if (record) await showFigures(deps, apiUrl, token, record.environment);
    else core.info("figures not shown: the ledger's answer does not name the recorded environment");
  } catch (err) {
    const message = `deployment not recorded: ${err instanceof Error ? err.message : String(err)}`;
    if (isOutage(err) && !failOnError) core.warning(message);
    else core.setFailed(message);
  }
}
