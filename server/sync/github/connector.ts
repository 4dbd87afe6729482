import { parseFullName } from '../../github/identifiers.js';
import type { Connector } from '../connector.js';
import { ALERT_KINDS } from './alerts.js';
import { rateLimitedClient } from '../../github/rate-limited-client.js';
import { syncGithub } from './sync.js';

/** `sync-github`: code-scanning, Dependabot and secret-scanning alerts, one DefectDojo product per repository. */
export const githubConnector: Connector = {
  source: 'github',
  command: 'sync-github',
  noun: 'alert list',
  scope: { parameter: 'repository', accepts: (value) => parseFullName(value) !== undefined, form: 'a repository as owner/name' },
  description: `GitHub code-scanning, Dependabot and secret-scanning alerts of every
repository of every GITHUB_TARGETS owner -> DefectDojo, one product
per repository`,
  missing: ({ config, secrets }) => [
    ...(config.sources.github.enabled ? [] : ['sources.github.enabled is false (set so, or unset with none of its settings given): this source is switched off']),
    ...(secrets.githubTargets ? [] : ['GITHUB_TARGETS is required (a JSON list of {"server","owners","token"})']),
  ],
  run: ({ loaded, options, defectDojo, retry, progress, conditional, scope }) =>
    syncGithub({
      targets: loaded.secrets.githubTargets!,
      clientFor: (target) =>
        rateLimitedClient(target, {
          timeoutMs: options.timeoutMs,
          retry,
          onRetry: (operation, error, n, delayMs) => progress.retry(`${target.server} ${operation}`, error, n, delayMs),
          onRateLimitWait: (resource, waitMs) => progress.warn(`${target.server}: the ${resource} rate limit is spent; waiting ${Math.ceil(waitMs / 1000)} s for its reset`),
          ...(conditional ? { conditional } : {}),
        }),
      defectDojo,
      concurrency: options.concurrency,
      retry,
      progress,
      ...(scope ? { only: scope } : {}),
      kinds: ALERT_KINDS.filter((kind) => loaded.config.sources.github[kind.setting]),
    }),
};
