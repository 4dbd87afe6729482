import { parseArgs } from 'node:util';
import { CONNECTORS } from './connectors.js';
import { DEFAULT_OPTIONS, type SyncOptions } from './options.js';

/** `serve` runs the long-lived service; every other command runs one connector once. */
export const SERVE = 'serve';
export const COMMANDS: readonly string[] = [...CONNECTORS.map((c) => c.command), SERVE];

export interface ParsedArgs {
  readonly command: string;
  readonly configFile?: string;
  readonly json: boolean;
  readonly options: SyncOptions;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const indent = (text: string) => text.split('\n').join(`\n${' '.repeat(24)}`);

const SONARQUBE = 'sync-sonarqube';

/** Each option's help lines, and the commands it applies to (every command when absent). */
const OPTION_HELP: readonly { readonly text: string; readonly only?: readonly string[] }[] = [
  { text: `  --config <file>       YAML configuration (default: $SYNC_CONFIG; without either, settings come
                        from the environment alone). Secrets always come from the environment.` },
  { text: '  --json                print one JSON summary on stdout; progress stays on stderr', only: CONNECTORS.map((c) => c.command) },
  { text: '  --concurrency <n>     projects or repositories in flight, 1-32 (default 4)' },
  { text: '  --timeout <s>         limit of one API call, in seconds (default 60)' },
  { text: '  --upload-timeout <s>  limit of one export or reimport, in seconds (default 600)' },
  { text: '  --retries <n>         retries of a failure that may pass (network, 5xx, 429), 0-10 (default 4)' },
  { text: `  --all-issue-types     sync-sonarqube: bugs and code smells too, not only vulnerabilities
                        (sources.sonarqube.allIssueTypes)`, only: [SONARQUBE, SERVE] },
  { text: '  -h, --help            this text' },
];

const SERVE_DESCRIPTION = `the long-lived service: in mode deployment, every enabled source on
its schedule, with /healthz, /readyz, /metrics and POST /sync/{source}
on PORT (default 8080); in mode cronjob, every enabled source once`;

const EXIT_CODES = `Exit codes: 0 every project or repository synced (or skipped for a stated reason);
1 at least one failed (each is listed); 2 invalid configuration or usage, nothing called.`;

/** `gatehouse-sync --help`: the commands; each one's options are in its own `--help`. */
export const USAGE = `Usage: gatehouse-sync <command> [options]

Commands:
${CONNECTORS.map((c) => `  ${c.command.padEnd(22)}${indent(c.description)}`).join('\n')}
  ${SERVE.padEnd(22)}${indent(SERVE_DESCRIPTION)}

Options:
  --version             print the version
  -h, --help            this text; gatehouse-sync <command> --help lists a command's options

${EXIT_CODES}
For serve in mode cronjob: 0 every enabled source synced, 1 one failed, 2 as above.
`;

/** `gatehouse-sync <command> --help`: what the command does and the options it takes, only those. */
function usageFor(command: string): string {
  const connector = CONNECTORS.find((c) => c.command === command);
  if (!connector && command !== SERVE) return USAGE;
  const options = OPTION_HELP.filter((o) => !o.only || o.only.includes(command)).map((o) => o.text);
  const exits = command === SERVE ? 'Exit codes (mode cronjob): 0 every enabled source synced, 1 one failed, 2 invalid configuration or usage.' : EXIT_CODES;
  return `Usage: gatehouse-sync ${command} [options]

${connector ? connector.description : SERVE_DESCRIPTION}

Options:
${options.join('\n')}

${exits}
`;
}

/** What the command line asks for besides a run: a usage text (of `command`, when one is named) or the version. */
export type SyncInfoRequest = { readonly help: string } | 'version';

function whole(name: string, raw: string | undefined, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return Number(raw);
}

/** The command line, or a request for help or the version; a `UsageError` names what is wrong. */
export function parseSyncArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedArgs | SyncInfoRequest {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string' },
        json: { type: 'boolean' },
        concurrency: { type: 'string' },
        timeout: { type: 'string' },
        'upload-timeout': { type: 'string' },
        retries: { type: 'string' },
        'all-issue-types': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version) return 'version';
  if (values.help) return { help: command === undefined ? USAGE : usageFor(command) };
  if (command === undefined) throw new UsageError(`a command is required: ${COMMANDS.join(', ')}`);
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command "${command}": use ${COMMANDS.join(', ')}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  const configFile = values.config ?? (env.SYNC_CONFIG?.trim() || undefined);
  return {
    command,
    ...(configFile ? { configFile } : {}),
    json: values.json ?? false,
    options: {
      concurrency: whole('concurrency', values.concurrency, 1, 32, DEFAULT_OPTIONS.concurrency),
      timeoutMs: whole('timeout', values.timeout, 1, 3600, DEFAULT_OPTIONS.timeoutMs / 1000) * 1000,
      uploadTimeoutMs: whole('upload-timeout', values['upload-timeout'], 1, 86_400, DEFAULT_OPTIONS.uploadTimeoutMs / 1000) * 1000,
      retries: whole('retries', values.retries, 0, 10, DEFAULT_OPTIONS.retries),
      ...(values['all-issue-types'] ? { allIssueTypes: true } : {}),
    },
  };
}
