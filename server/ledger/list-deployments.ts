import type { CallerIdentity } from '../auth/verifier.js';
import type { Clock } from '../clock.js';
import type { DeploymentRecord, Store } from '../store/types.js';
import { HISTORY_DEFAULT_LIMIT, type HistoryQuery } from './schema.js';

/** The caller's own records (by repository id, never by name), newest first. */
export function listDeployments(
  deps: { readonly store: Store; readonly clock: Clock },
  caller: CallerIdentity,
  query: HistoryQuery,
): Promise<DeploymentRecord[]> {
  return deps.store.deployments.list({
    repositoryId: caller.repositoryId,
    limit: query.limit ?? HISTORY_DEFAULT_LIMIT,
    now: new Date(deps.clock.now()),
    ...(query.environment === undefined ? {} : { environment: query.environment }),
  });
}
