import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CiOptions } from './ci.js';
import { GateError, GateUsageError, optionName, type OptionNaming } from './errors.js';
import { FAIL_ON, type FailOn } from './rules/severity.js';
import { UNATTRIBUTED, type Unattributed } from './rules/classify.js';
import { normalisePrefixes } from './reports/locations.js';
import { NO_EVENT, type EventContext } from '../shared/event.js';

const DEFAULT_SARIF = 'megalinter-reports/megalinter-report.sarif';

/** `gate --help`: the commands; each command's options are in its own `--help`. */
const USAGE = `Usage: gate <command> [options]

Commands:
  ci                      classify a SARIF report's findings as net-new or pre-existing
                          and fail only on net-new ones (gate ci --help lists its options)

Options:
  --version               print the version
  --help                  this text`;

/** `gate ci --help`: the options of ci only. */
const CI_USAGE = `Usage: gate ci [options]

Classifies SARIF findings as net-new (introduced by the pull request, since the merge-base of
base and head) or pre-existing, and fails only on net-new ones.

Options:
  --sarif <path>          SARIF report (default ${DEFAULT_SARIF})
  --base <sha|ref>        base of the pull request (default: the pull-request event's base sha)
  --head <sha|ref>        head of the pull request (default HEAD)
  --repo <path>           repository working tree (default: the current directory)
  --fail-on <severity>    critical | high | medium | low | any | none (default high)
  --strict                skipped or missing linters, failed tool runs, a stale report and
                          unknown enabled linters are errors (exit 2)
  --filtered-out <path>   write the net-new-only SARIF here
  --counts-json <path>    write the counts document here
  --linters <keys>        enabled MegaLinter linter keys, comma-separated
                          (default: ENABLE_LINTERS, else MegaLinter's configuration file:
                          MEGALINTER_CONFIG, .mega-linter.yml and the like, .github/ too)
  --unattributed-dependency <net-new|pre-existing>
                          a finding without a line in a changed file that names no
                          package (default net-new)
  --baseline-sarif <path> the report of the base commit (for example the last run on the
                          default branch): a finding it also holds is pre-existing
  --strip-prefix <prefix> remove this leading prefix from the report's paths before they
                          are mapped to the checkout (repeatable; for example ../../ or /src/)
  --help                  this text
  --version               print the version

Exit codes: 0 no blocking net-new findings; 1 blocked; 2 no answer (setup or tool error,
for example a shallow clone: check out with fetch-depth: 0).`;


export type Command =
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'ci'; readonly options: CiOptions };

/** The pull-request event's base commit, when the workflow runs on one. */
function eventBase(event: EventContext): string | undefined {
  const sha = (event.payload.pull_request as { base?: { sha?: unknown } } | undefined)?.base?.sha;
  return typeof sha === 'string' && sha ? sha : undefined;
}

/** Parses `gate <command> [options]`; a usage problem is a `GateError` (exit 2). */
export function parseCommand(argv: readonly string[], cwd: string, naming: OptionNaming = 'flag', event: EventContext = NO_EVENT): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        sarif: { type: 'string' },
        base: { type: 'string' },
        head: { type: 'string' },
        repo: { type: 'string' },
        'fail-on': { type: 'string' },
        strict: { type: 'boolean' },
        'filtered-out': { type: 'string' },
        'counts-json': { type: 'string' },
        linters: { type: 'string' },
        'unattributed-dependency': { type: 'string' },
        'baseline-sarif': { type: 'string' },
        'strip-prefix': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new GateUsageError((err as Error).message, argv[0] === 'ci' ? CI_USAGE : USAGE);
  }
  const { values, positionals } = parsed;
  if (values.version) return { kind: 'version' };
  const isCi = positionals[0] === 'ci' && positionals.length === 1;
  if (values.help || positionals.length === 0) return { kind: 'help', text: isCi ? CI_USAGE : USAGE };
  if (!isCi) throw new GateUsageError(`unknown command "${positionals.join(' ')}"`, USAGE);

  const failOn = (values['fail-on'] ?? 'high').toLowerCase();
  if (!FAIL_ON.includes(failOn as FailOn)) throw new GateError(`${optionName('fail-on', naming)} must be one of ${FAIL_ON.join(', ')}`);
  // Left out when not given: classify holds the default.
  const unattributed = values['unattributed-dependency']?.toLowerCase();
  if (unattributed !== undefined && !UNATTRIBUTED.includes(unattributed as Unattributed)) {
    throw new GateError(`${optionName('unattributed-dependency', naming)} must be one of ${UNATTRIBUTED.join(', ')}`);
  }
  const base = values.base ?? eventBase(event);
  if (!base) throw new GateError(`no ${naming === 'input' ? 'base input' : '--base'} given and no pull-request event to read it from`);
  const stripPrefixes = normalisePrefixes(values['strip-prefix'] ?? []);
  return {
    kind: 'ci',
    options: {
      sarif: resolve(cwd, values.sarif ?? DEFAULT_SARIF),
      base,
      head: values.head ?? 'HEAD',
      repo: resolve(cwd, values.repo ?? '.'),
      failOn: failOn as FailOn,
      strict: values.strict ?? false,
      ...(values['filtered-out'] ? { filteredOut: resolve(cwd, values['filtered-out']) } : {}),
      ...(values['counts-json'] ? { countsJson: resolve(cwd, values['counts-json']) } : {}),
      ...(values.linters !== undefined ? { linters: values.linters } : {}),
      ...(unattributed !== undefined ? { unattributed: unattributed as Unattributed } : {}),
      ...(values['baseline-sarif'] ? { baselineSarif: resolve(cwd, values['baseline-sarif']) } : {}),
      ...(stripPrefixes.length > 0 ? { stripPrefixes } : {}),
      naming,
    },
  };
}
