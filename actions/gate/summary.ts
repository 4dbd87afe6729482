import { cell, inert } from '../shared/summary.js';
import type { CiOutcome } from './ci.js';
import { messagesOf } from './classify.js';
import { SEVERITIES } from './severity.js';

/** A `blob/<head>/<path>#L<line>` link, so the finding opens at the commit the gate judged. */
function link(env: NodeJS.ProcessEnv, head: string | undefined, path: string, line: number | undefined): string {
  const label = `${path}:${line ?? 1}`;
  if (!env.GITHUB_SERVER_URL || !env.GITHUB_REPOSITORY || !head) return `\`${cell(label)}\``;
  const url = `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/blob/${head}/${path.split('/').map(encodeURIComponent).join('/')}#L${line ?? 1}`;
  return `[${cell(label)}](${url})`;
}

/** The job summary and the pull-request comment: findings by severity, skipped linters, counts. */
export function gateReport(outcome: CiOutcome, env: NodeJS.ProcessEnv, maxRows = 100): string {
  const c = outcome.counts;
  const status = outcome.exitCode === 0 ? '✅ passed' : outcome.exitCode === 1 ? '❌ blocked' : '⚠️ no answer';
  const out = [`### Gatehouse gate: ${status}`, '', cell(outcome.message), ''];
  const findings = [...(outcome.classification?.netNew ?? [])].sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  if (findings.length > 0) {
    out.push('| Severity | Blocking | Location | Tool | Rule | Message |', '| --- | --- | --- | --- | --- | --- |');
    const shown = findings.slice(0, maxRows);
    const messages = outcome.report ? messagesOf(outcome.report, shown) : [];
    for (const [i, f] of shown.entries()) {
      const message = (messages[i] ?? '').slice(0, 200);
      out.push(`| ${f.severity} | ${f.blocking ? 'yes' : 'no'} | ${link(env, outcome.diff?.head, f.path, f.startLine)} | ${cell(inert(f.tool))} | ${cell(inert(f.ruleId ?? ''))} | ${cell(inert(message))} |`);
    }
    if (findings.length > maxRows) out.push('', `… and ${findings.length - maxRows} more (see the filtered SARIF).`);
    out.push('');
  }
  if (c.linters_skipped.length > 0) {
    out.push('**Linters skipped** (no SARIF output, so no findings):', '');
    for (const s of c.linters_skipped) out.push(`- \`${s.linter}\`: ${cell(inert(s.reason))}`);
    out.push('');
  }
  if (c.unattributed_count > 0) {
    const n = c.unattributed_count;
    out.push(`${n} finding${n === 1 ? '' : 's'} without a line in a changed file name${n === 1 ? 's' : ''} no package: net-new unless \`unattributed-dependency\` is \`pre-existing\`.`, '');
  }
  if (c.moved_count > 0) out.push(`${c.moved_count} finding${c.moved_count === 1 ? ' is' : 's are'} on lines that only moved (or changed indentation or line endings): pre-existing.`, '');
  out.push(
    '| Net-new | Blocking | Pre-existing | Suppressed | SOPS-encrypted | Without location | Total | Fail on |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${c.net_new_count} | ${c.blocking_count} | ${c.pre_existing_count} | ${c.suppressed_count} | ${c.sops_ignored_count} | ${c.no_location_count} | ${c.total_count} | ${c.fail_on} |`,
    '',
  );
  return out.join('\n');
}
