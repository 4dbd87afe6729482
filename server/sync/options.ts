/** How every sync command and the service run their calls (the command line's options). */
export interface SyncOptions {
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
  readonly retries: number;
  /** `--all-issue-types`: sync-sonarqube imports bugs and code smells too (overrides the configuration). */
  readonly allIssueTypes?: boolean;
}

export const DEFAULT_OPTIONS: SyncOptions = { concurrency: 4, timeoutMs: 60_000, uploadTimeoutMs: 600_000, retries: 4 };
