import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSyncArgs, UsageError } from '../../server/sync/args.js';
import { loadSyncConfig, SyncConfigError } from '../../server/sync/config.js';
import type { RetryPolicy } from '../../server/http/retry.js';
import { summaryLines, type SourceReport } from '../../server/sync/report.js';
import { CONNECTORS, connectorForCommand } from '../../server/sync/connectors.js';
import { progressFor, runConnector, scrub, secretValues } from '../../server/sync/run.js';
import type { ActionsCore } from '../shared/core.js';
import { InputError, optionalInput, requiredInput } from '../shared/inputs.js';
import { appendSummary } from '../shared/summary.js';
import { inlineText } from '../../server/markdown.js';

export interface SyncActionDeps {
  readonly core: ActionsCore;
  readonly env: NodeJS.ProcessEnv;
  /** Tests shorten the back-off; the policy's shape is the real one. */
  readonly retry?: Partial<RetryPolicy>;
}

/**
 * Masks a secret input, and for the targets JSON every token inside it as well: the runner masks
 * a secret's whole value, not the token when it is printed on its own.
 */
function mask(core: ActionsCore, value: string | undefined): void {
  if (!value) return;
  core.setSecret(value);
  try {
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) (k === 'token' && typeof v === 'string' && v ? core.setSecret(v) : walk(v));
    };
    walk(JSON.parse(value));
  } catch {
    // not JSON: masked whole above
  }
}

function table(report: SourceReport): string {
  const head = `### Gatehouse ${report.command}: ${report.ok ? 'done' : 'failed'}\n\n`;
  const t = report.totals;
  const totals = `${t.synced} synced, ${t.failed} failed, ${t.skipped} skipped; ${t.findings} findings sent; DefectDojo created ${t.created}, closed ${t.closed}, reactivated ${t.reactivated}, untouched ${t.untouched}.\n\n`;
  const error = report.error ? `**${inlineText(report.error)}**\n\n` : '';
  const rows = report.items.map((i) =>
    [i.product, i.test, i.status, i.findings ?? '', i.counts?.created ?? '', i.counts?.closed ?? '', i.counts?.reactivated ?? '', i.counts?.untouched ?? '', i.reason ?? '']
      .map((v) => inlineText(String(v)))
      .join(' | '),
  );
  const body = rows.length
    ? `| Product | Test | Status | Findings | Created | Closed | Reactivated | Untouched | Note |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n${rows.map((r) => `| ${r} |`).join('\n')}\n`
    : '';
  return head + error + totals + body;
}

/** The `sync` action: one command, every secret input masked, a per-project table in the job summary. */
export async function runSyncAction({ core, env, retry }: SyncActionDeps): Promise<void> {
  const ddToken = optionalInput(core, 'defectdojo-token');
  const dtKey = optionalInput(core, 'dependency-track-api-key');
  const targets = optionalInput(core, 'github-targets');
  const sonarToken = optionalInput(core, 'sonarqube-token');
  for (const secret of [ddToken, dtKey, targets, sonarToken]) mask(core, secret);
  let secrets: string[] = [];
  try {
    const command = requiredInput(core, 'command');
    const connector = connectorForCommand(command);
    if (!connector) throw new InputError(`input "command" must be one of ${CONNECTORS.map((c) => c.command).join(', ')}`);
    requiredInput(core, 'defectdojo-token');
    const loaded = loadSyncConfig({
      ...(optionalInput(core, 'config') ? { file: optionalInput(core, 'config')! } : {}),
      env: {
        ...env,
        DEFECTDOJO_TOKEN: ddToken,
        DEPENDENCY_TRACK_API_KEY: dtKey ?? env.DEPENDENCY_TRACK_API_KEY,
        GITHUB_TARGETS: targets ?? env.GITHUB_TARGETS,
        SONARQUBE_TOKEN: sonarToken ?? env.SONARQUBE_TOKEN,
      },
    });
    secrets = secretValues(loaded);
    // The inputs as command-line options, so the action and the CLI share one parser, its limits and defaults.
    const flags = (['concurrency', 'retries'] as const).flatMap((input) => {
      const value = optionalInput(core, input);
      return value === undefined ? [] : [`--${input}`, value];
    });
    const args = parseSyncArgs([command, ...flags], {});
    if (args === 'version' || 'help' in args) throw new InputError('unexpected help or version request');
    const info = (line: string) => core.info(scrub(line, secrets));
    const report = await runConnector(connector, loaded, args.options, progressFor(connector, info), retry);
    summaryLines(report).forEach(info);
    const dir = join(env.RUNNER_TEMP || '.', 'gatehouse-sync');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${command}-report.json`);
    writeFileSync(file, scrub(JSON.stringify(report, null, 2), secrets));
    core.setOutput('synced-count', String(report.totals.synced));
    core.setOutput('failed-count', String(report.totals.failed));
    core.setOutput('skipped-count', String(report.totals.skipped));
    core.setOutput('report', file);
    await appendSummary(core, scrub(table(report), secrets));
    if (!report.ok) core.setFailed(scrub(report.error ?? `${report.totals.failed} of ${report.totals.items} failed; see the job summary`, secrets));
  } catch (err) {
    if (err instanceof InputError || err instanceof UsageError || err instanceof SyncConfigError) return core.setFailed(err.message);
    core.setFailed(scrub(err instanceof Error ? err.message : String(err), secrets));
  }
}
