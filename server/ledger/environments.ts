import type { Clock } from '../clock.js';
import type { Store } from '../store/types.js';
import type { RepositoryRef } from './delivery-figures.js';
import { deploymentView } from './view.js';

/** `GET /v1/environments`: what runs where now, in the caller's repository (by id); the console shows the same. */
export async function environmentsOf(deps: { readonly store: Store; readonly clock: Clock }, caller: RepositoryRef): Promise<Record<string, unknown>> {
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
