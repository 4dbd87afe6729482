import type { DefectDojoClient } from '../defectdojo/client.js';
import { ENGAGEMENTS, SCAN_TYPES } from '../defectdojo/scan-types.js';
import { retrying, type RetryPolicy } from '../http/retry.js';
import { finishReport, message, notesOf, syncEach, type ItemResult, type Progress, type SourceReport } from '../report.js';
import type { SonarQubeClient, SonarQubeProject } from './client.js';
import { sonarReport } from './report.js';

export interface SonarQubeSyncDeps {
  readonly sonarQube: SonarQubeClient;
  readonly serverUrl: string;
  readonly defectDojo: DefectDojoClient;
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
}

const labelOf = (p: SonarQubeProject): string => (p.name === p.key ? p.key : `${p.name} (${p.key})`);

async function syncProject(project: SonarQubeProject, deps: SonarQubeSyncDeps): Promise<ItemResult> {
  const label = labelOf(project);
  const base = { label, product: project.name, engagement: ENGAGEMENTS.sonarqube, test: SCAN_TYPES.sonarQube, scan_type: SCAN_TYPES.sonarQube };
  const onRetry = (error: Error, retry: number, delayMs: number) => deps.progress.retry(label, error, retry, delayMs);
  let attempts = 0;
  const notes: string[] = [];
  try {
    const found = await deps.sonarQube.projectIssues(project, deps.retry, onRetry);
    // A project without issues gets no empty product; an existing one still gets the empty report, to close what was fixed.
    if (found.issues.length === 0 && !(await retrying(() => deps.defectDojo.productExists(project.name), deps.retry))) {
      return { ...base, status: 'skipped', reason: 'no open issues and no DefectDojo product yet', attempts: 0 };
    }
    const content = Buffer.from(JSON.stringify(sonarReport(deps.serverUrl, project, found)));
    const counts = await retrying(
      (n) => {
        attempts = n;
        return deps.defectDojo.reimport({
          scanType: SCAN_TYPES.sonarQube,
          productName: project.name,
          engagementName: ENGAGEMENTS.sonarqube,
          testTitle: base.test,
          filename: 'sonarqube-issues.json',
          content,
          note: (text) => notes.push(text),
        });
      },
      deps.retry,
      onRetry,
    );
    return { ...base, status: 'synced', findings: found.issues.length, ...(counts ? { counts } : {}), ...notesOf(notes), attempts };
  } catch (err) {
    return { ...base, status: 'failed', reason: message(err), attempts };
  }
}

/** `sync-sonarqube`: every SonarQube project's open issues into its own DefectDojo product. */
export async function syncSonarQube(deps: SonarQubeSyncDeps): Promise<SourceReport> {
  const startedAt = new Date();
  const head = { command: 'sync-sonarqube', source: 'sonarqube' as const, startedAt };
  let projects: SonarQubeProject[];
  try {
    projects = await deps.sonarQube.listProjects(deps.retry, (error, retry, delayMs) => deps.progress.retry('project list', error, retry, delayMs));
  } catch (err) {
    return finishReport({ ...head, error: `could not list projects: ${message(err)}` }, []);
  }
  const items = await syncEach(projects, deps.concurrency, deps.progress, (project) => syncProject(project, deps));
  return finishReport(head, items);
}
