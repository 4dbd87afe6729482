import type { DefectDojoClient, KnownProduct } from '../defectdojo/client.js';
import { ImportedDigests, reportDigest } from '../defectdojo/digests.js';
import { productDirectory } from '../defectdojo/products.js';
import { ENGAGEMENTS, SCAN_TYPES } from '../defectdojo/scan-types.js';
import type { RetryPolicy } from '../../http/retry.js';
import { retryTransient } from '../../http/call-errors.js';
import { finishReport, notesOf, syncEachKind, type ItemResult, type Progress, type SourceReport } from '../report.js';
import { message } from '../../errors.js';
import type { ProjectIssues, SonarQubeClient, SonarQubeIssue, SonarQubeProject } from './client.js';
import { sonarReport } from './report.js';

export interface SonarQubeSyncDeps {
  readonly sonarQube: SonarQubeClient;
  readonly serverUrl: string;
  readonly defectDojo: DefectDojoClient;
  /** Bugs and code smells too; by default only vulnerabilities are imported. */
  readonly allIssueTypes: boolean;
  readonly concurrency: number;
  readonly retry: RetryPolicy;
  readonly progress: Progress;
}

type OnRetry = (error: Error, retry: number, delayMs: number) => void;

/**
 * What one project sends: its issues, and its security hotspots to review, each into a test of its
 * own. Both use one scan type, so each test is named (`test_title`) on every reimport: DefectDojo
 * would otherwise reimport into the newest test of that scan type in the engagement, and the two
 * would close each other's findings. The titles are fixed per project, so they never change.
 */
interface Kind {
  readonly kind: 'issues' | 'hotspots';
  readonly testTitle: (project: SonarQubeProject) => string;
  readonly filename: string;
  readonly read: (project: SonarQubeProject, deps: SonarQubeSyncDeps, onRetry: OnRetry) => Promise<ProjectIssues>;
}

/** The name and CWEs of each rule the findings use, looked up once per rule and run. */
async function withRules(issues: SonarQubeIssue[], names: Map<string, string>, deps: SonarQubeSyncDeps, onRetry: OnRetry): Promise<ProjectIssues> {
  const cwes = new Map<string, readonly string[]>();
  for (const rule of new Set(issues.map((i) => i.rule))) {
    const details = await deps.sonarQube.ruleDetails(rule, deps.retry, onRetry);
    cwes.set(rule, details.cwes);
    if (!names.has(rule) && details.name) names.set(rule, details.name);
  }
  return { issues, rules: names, cwes };
}

const SONARQUBE_KINDS: readonly Kind[] = [
  {
    kind: 'issues',
    testTitle: (project) => `${project.name} (SonarQube issues)`,
    filename: 'sonarqube-issues.json',
    read: async (project, deps, onRetry) => {
      const found = await deps.sonarQube.projectIssues(project, deps.retry, onRetry, { allTypes: deps.allIssueTypes });
      return withRules(found.issues, found.rules, deps, onRetry);
    },
  },
  {
    kind: 'hotspots',
    testTitle: (project) => `${project.name} (SonarQube hotspots)`,
    filename: 'sonarqube-hotspots.json',
    read: async (project, deps, onRetry) => withRules(await deps.sonarQube.projectHotspots(project, deps.retry, onRetry), new Map(), deps, onRetry),
  },
];

const labelOf = (p: SonarQubeProject): string => (p.name === p.key ? p.key : `${p.name} (${p.key})`);

async function syncKind(
  project: SonarQubeProject,
  kind: Kind,
  deps: SonarQubeSyncDeps,
  productExists: () => Promise<boolean>,
  products: ReadonlyMap<string, KnownProduct> | undefined,
  digests: ImportedDigests,
): Promise<ItemResult> {
  const label = `${labelOf(project)} ${kind.kind}`;
  const testTitle = kind.testTitle(project);
  const target = { scanType: SCAN_TYPES.sonarQube, productName: project.name, engagementName: ENGAGEMENTS.sonarqube, testTitle };
  const base = { label, product: project.name, engagement: ENGAGEMENTS.sonarqube, test: testTitle, scan_type: SCAN_TYPES.sonarQube };
  const onRetry = (error: Error, retry: number, delayMs: number) => deps.progress.retry(label, error, retry, delayMs);
  let attempts = 0;
  const notes: string[] = [];
  try {
    const found = await kind.read(project, deps, onRetry);
    // Nothing to send and no product yet: no empty product; an existing one still gets the empty report, to close what was fixed.
    if (found.issues.length === 0 && !(await productExists())) {
      return { ...base, status: 'skipped', reason: `no open ${kind.kind} and no DefectDojo product yet`, attempts: 0 };
    }
    const content = Buffer.from(JSON.stringify(sonarReport(deps.serverUrl, project, found)));
    // The digest leaves out the report's date (the day it was made): the same issues give the same digest.
    const digest = reportDigest(
      { ...target, doNotReactivate: deps.defectDojo.doNotReactivate },
      Buffer.from(JSON.stringify(sonarReport(deps.serverUrl, project, found, new Date(0)))),
    );
    if (await digests.unchanged(SCAN_TYPES.sonarQube, digest)) return { ...base, status: 'synced', unchanged: true, attempts: 0 };
    const counts = await retryTransient(
      (n) => {
        attempts = n;
        return deps.defectDojo.reimport({
          ...target,
          filename: kind.filename,
          content,
          note: (text) => notes.push(text),
          digest,
          // Not in the directory: created by this run's issues (under the configured type) or new.
          ...(products ? { product: products.get(project.name) ?? null } : {}),
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

/**
 * `sync-sonarqube`: every SonarQube project's open vulnerabilities (every open issue with
 * `allIssueTypes`) and its hotspots to review into its own DefectDojo product. A project's two
 * reimports go one after the other, so they never both create its product.
 */
export async function syncSonarQube(deps: SonarQubeSyncDeps): Promise<SourceReport> {
  const startedAt = new Date();
  const head = { command: 'sync-sonarqube', source: 'sonarqube' as const, startedAt };
  let projects: SonarQubeProject[];
  // DefectDojo's products are listed while SonarQube lists its projects.
  const pendingProducts = productDirectory(deps.defectDojo, deps.retry, deps.progress);
  try {
    projects = await deps.sonarQube.listProjects(deps.retry, (error, retry, delayMs) => deps.progress.retry('project list', error, retry, delayMs));
  } catch (err) {
    await pendingProducts;
    return finishReport({ ...head, error: `could not list projects: ${message(err)}` }, []);
  }
  const products = await pendingProducts;
  const digests = new ImportedDigests(deps.defectDojo, deps.progress);
  const items = await syncEachKind(projects, SONARQUBE_KINDS, deps.concurrency, deps.progress, (project) => {
    let exists: Promise<boolean> | undefined;
    // The directory's answer, else asked once, and only when a kind has nothing to send; a reimport before it made the product.
    let made = false;
    const productExists = async () =>
      made || (products ? products.has(project.name) : await (exists ??= retryTransient(() => deps.defectDojo.productExists(project.name), deps.retry)));
    return async (kind) => {
      const result = await syncKind(project, kind, deps, productExists, products, digests);
      if (result.status === 'synced') made = true;
      return result;
    };
  });
  return finishReport(head, items);
}
