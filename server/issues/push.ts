import { randomUUID } from 'node:crypto';
import type { GitHubClient } from '../github/client.js';
import type { GithubTarget } from '../github/targets.js';
import { retryTransient } from '../http/call-errors.js';
import { message } from '../errors.js';
import { findingHash, hasIssueTag, issueTag, readFinding, severitiesFrom, severityRank, type OpenFinding } from './finding.js';
import { createIssue, resolveRepository, writeOnce, type IssueRepository } from './github-issues.js';
import { IssueIndex } from './issue-index.js';
import { perProduct } from './per-product.js';
import { issueText } from './issue-text.js';
import { followIssues, type LifecycleReport } from './lifecycle.js';
import { holdKeys, productKey, PushLockTimeout, repositoryKey } from './push-locks.js';
import type { IssuePushDeps } from './deps.js';

export interface IssuePushReport {
  /** Issues created in this run. */
  readonly opened: number;
  /** Findings tagged with an issue that already existed (found by its hash). */
  readonly relinked: number;
  /** Findings that could not be handled (listed in the log); retried by the next run. */
  readonly failed: number;
  /** Findings left for a later run: the per-run cap or the hourly budget was reached. */
  readonly deferred: number;
  /** Findings whose product names no repository of the configured targets. */
  readonly unresolved: number;
  /** Issues closed because their finding is no longer active (see `lifecycle.ts`). */
  readonly closed: number;
  /** Issues reopened because their finding became active again after the issue was closed. */
  readonly reopened: number;
  /** Closed issues of active findings left closed: closed by hand after the finding's last status change. */
  readonly keptClosed: number;
  /** Issue tags naming an issue outside their finding's product's repository: skipped (see `lifecycle.ts`). */
  readonly outOfScope: number;
}

/** Untagged active findings at or above the threshold, across the products, worst first. */
async function candidates(products: readonly string[], deps: IssuePushDeps, failures: { count: number }): Promise<OpenFinding[]> {
  const severities = severitiesFrom(deps.minSeverity);
  const found = await perProduct(
    products,
    deps,
    'issue push: findings',
    (product) => deps.defectDojo.openFindings(product, severities),
    (product, raw) => {
      const finding = readFinding(product, raw);
      // The query already filters; this holds even where a filter is ignored.
      return finding && finding.active && severities.includes(finding.severity) && !hasIssueTag(finding) ? finding : undefined;
    },
    () => failures.count++,
  );
  return found.sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.product.localeCompare(b.product) || a.id - b.id);
}

/**
 * Issue push for the products a run touched: one GitHub issue per active finding at or above
 * `minSeverity` that has no `issue:` tag, then the tag, at once. Pushes exclude each other per
 * product and per repository (another push's findings are listed only after it tagged them), and
 * before creating, the finding's hash is looked up among the repository's issues (see
 * `IssueIndex`), so a crash between creating and tagging, a reimport that dropped the tag, or a
 * token whose labels GitHub drops never opens a second issue; nor does a creation whose answer
 * was lost: it is not made again, but looked for by its hash (`writeOnce`). Then, under the same product locks,
 * the issues opened before follow their findings (`followIssues`: closed, reopened).
 */
export async function pushIssues(products: readonly string[], deps: IssuePushDeps): Promise<IssuePushReport> {
  const failures = { count: 0 };
  const counts = { opened: 0, relinked: 0, deferred: 0, unresolved: 0 };
  let lifecycle: LifecycleReport = { closed: 0, reopened: 0, keptClosed: 0, failed: 0, deferred: 0, outOfScope: 0 };
  const report = (): IssuePushReport => ({
    opened: counts.opened,
    relinked: counts.relinked,
    failed: failures.count + lifecycle.failed,
    deferred: counts.deferred + lifecycle.deferred,
    unresolved: counts.unresolved,
    closed: lifecycle.closed,
    reopened: lifecycle.reopened,
    keptClosed: lifecycle.keptClosed,
    outOfScope: lifecycle.outOfScope,
  });
  if (deps.maxIssuesPerRun === 0 || products.length === 0) return report();
  const unique = [...new Set(products)];
  const holder = randomUUID();
  const held = await holding(deps, unique.map(productKey), holder, { products: unique });
  if (!held) return { ...report(), failed: 1 };
  // One client per target for the whole push, so its rate-limit state covers every call.
  const clients = new Map<GithubTarget, GitHubClient>();
  const clientFor = (target: GithubTarget): GitHubClient => {
    if (!clients.has(target)) clients.set(target, deps.clientFor(target));
    return clients.get(target)!;
  };
  try {
    const findings = await candidates(unique, deps, failures);
    const repositories = await resolveAll(findings, { ...deps, clientFor }, failures);
    const repositoryKeys = [...new Set([...repositories.values()].filter((r): r is IssueRepository => !!r?.hasIssues).map((r) => repositoryKey(r.target.server, r.fullName)))];
    const heldRepositories = await holding(deps, repositoryKeys, holder, { products: unique });
    if (!heldRepositories) return { ...report(), failed: failures.count + 1 };
    try {
      await pushFindings(findings, repositories, deps, counts, failures);
    } finally {
      await heldRepositories();
    }
    // Issues opened before (by any run) follow their findings, under the same product locks.
    lifecycle = await followIssues(unique, { ...deps, clientFor, maxChangesPerRun: deps.maxIssuesPerRun, resolved: repositories });
  } finally {
    await held();
  }
  return report();
}

/** The release of the keys, or undefined (logged) when another push held one too long. */
async function holding(deps: IssuePushDeps, keys: readonly string[], holder: string, at: object): Promise<(() => Promise<void>) | undefined> {
  try {
    return await holdKeys(deps.locks, keys, holder, deps.lockWait);
  } catch (err) {
    if (!(err instanceof PushLockTimeout)) throw err;
    deps.log.warn({ ...at, err: err.message }, 'issue push: skipped; the next run tries again');
    return undefined;
  }
}

/** The repository of every product with findings (read-only calls, made before the repository locks). */
async function resolveAll(findings: readonly OpenFinding[], deps: IssuePushDeps, failures: { count: number }): Promise<Map<string, IssueRepository | undefined>> {
  const resolved = new Map<string, IssueRepository | undefined>();
  for (const product of new Set(findings.map((f) => f.product))) {
    try {
      resolved.set(product, await resolveRepository(product, deps.targets, deps.clientFor));
    } catch (err) {
      const count = findings.filter((f) => f.product === product).length;
      deps.log.warn({ product, findings: count, err: message(err) }, 'issue push: repository lookup failed');
      failures.count += count;
    }
  }
  return resolved;
}

async function pushFindings(
  findings: readonly OpenFinding[],
  repositories: ReadonlyMap<string, IssueRepository | undefined>,
  deps: IssuePushDeps,
  counts: { opened: number; relinked: number; deferred: number; unresolved: number },
  failures: { count: number },
): Promise<void> {
  const indexes = new Map<string, IssueIndex>();
  const refused = new Set<string>();
  for (const [index, finding] of findings.entries()) {
    if (counts.opened >= deps.maxIssuesPerRun) {
      counts.deferred = findings.length - index;
      deps.log.info({ deferred: counts.deferred, max_issues_per_run: deps.maxIssuesPerRun }, 'issue push: per-run cap reached; the rest waits for the next run');
      return;
    }
    const at = { finding: finding.id, product: finding.product };
    // Not in the map: its lookup failed (counted there).
    if (!repositories.has(finding.product)) continue;
    const repository = repositories.get(finding.product);
    if (!repository) {
      counts.unresolved++;
      continue;
    }
    if (!repository.hasIssues) {
      if (!refused.has(repository.fullName)) deps.log.warn({ ...at, repository: repository.fullName }, 'issue push: issues are turned off in the repository');
      refused.add(repository.fullName);
      failures.count++;
      continue;
    }
    const hash = findingHash(finding);
    const pacers = deps.pacersFor(repository.target);
    const key = repositoryKey(repository.target.server, repository.fullName);
    if (!indexes.has(key)) indexes.set(key, new IssueIndex(repository, pacers.search, deps.log));
    const issues = indexes.get(key)!;
    try {
      let url = await issues.find(hash);
      let droppedLabels: readonly string[] = [];
      if (url) {
        counts.relinked++;
      } else {
        if (!(await pacers.create.slot())) {
          counts.deferred = findings.length - index;
          deps.log.warn({ deferred: counts.deferred }, 'issue push: hourly content-creation budget spent; the rest waits for a later run');
          return;
        }
        const { value: created, found } = await writeOnce(
          () => createIssue(repository, issueText(finding, hash, `${deps.defectDojoUrl}/finding/${finding.id}`)),
          async () => {
            const again = await issues.lookAgain(hash);
            return again === undefined ? undefined : { url: again, droppedLabels: [] };
          },
        );
        url = created.url;
        droppedLabels = created.droppedLabels;
        counts.opened++;
        if (found) deps.log.warn({ ...at, issue: url }, 'issue opened: GitHub gave no answer to the creation, and the issue was found by its hash');
        else deps.log.info({ ...at, issue: url }, 'issue opened');
      }
      issues.record(hash, url);
      // The tag goes on at once: the finding leaves every later push's list even where no label marks the issue.
      await retryTransient(() => deps.defectDojo.addFindingTags(finding.id, [issueTag(url!)]), deps.retry);
      if (droppedLabels.length > 0) await issues.labelsDropped(droppedLabels);
    } catch (err) {
      failures.count++;
      deps.log.warn({ ...at, repository: repository.fullName, err: message(err) }, 'issue push: finding not handled; the next run tries again');
    }
  }
}
