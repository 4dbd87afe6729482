import type { SyncCommandName, SyncOptions } from './args.js';
import { requireFor, type LoadedConfig } from './config.js';
import { DefectDojoClient } from './defectdojo/client.js';
import { DependencyTrackClient } from './dependency-track/client.js';
import { syncDependencyTrack } from './dependency-track/sync.js';
import { githubClient } from './github/client.js';
import { syncGithub } from './github/sync.js';
import { DEFAULT_RETRY, type RetryPolicy } from './http/retry.js';
import { humanProgress, type Progress, type SourceReport } from './report.js';

/** Every secret value of a configuration, for scrubbing text that leaves the process. */
export function secretValues({ secrets }: LoadedConfig): string[] {
  return [secrets.dependencyTrackApiKey, secrets.defectDojoToken, secrets.sonarQubeToken, ...(secrets.githubTargets ?? []).map((t) => t.token)].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
}

/** Replaces every secret value in `text`: the second line of defence behind messages that never include them. */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** Progress lines of a command: its source, and what one item of it is called. */
export function progressFor(command: SyncCommandName, write: (line: string) => void): Progress {
  return command === 'sync' ? humanProgress('dependencytrack', 'project', write) : humanProgress('github', 'alert list', write);
}

/** Runs one command against the services its configuration names. Checks what the command needs before calling anything. */
export async function runSyncCommand(
  command: SyncCommandName,
  loaded: LoadedConfig,
  options: SyncOptions,
  progress: Progress,
  retryPolicy: Partial<RetryPolicy> = {},
): Promise<SourceReport> {
  requireFor(command, loaded);
  const { config, secrets } = loaded;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...retryPolicy, retries: options.retries };
  const defectDojo = new DefectDojoClient({
    url: config.defectdojo.url!,
    token: secrets.defectDojoToken!,
    productType: config.defectdojo.productType,
    timeoutMs: options.timeoutMs,
    uploadTimeoutMs: options.uploadTimeoutMs,
  });
  if (command === 'sync') {
    const dependencyTrack = new DependencyTrackClient({
      url: config.sources.dependencytrack.url!,
      apiKey: secrets.dependencyTrackApiKey!,
      timeoutMs: options.timeoutMs,
      uploadTimeoutMs: options.uploadTimeoutMs,
    });
    return syncDependencyTrack({ dependencyTrack, defectDojo, excludeInactive: config.sources.dependencytrack.excludeInactive, concurrency: options.concurrency, retry, progress });
  }
  return syncGithub({
    targets: secrets.githubTargets!,
    clientFor: (target) =>
      githubClient(target, {
        timeoutMs: options.timeoutMs,
        retry,
        onRetry: (operation, error, n, delayMs) => progress.retry(`${target.server} ${operation}`, error, n, delayMs),
      }),
    defectDojo,
    concurrency: options.concurrency,
    retry,
    progress,
  });
}
