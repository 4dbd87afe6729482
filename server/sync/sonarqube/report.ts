import type { ProjectIssues, SonarQubeIssue, SonarQubeProject } from './client.js';

/** Impact severities (10.2 on) in the older severity scale, for issues that carry no `severity`. */
const FROM_IMPACT: Record<string, string> = { BLOCKER: 'BLOCKER', HIGH: 'CRITICAL', MEDIUM: 'MAJOR', LOW: 'MINOR', INFO: 'INFO' };
const ORDER = ['BLOCKER', 'CRITICAL', 'MAJOR', 'MINOR', 'INFO'];

function severityOf(issue: SonarQubeIssue): string {
  if (issue.severity) return issue.severity;
  const mapped = (issue.impacts ?? []).map((i) => FROM_IMPACT[i.severity ?? ''] ?? 'INFO').sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  return mapped[0] ?? 'INFO';
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The report in the JSON shape of the sonar-report tool, which DefectDojo reads as "SonarQube Scan
 * detailed": one finding per issue, deduplicated on the issue key, so two issues of one rule in
 * one file stay two findings across reimports. DefectDojo recognises the shape by a non-empty
 * `hotspotKeys`; it holds the issue keys, so an empty project sends an empty list and its old
 * findings are closed. Each rule's CWEs (SonarQube's security standards) are links in its
 * `htmlDesc`, where DefectDojo's parser reads a finding's CWE. Hotspots use the same shape, in a
 * test of their own.
 */
export function sonarReport(serverUrl: string, project: SonarQubeProject, found: ProjectIssues, now = new Date()): unknown {
  const prefix = `${project.key}:`;
  const rules: Record<string, { name: string; htmlDesc: string }> = {};
  for (const issue of found.issues) {
    if (rules[issue.rule]) continue;
    const name = found.rules.get(issue.rule) ?? issue.rule;
    const link = `${serverUrl}/coding_rules?open=${encodeURIComponent(issue.rule)}&rule_key=${encodeURIComponent(issue.rule)}`;
    // DefectDojo takes a finding's CWE from the first "CWE-<n>" among the texts of the rule's links.
    const cwes = (found.cwes?.get(issue.rule) ?? []).map((cwe) => `<p><a href="https://cwe.mitre.org/data/definitions/${cwe}.html">CWE-${cwe}</a></p>`);
    rules[issue.rule] = { name, htmlDesc: `<p>${escapeHtml(name)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(issue.rule)}</a></p>${cwes.join('')}` };
  }
  return {
    date: now.toISOString().slice(0, 10),
    projectName: project.name,
    sonarBaseURL: serverUrl,
    sonarComponent: project.key,
    rules,
    issues: found.issues.map((issue) => ({
      key: issue.key,
      rule: issue.rule,
      severity: severityOf(issue),
      component: issue.component.startsWith(prefix) ? issue.component.slice(prefix.length) : issue.component,
      // File-level issues have no line; the parser needs a number.
      line: issue.line ?? 0,
      description: found.rules.get(issue.rule) ?? issue.rule,
      message: issue.message || (found.rules.get(issue.rule) ?? issue.rule),
      ...(issue.type ? { type: issue.type } : {}),
    })),
    hotspotKeys: found.issues.map((i) => i.key),
  };
}
