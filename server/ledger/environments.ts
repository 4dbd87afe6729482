import type { CallerIdentity } from '../auth/verifier.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/types.js';
import { deploymentView } from './view.js';

/** `GET /v1/environments`: what runs where now, in the caller's repository (by id). */
export async function environmentsOf(deps: { readonly store: Store; readonly clock: Clock }, caller: CallerIdentity): Promise<Record<string, unknown>> {
  const states = await deps.store.deployments.environments(caller.repositoryId, new Date(deps.clock.now()));
  return {
    repository: caller.repository,
    environments: states.map((s) => ({
      environment: s.environment,
      latest: deploymentView(s.latest),
      latest_success: s.latestSuccess ? deploymentView(s.latestSuccess) : null,
    })),
  };
}
