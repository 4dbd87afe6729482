import { parseSyncArgs, USAGE, UsageError } from './args.js';
import { loadSyncConfig, SyncConfigError, type LoadedConfig } from './config.js';
import { summaryLines } from './report.js';
import { progressFor, runSyncCommand, scrub, secretValues } from './run.js';
import type { RetryPolicy } from './http/retry.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface SyncIo {
  /** The `--json` summary, or the closing lines. */
  readonly out: (line: string) => void;
  /** Progress and errors. */
  readonly err: (line: string) => void;
}

/** `gatehouse-sync <command>`: parses, validates the configuration before any call, runs, reports. */
export async function syncCommand(argv: readonly string[], env: NodeJS.ProcessEnv, io: SyncIo, retryPolicy: Partial<RetryPolicy> = {}): Promise<number> {
  let loaded: LoadedConfig | undefined;
  try {
    const args = parseSyncArgs(argv, env);
    if (args === 'help') {
      io.out(USAGE);
      return EXIT_OK;
    }
    loaded = loadSyncConfig({ ...(args.configFile ? { file: args.configFile } : {}), env });
    const secrets = secretValues(loaded);
    const out = (line: string) => io.out(scrub(line, secrets));
    const err = (line: string) => io.err(scrub(line, secrets));
    const report = await runSyncCommand(args.command, loaded, args.options, progressFor(args.command, err), retryPolicy);
    if (args.json) out(JSON.stringify(report));
    else for (const line of summaryLines(report)) out(line);
    return report.ok ? EXIT_OK : EXIT_FAILED;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`gatehouse-sync: ${error.message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    if (error instanceof SyncConfigError) {
      io.err(`gatehouse-sync: ${error.message}`);
      return EXIT_USAGE;
    }
    // Unexpected: still never print a secret.
    io.err(`gatehouse-sync: ${scrub(error instanceof Error ? error.message : String(error), loaded ? secretValues(loaded) : [])}`);
    return EXIT_FAILED;
  }
}
