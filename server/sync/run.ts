import type { SyncOptions } from './options.js';
import { missingDefectDojo, SyncConfigError, type LoadedConfig } from './config.js';
import type { Connector } from './connector.js';
import { DefectDojoClient } from './defectdojo/client.js';
import { refusedAs } from './credentials.js';
import type { ConditionalAnswers } from '../github/conditional.js';
import { SYNC_RETRY, type RetryPolicy } from '../http/retry.js';
import { retryTransient } from '../http/call-errors.js';
import { finishReport, humanProgress, type Progress, type SourceReport } from './report.js';
import { message } from '../errors.js';

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

/** Progress lines of a connector: its source, and what one item of it is called. */
export function progressFor(connector: Connector, write: (line: string) => void): Progress {
  return humanProgress(connector.source, connector.noun, write);
}

/** What a run of this connector needs beyond a valid configuration; throws naming every missing piece. */
function requireFor(connector: Connector, loaded: LoadedConfig): void {
  const problems = [...missingDefectDojo(loaded), ...connector.missing(loaded)];
  if (problems.length > 0) throw new SyncConfigError(problems);
}

/** The DefectDojo client of a configuration (its address and token checked present by the caller). */
export function defectDojoClientFor({ config, secrets }: LoadedConfig, options: Pick<SyncOptions, 'timeoutMs' | 'uploadTimeoutMs'>): DefectDojoClient {
  return new DefectDojoClient({
    url: config.defectdojo.url!,
    token: secrets.defectDojoToken!,
    productType: config.defectdojo.productType,
    maxUploadBytes: config.defectdojo.maxUploadMb * 1048576,
    doNotReactivate: config.defectdojo.doNotReactivate,
    timeoutMs: options.timeoutMs,
    uploadTimeoutMs: options.uploadTimeoutMs,
  });
}

/** Runs one connector against the services its configuration names. Checks what it needs before calling anything. */
export async function runConnector(
  connector: Connector,
  loaded: LoadedConfig,
  options: SyncOptions,
  progress: Progress,
  retryPolicy: Partial<RetryPolicy> = {},
  service: { readonly conditional?: ConditionalAnswers; readonly scope?: readonly string[] } = {},
): Promise<SourceReport> {
  requireFor(connector, loaded);
  const { config } = loaded;
  const retry: RetryPolicy = { ...SYNC_RETRY, ...retryPolicy, retries: options.retries };
  const defectDojo = defectDojoClientFor(loaded, options);
  const context = { loaded, options, defectDojo, retry, progress, ...(service.conditional ? { conditional: service.conditional } : {}), ...(service.scope ? { scope: service.scope } : {}) };
  // Every credential is tried before anything is exported: a refused DefectDojo token would
  // otherwise let each project export in full and then fail its upload.
  const startedAt = new Date();
  try {
    // Both checks at once; DefectDojo's refusal is named first when both fail.
    const checks = await Promise.allSettled([
      retryTransient(() => defectDojo.checkToken(), retry, (error, n, delayMs) => progress.retry('DefectDojo token check', error, n, delayMs)).catch((err: unknown) => {
        throw refusedAs(err, 'DEFECTDOJO_TOKEN', 'DefectDojo', config.defectdojo.url!);
      }),
      connector.check?.(context),
    ]);
    for (const check of checks) if (check.status === 'rejected') throw check.reason;
  } catch (err) {
    return finishReport({ command: connector.command, source: connector.source, startedAt, error: `nothing was exported: ${message(err)}` }, []);
  }
  return connector.run(context);
}
