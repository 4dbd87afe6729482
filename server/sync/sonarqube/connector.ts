import type { Connector, ConnectorContext } from '../connector.js';
import { CredentialRefused, refusedAs } from '../credentials.js';
import { SonarQubeClient } from './client.js';
import { syncSonarQube } from './sync.js';

/** `sync-sonarqube`: each SonarQube project's open issues, one DefectDojo product per project. */
export const sonarQubeConnector: Connector = {
  source: 'sonarqube',
  command: 'sync-sonarqube',
  noun: 'project',
  description: `SonarQube -> DefectDojo: each project's open vulnerabilities (every
open issue with --all-issue-types) and its hotspots to review, each in a
test of its own product ("SonarQube Scan detailed")`,
  missing: ({ config, secrets }) => [
    ...(config.sources.sonarqube.enabled ? [] : ['sources.sonarqube.enabled is false (set so, or unset with none of its settings given): this source is switched off']),
    ...(config.sources.sonarqube.url ? [] : ['sources.sonarqube.url is required (or SYNC_SONARQUBE_URL)']),
    ...(secrets.sonarQubeToken ? [] : ['SONARQUBE_TOKEN is required (a SonarQube user token with Browse on the projects)']),
  ],
  check: async ({ loaded, options, retry, progress }) => {
    const url = loaded.config.sources.sonarqube.url!;
    let valid: boolean;
    try {
      valid = await clientOf({ loaded, options }).tokenValid(retry, (error, n, delayMs) => progress.retry('token check', error, n, delayMs));
    } catch (err) {
      throw refusedAs(err, 'SONARQUBE_TOKEN', 'SonarQube', url);
    }
    if (!valid) throw new CredentialRefused('SONARQUBE_TOKEN', 'SonarQube', url, 'api/authentication/validate answered valid: false');
  },
  run: ({ loaded, options, defectDojo, retry, progress }) =>
    syncSonarQube({
      sonarQube: clientOf({ loaded, options }),
      serverUrl: loaded.config.sources.sonarqube.url!,
      allIssueTypes: options.allIssueTypes ?? loaded.config.sources.sonarqube.allIssueTypes,
      defectDojo,
      concurrency: options.concurrency,
      retry,
      progress,
    }),
};

function clientOf({ loaded, options }: Pick<ConnectorContext, 'loaded' | 'options'>): SonarQubeClient {
  return new SonarQubeClient({ url: loaded.config.sources.sonarqube.url!, token: loaded.secrets.sonarQubeToken!, timeoutMs: options.timeoutMs });
}
