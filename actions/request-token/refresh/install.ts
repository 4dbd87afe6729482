import type { StatefulCore } from '../../shared/core.js';
import { git } from '../../shared/git.js';
import { GIT_CONFIG_TIMEOUT_MS, includeCredentialHelper, repositoryUrls } from './git-config.js';
import { shellWord } from './shell-word.js';
import { RefreshStore, type HeldToken, type RefreshSettings } from './store.js';

export interface RefreshCli {
  /** The runner's own node (the one running this step), not `node` from `PATH`. */
  readonly node: string;
  /** The action's command-line bundle (`dist/request-token/cli/index.js`), which stays for the whole job. */
  readonly script: string;
}

/**
 * Sets up the refresh for the later steps of the job: the folder with the settings and the first
 * token, the `token-command` output, and a git credential helper for the job's repository on the
 * server, included from the runner user's global git configuration (`git-config.ts`). The post
 * step undoes all of it (`revoke.ts`).
 */
export async function installRefresh(core: StatefulCore, env: NodeJS.ProcessEnv, cli: RefreshCli, settings: RefreshSettings, first: HeldToken): Promise<void> {
  const runnerTemp = env.RUNNER_TEMP;
  if (!runnerTemp) {
    core.warning(`${settings.appName} token: refresh is off (RUNNER_TEMP is not set, so there is nowhere to keep the job's tokens)`);
    return;
  }
  const store = RefreshStore.create(runnerTemp, settings, first);
  core.saveState('refresh-folder', store.dir);
  const command = `${shellWord(cli.node)} ${shellWord(cli.script)}`;
  core.setOutput('token-command', `${command} token ${shellWord(store.dir)}`);

  const helper = `!${command} credential ${shellWord(store.dir)}`;
  try {
    const urls = repositoryUrls(settings.serverUrl, settings.job.GITHUB_REPOSITORY ?? '');
    core.saveState('refresh-include', await includeCredentialHelper(store.dir, urls, helper));
  } catch (err) {
    core.warning(`${settings.appName} token: the git credential helper could not be set (${(err as Error).message}); token-command still works`);
  }
  try {
    await warnOfPersistedCredentials(core, env, settings);
  } catch (err) {
    core.info(`${settings.appName} token: the workspace's git configuration could not be read (${(err as Error).message})`);
  }
}

/**
 * actions/checkout keeps its own token in the repository's configuration (`http.<server>/.extraheader`,
 * in the repository's config or a file it includes), and git sends that header rather than asking
 * the credential helper: one warning says how to let the refreshed token through.
 */
async function warnOfPersistedCredentials(core: StatefulCore, env: NodeJS.ProcessEnv, settings: RefreshSettings): Promise<void> {
  if (!env.GITHUB_WORKSPACE) return;
  const found = (await git(env.GITHUB_WORKSPACE, ['config', '--includes', '--name-only', '--get-regexp', '^http\\..*\\.extraheader$'], { timeoutMs: GIT_CONFIG_TIMEOUT_MS })).stdout.toString('utf8');
  if (!found.trim()) return;
  core.warning(
    `${settings.appName} token: the repository in ${env.GITHUB_WORKSPACE} keeps a token from actions/checkout (${found.trim().split('\n')[0]}), which git sends instead of asking the credential helper, so git keeps using that token; check out with persist-credentials: false to use the refreshed one`,
  );
}
