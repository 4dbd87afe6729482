import type { SyncOptions } from './options.js';
import type { LoadedConfig, SourceName } from './config.js';
import type { DefectDojoClient } from './defectdojo/client.js';
import type { ConditionalAnswers } from '../github/conditional.js';
import type { RetryPolicy } from '../http/retry.js';
import type { Progress, SourceReport } from './report.js';

/** What every connector gets for one run. */
export interface ConnectorContext {
  readonly loaded: LoadedConfig;
  readonly options: SyncOptions;
  readonly defectDojo: DefectDojoClient;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
  /** GitHub answers kept for conditional requests, shared by every run of the process (the service); absent: none kept. */
  readonly conditional?: ConditionalAnswers;
  /** Only these items (`Connector.scope`): Dependency-Track project UUIDs, GitHub `owner/name`; absent: every item. */
  readonly scope?: readonly string[];
}

/**
 * One source of findings. A new source is a new module exporting one of these, listed in
 * `connectors.ts`; nothing else changes.
 */
export interface Connector {
  readonly source: SourceName;
  /** The CLI command that runs it once. */
  readonly command: string;
  /** What one reimport of this source is called in progress lines. */
  readonly noun: string;
  /** The command's line in the usage text. */
  readonly description: string;
  /**
   * The query parameter that narrows a run to one item (`POST /sync/{source}?<name>=…`), with the
   * item's form; absent when the source runs only whole.
   */
  readonly scope?: { readonly parameter: string; readonly accepts: (value: string) => boolean; readonly form: string };
  /** What the configuration lacks for this source, each naming its key or setting; empty when it can run. */
  missing(loaded: LoadedConfig): string[];
  /**
   * One cheap authenticated call that proves the source's own credential is accepted, made before
   * anything is exported; throws (a `CredentialRefused` for a refusal) when it is not.
   */
  check?(context: ConnectorContext): Promise<void>;
  run(context: ConnectorContext): Promise<SourceReport>;
}
