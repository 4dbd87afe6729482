import { jsonValue } from '../../server/http/json.js';
import type { ActionOctokit } from '../shared/github.js';
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

/** Whole user-perceived characters: an emoji sequence or a letter with its accents is never split. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * At most `max` UTF-16 code units of `text`, cut between graphemes, with `…` (one unit) inside
 * the limit when cut. Code units are the widest count of a "character" (each code point is one
 * or two), so the text fits however GitHub counts.
 */
export function cutAtGrapheme(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { segment } of GRAPHEMES.segment(text)) {
    if (end + segment.length > max - 1) break;
    end += segment.length;
  }
  return `${text.slice(0, end)}…`;
}

function descriptionOf(record: LedgerRecord): string {
  const what = record.version ?? record.commit?.slice(0, 12) ?? '';
  return cutAtGrapheme(`${record.status} of ${what} recorded by Gatehouse`, MAX_DESCRIPTION);
}

/** The ledger ids in a deployment's payload (GitHub answers the payload as sent: an object, or a string when one was sent). */
function payloadOf(payload: unknown): { delivery_id?: unknown; deployment_id?: unknown } | undefined {
  if (typeof payload === 'string') return (jsonValue(payload) as { delivery_id?: unknown; deployment_id?: unknown } | null | undefined) ?? undefined;
  return typeof payload === 'object' && payload !== null ? payload : undefined;
}

/** The ledger's answer the GitHub deployment is made from: its ids, and whether the delivery was a duplicate. */
export interface Recorded {
  readonly deployment_id: string;
  readonly duplicate: boolean;
}

/**
 * The recorded deployment on GitHub too, made from the ledger's record only (never from a step's
 * inputs, which a duplicate's may contradict): a deployment of the record's commit to its
 * environment, carrying the ledger's ids in its payload, and a status saying how it went.
 *
 * A duplicate delivery (a retried step, or another run reusing the delivery id) makes nothing
 * new: the deployment made for the original record is found by its payload's ids among the
 * record's environment's deployments of its commit, and the record's status is added only when
 * that deployment has none (the original's was lost, to a 5xx say). Returns the GitHub
 * deployment's id; undefined for a duplicate whose original made no deployment.
 */
export async function githubDeployment(octokit: ActionOctokit, repository: RepositoryRef, record: LedgerRecord, recorded: Recorded): Promise<number | undefined> {
  const ref = record.commit;
  if (!ref) throw new NotDeployable('the record names no commit (input commit, or the run\'s GITHUB_SHA)');
  const state = STATE_OF[record.status];
  if (!state) throw new NotDeployable(`no GitHub deployment state for the status ${record.status}`);
  const { environment } = record;
  const addStatus = (deployment_id: number) =>
    octokit.rest.repos.createDeploymentStatus({
      ...repository,
      deployment_id,
      state,
      description: descriptionOf(record),
      ...(record.url ? { environment_url: record.url } : {}),
      ...(record.run_url ? { log_url: record.run_url } : {}),
    });

  if (recorded.duplicate) {
    for await (const page of octokit.paginate.iterator(octokit.rest.repos.listDeployments, { ...repository, sha: ref, environment, per_page: 100 })) {
      const original = page.data.find((d) => {
        const ids = payloadOf(d.payload);
        return ids?.delivery_id === record.delivery_id && ids.deployment_id === recorded.deployment_id;
      });
      if (!original) continue;
      const { data: statuses } = await octokit.rest.repos.listDeploymentStatuses({ ...repository, deployment_id: original.id, per_page: 1 });
      if (statuses.length === 0) await addStatus(original.id);
      return original.id;
    }
    return undefined;
  }
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
  await addStatus(created.data.id);
  return created.data.id;
}
