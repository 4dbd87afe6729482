import type { TokenCore } from './run.js';
import { actionOctokit, failureOf } from '../shared/github.js';
import { NoAnswer, type ActionHttp } from '../shared/http.js';
import { git } from '../shared/git.js';
import { RefreshStore, type HeldToken } from './refresh/store.js';

interface PostDeps {
  readonly core: TokenCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
  readonly now?: () => number;
}

/** Every token the job holds: the step's own, and each one a refresh minted (the folder may be gone). */
function heldTokens(core: TokenCore, folder: RefreshStore | undefined): HeldToken[] {
  const first = core.getState('token');
  const tokens: HeldToken[] = first ? [{ token: first, expiresAtMs: Date.parse(core.getState('expires-at')) }] : [];
  try {
    for (const held of folder?.tokens() ?? []) if (!tokens.some((t) => t.token === held.token)) tokens.push(held);
  } catch {
    // Nothing more to revoke than what the state names.
  }
  return tokens;
}

async function revokeOne({ core, http, env, now = Date.now }: PostDeps, { token, expiresAtMs }: HeldToken): Promise<void> {
  if (Number.isFinite(expiresAtMs) && expiresAtMs <= now()) {
    core.info('token already expired');
    return;
  }
  const octokit = actionOctokit(http, 'token-revoke', token, env.GITHUB_API_URL || 'https://api.github.com');
  try {
    await octokit.request('DELETE /installation/token');
    core.info('token revoked');
  } catch (err) {
    const failure = failureOf(http, 'token-revoke', err);
    if (failure instanceof NoAnswer) core.warning(`token not revoked (API unreachable: ${failure.reason}); it expires on its own`);
    else if (failure.status === 401) core.info('token was already revoked or expired');
    else core.warning(`token not revoked (HTTP ${failure.status}); it expires on its own`);
  }
}

/** Removes the job's git credential helper entry (that one value only) and the refresh folder. */
async function removeRefresh(core: TokenCore, folder: RefreshStore | undefined): Promise<void> {
  const key = core.getState('refresh-helper-key');
  const helper = core.getState('refresh-helper');
  if (key && helper) {
    try {
      await git(undefined, ['config', '--global', '--fixed-value', '--unset-all', key, helper]);
    } catch (err) {
      core.warning(`the git credential helper entry ${key} was not removed (${(err as Error).message})`);
    }
  }
  folder?.remove();
}

/**
 * The post step: revokes every token the job minted (the step's own and each refresh), so none
 * outlives the job, then removes the refresh's credential helper and folder. Fail-soft too: a
 * token that cannot be revoked expires by itself within the hour. Tokens are revoked only when
 * the step's `revoke` input was true (it saved them then).
 */
export async function revoke(deps: PostDeps): Promise<void> {
  const { core } = deps;
  const folderPath = core.getState('refresh-folder');
  const folder = folderPath ? new RefreshStore(folderPath) : undefined;
  const tokens = core.getState('revoke') === 'false' ? [] : heldTokens(core, folder);
  if (tokens.length === 0) core.info('no token to revoke');
  for (const held of tokens) await revokeOne(deps, held);
  await removeRefresh(core, folder);
}
