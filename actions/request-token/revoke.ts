import type { StatefulCore } from '../shared/core.js';
import type { ActionHttp } from '../shared/http.js';
import { TokenUnavailable } from './broker-client.js';
import { revokeToken } from './revoke-token.js';
import { removalCommand, removeCredentialHelper } from './refresh/git-config.js';
import { RefreshStore, type HeldToken } from './refresh/store.js';

interface PostDeps {
  readonly core: StatefulCore;
  readonly http: ActionHttp;
  readonly env: NodeJS.ProcessEnv;
  readonly now?: () => number;
}

/**
 * Ends the refresh and reads what it minted, under the folder's lock: a refresh minting now
 * records its token before it lets go, and none mints after the mark. The folder may be gone.
 */
async function endRefresh(folder: RefreshStore | undefined): Promise<HeldToken[]> {
  if (!folder) return [];
  try {
    return await folder.locked(async () => {
      folder.end();
      return folder.tokens();
    });
  } catch (err) {
    if (err instanceof TokenUnavailable) return [];
    throw err;
  }
}

/** Every token the job holds: the step's own, and each one a refresh minted. */
function heldTokens(core: StatefulCore, minted: readonly HeldToken[]): HeldToken[] {
  const first = core.getState('token');
  const tokens: HeldToken[] = first ? [{ token: first, expiresAtMs: Date.parse(core.getState('expires-at')) }] : [];
  for (const held of minted) if (!tokens.some((t) => t.token === held.token)) tokens.push(held);
  return tokens;
}

async function revokeOne({ core, http, env, now = Date.now }: PostDeps, { token, expiresAtMs }: HeldToken): Promise<void> {
  if (Number.isFinite(expiresAtMs) && expiresAtMs <= now()) {
    core.info('token already expired');
    return;
  }
  const outcome = await revokeToken(http, env.GITHUB_API_URL || 'https://api.github.com', token);
  if ('revoked' in outcome) core.info('token revoked');
  else if ('alreadyGone' in outcome) core.info('token was already revoked or expired');
  else core.warning(`token not revoked (${outcome.notRevoked}); it expires on its own`);
}

/**
 * Removes the job's entry from the global git configuration (that one value) and the refresh
 * folder, with the helper's file in it. An entry git would not remove is named, with the command
 * that removes it: left alone it points at a file that is gone, so it gives git nothing.
 */
async function removeRefresh(core: StatefulCore, folder: RefreshStore | undefined): Promise<void> {
  const include = core.getState('refresh-include');
  const { left } = include ? await removeCredentialHelper(include) : {};
  folder?.remove();
  if (include && left) {
    core.warning(
      `the git credential helper entry include.path=${include} was left in the global git configuration (${left}); its file is deleted, so it gives git nothing, but remove the entry with: ${removalCommand(include)}`,
    );
  }
}

/**
 * The post step: ends the refresh (no token is minted after), revokes every token the job minted
 * (the step's own and each refresh), so none outlives the job, then removes the refresh's
 * credential helper and folder. Fail-soft too: a token that cannot be revoked expires by itself
 * within the hour. Tokens are revoked only when the step's `revoke` input was true (it saved them then).
 */
export async function revoke(deps: PostDeps): Promise<void> {
  const { core } = deps;
  const folderPath = core.getState('refresh-folder');
  const folder = folderPath ? new RefreshStore(folderPath) : undefined;
  const minted = await endRefresh(folder);
  const tokens = core.getState('revoke') === 'false' ? [] : heldTokens(core, minted);
  if (tokens.length === 0) core.info('no token to revoke');
  for (const held of tokens) await revokeOne(deps, held);
  await removeRefresh(core, folder);
}
