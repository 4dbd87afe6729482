import { codeSpan, plainText } from '../markdown.js';
import type { OpenFinding } from './finding.js';

/** The label every pushed issue carries; issue push lists a repository's issues by it. */
export const ISSUE_LABEL = 'gatehouse';
const TITLE_MAX = 256;
const QUOTE_MAX = 3000;

export interface IssueText {
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

function identifierLink(id: string): string {
  if (/^CVE-\d{4}-\d+$/i.test(id)) return `[${id}](https://nvd.nist.gov/vuln/detail/${id.toUpperCase()})`;
  if (/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/i.test(id)) return `[${id}](https://github.com/advisories/${id})`;
  return codeSpan(id);
}

/**
 * Scanner text goes into a fenced block: no @mention notifies anyone, no #123 links an unrelated
 * issue and no markup breaks the body. The fence is longer than any backtick run inside.
 */
function quoted(text: string): string {
  const cut = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}\n… (cut; the whole text is in DefectDojo)` : text;
  const longest = Math.max(2, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${cut}\n${fence}`;
}

/** The id a reader searches by: a CVE, else a GitHub advisory, else the first one. */
function primaryId(ids: readonly string[]): string | undefined {
  return ids.find((id) => /^CVE-/i.test(id)) ?? ids.find((id) => /^GHSA-/i.test(id)) ?? ids[0];
}

/** The secret type GitHub named, as DefectDojo's secret-scanning parser writes it into the description. */
const SECRET_TYPE = /^\*\*Secret Type\*\*: (.+)$/m;

/**
 * What the issue is about, from the fields DefectDojo keeps as the source gave them, never its
 * title, which DefectDojo title-cases on save (`(Py/Path-Injection #34)`):
 * - a package finding (Dependency-Track, Dependabot): `<CVE or advisory> in <package> <version>`;
 * - a code finding (code scanning, secret scanning, SonarQube): `<rule id, secret type or message> in <file>:<line>`;
 * - otherwise its vulnerability id, or its DefectDojo id.
 */
function subjectOf(finding: OpenFinding): string {
  const id = primaryId(finding.vulnerabilityIds);
  if (finding.componentName) return `${id ?? finding.vulnIdFromTool ?? `finding ${finding.id}`} in ${[finding.componentName, finding.componentVersion].filter(Boolean).join(' ')}`;
  if (finding.filePath) {
    const secret = SECRET_TYPE.exec(finding.description ?? '')?.[1]?.trim();
    const message = finding.description?.split('\n')[0]?.trim();
    const what = secret ? `Secret: ${secret}` : (finding.vulnIdFromTool ?? id ?? (message ? message.slice(0, 120) : undefined) ?? (finding.cwe ? `CWE-${finding.cwe}` : `finding ${finding.id}`));
    return `${what} in ${finding.filePath}${finding.line ? `:${finding.line}` : ''}`;
  }
  return id ?? finding.vulnIdFromTool ?? `DefectDojo finding ${finding.id}`;
}

/** Title, body and labels of the issue of one finding; the body ends with the finding's hash. */
export function issueText(finding: OpenFinding, hash: string, findingUrl: string): IssueText {
  const component = [finding.componentName, finding.componentVersion].filter(Boolean).join(' ');
  const location = finding.filePath ? `${codeSpan(finding.filePath)}${finding.line ? ` line ${finding.line}` : ''}` : undefined;
  const identifiers = [...finding.vulnerabilityIds.map(identifierLink), ...(finding.cwe ? [`[CWE-${finding.cwe}](https://cwe.mitre.org/data/definitions/${finding.cwe}.html)`] : [])];
  const facts = [
    `**Severity:** ${finding.severity}`,
    ...(component ? [`**Component:** ${codeSpan(component)}`] : []),
    ...(location ? [`**Location:** ${location}`] : []),
    ...(identifiers.length ? [`**Identifiers:** ${identifiers.join(', ')}`] : []),
    `**DefectDojo:** [finding ${finding.id}](${findingUrl}) in product ${codeSpan(finding.product)}`,
  ];
  const sections = [
    facts.join('  \n'),
    ...(finding.description ? [`<details><summary>Description</summary>\n\n${quoted(finding.description)}\n\n</details>`] : []),
    ...(finding.mitigation ? [`<details><summary>Mitigation</summary>\n\n${quoted(finding.mitigation)}\n\n</details>`] : []),
    `---\n<sub>Opened by Gatehouse issue push for an active ${finding.severity} finding. Fix it and the next sync closes the finding in DefectDojo. Gatehouse finding: ${codeSpan(hash)}</sub>`,
  ];
  // GitHub links `#34` and `@scope` in a title as it does in a body: the scanner's text is made inert.
  const title = plainText(`${finding.severity}: ${subjectOf(finding)}`).replace(/\s+/g, ' ').trim();
  return {
    title: title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title,
    body: sections.join('\n\n'),
    labels: ['security', ISSUE_LABEL, `severity:${finding.severity.toLowerCase()}`],
  };
}

/** Whether an issue body carries this finding hash. */
export function bodyHasHash(body: unknown, hash: string): boolean {
  return typeof body === 'string' && body.includes(`Gatehouse finding: \`${hash}\``);
}
