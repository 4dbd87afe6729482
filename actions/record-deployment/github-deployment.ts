import type { ActionOctokit } from '../shared/github.js';
import type { RecordedDeployment } from './ledger-client.js';
import type { LedgerRecord } from './record.js';

/** The ledger's status as a GitHub deployment status's `state`. */
const STATE_OF: Readonly<Record<string, 'success' | 'failure' | 'error' | 'inactive'>> = {
  success: 'success',
  failure: 'failure',
  'rolled-back': 'error',
  skipped: 'inactive',
};

/** GitHub refuses a deployment status description over 140 characters. */
const MAX_DESCRIPTION = 140;

/** The commit could not be deployed on GitHub: no commit, or an answer GitHub documents as a refusal of this kind. */
export class NotDeployable extends Error {
  override readonly name = 'NotDeployable';
}

export interface RepositoryRef {
  readonly owner: string;
  readonly repo: string;
}

function descriptionOf(record: LedgerRecord): string {
  const what = record.version ?? record.commit?.slice(0, 12) ?? '';
  const text = `${record.status} of ${what} recorded by Gatehouse`;
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** The `delivery_id` of a deployment's payload (GitHub answers the payload as sent: an object, or a string when one was sent). */
function deliveryOf(payload: unknown): unknown {
  if (typeof payload === 'string') {
    try {
      return (JSON.parse(payload) as { delivery_id?: unknown } | null)?.delivery_id;
    } catch {
      return undefined;
    }
  }
  return (payload as { delivery_id?: unknown } | null | undefined)?.delivery_id;
}

/**
 * The recorded deployment on GitHub too: a deployment of the commit to the environment, carrying
 * the ledger's ids in its payload, and a status saying how it went. A duplicate delivery (a retried
 * step) creates no second deployment: the one its first attempt made is found by the delivery id
 * in its payload, and a status is added only when its latest one differs (the first attempt's
 * may have been lost). Returns the GitHub deployment's id.
 */
export async function githubDeployment(octokit: ActionOctokit, repository: RepositoryRef, record: LedgerRecord, recorded: RecordedDeployment): Promise<number> {
  const ref = record.commit;
  if (!ref) throw new NotDeployable('the record names no commit (input commit, or the run\'s GITHUB_SHA)');
  const { environment } = record;
  let id: number | undefined;
  if (recorded.duplicate) {
    for await (const page of octokit.paginate.iterator(octokit.rest.repos.listDeployments, { ...repository, sha: ref, environment, per_page: 100 })) {
      id = page.data.find((d) => deliveryOf(d.payload) === record.delivery_id)?.id;
      if (id !== undefined) break;
    }
  }
  if (id === undefined) {
    const created = await octokit.rest.repos.createDeployment({
      ...repository,
      ref,
      environment,
      auto_merge: false,
      required_contexts: [],
      payload: { deployment_id: recorded.deployment_id, delivery_id: record.delivery_id },
      description: descriptionOf(record),
    });
    // 202 is GitHub's answer when it merged the default branch in first, which auto_merge: false rules out.
    if (!('id' in created.data)) throw new NotDeployable(`GitHub did not create the deployment: ${created.data.message ?? 'no deployment in its answer'}`);
    id = created.data.id;
  }
  const state = STATE_OF[record.status];
  if (!state) throw new NotDeployable(`no GitHub deployment state for the status ${record.status}`);
  const [latest] = (await octokit.rest.repos.listDeploymentStatuses({ ...repository, deployment_id: id, per_page: 1 })).data;
  if (latest?.state !== state) {
    await octokit.rest.repos.createDeploymentStatus({
      ...repository,
      deployment_id: id,
      state,
      description: descriptionOf(record),
      ...(record.url ? { environment_url: record.url } : {}),
      ...(record.run_url ? { log_url: record.run_url } : {}),
    });
  }
  return id;
}
