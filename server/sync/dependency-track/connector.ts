import type { Connector, ConnectorContext } from '../connector.js';
import { CredentialRefused, refusedAs } from '../credentials.js';
import { HttpError } from '../../http/call-errors.js';
import { DependencyTrackClient, REQUIRED_PERMISSIONS } from './client.js';
import { writeBackTriage } from './triage.js';
import { syncDependencyTrack } from './sync.js';

/** `sync`: Dependency-Track projects, each FPF export reimported into its own DefectDojo product. */
export const dependencyTrackConnector: Connector = {
  source: 'dependencytrack',
  command: 'sync',
  noun: 'project',
  scope: { parameter: 'project', accepts: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value), form: 'a Dependency-Track project UUID' },
  description: `Dependency-Track -> DefectDojo: each project's FPF export reimported
into its own DefectDojo product`,
  missing: ({ config, secrets }) => [
    ...(config.sources.dependencytrack.enabled ? [] : ['sources.dependencytrack.enabled is false (set so, or unset with none of its settings given): this source is switched off']),
    ...(config.sources.dependencytrack.url ? [] : ['sources.dependencytrack.url is required (or SYNC_DEPENDENCYTRACK_URL)']),
    ...(secrets.dependencyTrackApiKey ? [] : ['DEPENDENCY_TRACK_API_KEY is required (a Dependency-Track API key with VIEW_PORTFOLIO and VIEW_VULNERABILITY)']),
  ],
  check: async ({ loaded, options, retry, progress }) => {
    const url = loaded.config.sources.dependencytrack.url!;
    let missing: string[];
    try {
      // Writing DefectDojo's triage back records analyses: VULNERABILITY_ANALYSIS.
      const required = [...REQUIRED_PERMISSIONS, ...(loaded.config.sources.dependencytrack.writeBackTriage ? ['VULNERABILITY_ANALYSIS'] : [])];
      missing = await clientOf({ loaded, options }).missingPermissions(retry, (error, n, delayMs) => progress.retry('key check', error, n, delayMs), required);
    } catch (err) {
      // Versions without `team/self` answer 404: the project list then shows a refused key.
      if (err instanceof HttpError && err.status === 404) return;
      throw refusedAs(err, 'DEPENDENCY_TRACK_API_KEY', 'Dependency-Track', url);
    }
    if (missing.length > 0) throw new CredentialRefused('DEPENDENCY_TRACK_API_KEY', 'Dependency-Track', url, `the key's team lacks the permission ${missing.join(' and ')}`);
  },
  run: async ({ loaded, options, defectDojo, retry, progress, scope }) => {
    const dependencyTrack = clientOf({ loaded, options });
    const { report, synced } = await syncDependencyTrack({
      dependencyTrack,
      defectDojo,
      excludeInactive: loaded.config.sources.dependencytrack.excludeInactive,
      ...(scope ? { only: scope } : {}),
      concurrency: options.concurrency,
      retry,
      progress,
    });
    if (!loaded.config.sources.dependencytrack.writeBackTriage) return report;
    const triage = await writeBackTriage(synced, { dependencyTrack, defectDojo, defectDojoUrl: loaded.config.defectdojo.url!, retry, progress });
    return { ...report, ok: report.ok && triage.failed === 0, triage };
  },
};

function clientOf({ loaded, options }: Pick<ConnectorContext, 'loaded' | 'options'>): DependencyTrackClient {
  return new DependencyTrackClient({
    url: loaded.config.sources.dependencytrack.url!,
    apiKey: loaded.secrets.dependencyTrackApiKey!,
    timeoutMs: options.timeoutMs,
    uploadTimeoutMs: options.uploadTimeoutMs,
  });
}
