import type { Connector } from '../connector.js';
import { DependencyTrackClient } from './client.js';
import { syncDependencyTrack } from './sync.js';

/** `sync`: Dependency-Track projects, each FPF export reimported into its own DefectDojo product. */
export const dependencyTrackConnector: Connector = {
  source: 'dependencytrack',
  command: 'sync',
  noun: 'project',
  description: `Dependency-Track -> DefectDojo: each project's FPF export reimported
into its own DefectDojo product`,
  missing: ({ config, secrets }) => [
    ...(config.sources.dependencytrack.enabled ? [] : ['sources.dependencytrack.enabled is false (set so, or unset with none of its settings given): this source is switched off']),
    ...(config.sources.dependencytrack.url ? [] : ['sources.dependencytrack.url is required (or SYNC_DEPENDENCYTRACK_URL)']),
    ...(secrets.dependencyTrackApiKey ? [] : ['DEPENDENCY_TRACK_API_KEY is required (a Dependency-Track API key with VIEW_PORTFOLIO and VIEW_VULNERABILITY)']),
  ],
  run: ({ loaded, options, defectDojo, retry, progress }) =>
    syncDependencyTrack({
      dependencyTrack: new DependencyTrackClient({
        url: loaded.config.sources.dependencytrack.url!,
        apiKey: loaded.secrets.dependencyTrackApiKey!,
        timeoutMs: options.timeoutMs,
        uploadTimeoutMs: options.uploadTimeoutMs,
      }),
      defectDojo,
      excludeInactive: loaded.config.sources.dependencytrack.excludeInactive,
      concurrency: options.concurrency,
      retry,
      progress,
    }),
};
