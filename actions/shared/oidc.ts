import type { ActionsCore } from './core.js';

/** The job cannot ask for an OIDC token: the workflow lacks `permissions: id-token: write`. */
export class MissingIdTokenPermission extends Error {
  override readonly name = 'MissingIdTokenPermission';
  constructor() {
    super("cannot request an OIDC token: give the job 'permissions: id-token: write'");
  }
}

/**
 * Requests the job's OIDC token for `audience` (the runtime masks it). The runner only sets
 * `ACTIONS_ID_TOKEN_REQUEST_URL`/`_TOKEN` when the job has `id-token: write`.
 */
export async function requestIdToken(core: ActionsCore, env: NodeJS.ProcessEnv, audience: string): Promise<string> {
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) throw new MissingIdTokenPermission();
  const token = await core.getIDToken(audience);
  core.setSecret(token);
  return token;
}
