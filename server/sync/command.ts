import { packageVersion } from '../version.js';
import { parseSyncArgs, SERVE, USAGE, UsageError, type ParsedArgs } from './args.js';
import { loadSyncConfig, SyncConfigError, type LoadedConfig } from './config.js';
import { summaryLines } from './report.js';
import { connectorForCommand } from './connectors.js';
import { progressFor, runConnector, scrub, secretValues } from './run.js';
import type { RetryPolicy } from '../http/retry.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

export interface SyncIo {
  /** The `--json` summary, or the closing lines. */
  readonly out: (line: string) => void;
  /** Progress and errors. */
  readonly err: (line: string) => void;
}

/** Runs `serve` (the long-lived service); passed in so the one-shot commands do not load it. */
export type Serve = (args: ParsedArgs, env: NodeJS.ProcessEnv, io: SyncIo) => Promise<number>;

/** `gatehouse-sync <command>`: parses, validates the configuration before any call, runs, reports. */
export async function syncCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: SyncIo,
  retryPolicy: Partial<RetryPolicy> = {},
  serve?: Serve,
): Promise<number> {
  let loaded: LoadedConfig | undefined;
  try {
    const args = parseSyncArgs(argv, env);
    if (args === 'version') {
      io.out(packageVersion());
      return EXIT_OK;
    }
    if ('help' in args) {
      io.out(args.help);
      return EXIT_OK;
    }
    if (args.command === SERVE) {
      if (!serve) throw new UsageError('serve is not available here');
      return await serve(args, env, io);
    }
    const connector = connectorForCommand(args.command)!;
    loaded = loadSyncConfig({ ...(args.configFile ? { file: args.configFile } : {}), env });
    const secrets = secretValues(loaded);
    const out = (line: string) => io.out(scrub(line, secrets));
    const err = (line: string) => io.err(scrub(line, secrets));
    const report = await runConnector(connector, loaded, args.options, progressFor(connector, err), retryPolicy);
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
