import pLimit from 'p-limit';
import type { Logger } from '../../logger.js';
import type { Severity } from '../config.js';
import type { DefectDojoClient } from '../defectdojo/client.js';
import type { GithubClient } from '../github/client.js';
import type { GithubTarget } from '../github/targets.js';
import { retrying, type RetryPolicy } from '../http/retry.js';
import { message } from '../report.js';
import { findingHash, hasIssueTag, issueTag, readFinding, severitiesFrom, severityRank, type OpenFinding } from './finding.js';
import { createIssue, labelledIssues, resolveRepository, searchIssue, type IssueRepository } from './github-issues.js';
import { issueText } from './issue-text.js';
import type { Pacer } from './pacer.js';

export interface IssuePushDeps {
  readonly defectDojo: DefectDojoClient;
  /** DefectDojo's web address, for the link back from each issue. */
  readonly defectDojoUrl: string;
  /** Public platform first, then enterprise instances. */
  readonly targets: readonly GithubTarget[];
  readonly clientFor: (target: GithubTarget) => GithubClient;
  readonly pacersFor: (target: GithubTarget) => { readonly create: Pacer; readonly search: Pacer };
  readonly minSeverity: Severity;
  readonly maxIssuesPerRun: number;
  readonly retry: RetryPolicy;
  readonly log: Pick<Logger, 'info' | 'warn'>;
}

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
}

const LISTING_CONCURRENCY = 4;

/** Untagged active findings at or above the threshold, across the products, worst first. */
async function candidates(products: readonly string[], deps: IssuePushDeps, failures: { count: number }): Promise<OpenFinding[]> {
  const severities = severitiesFrom(deps.minSeverity);
  const limit = pLimit(LISTING_CONCURRENCY);
  const perProduct = await Promise.all(
    products.map((product) =>
      limit(async () => {
        try {
          return await retrying(async () => {
            const found: OpenFinding[] = [];
            for await (const page of deps.defectDojo.openFindings(product, severities)) {
              for (const raw of page) {
                const finding = readFinding(product, raw);
                // The query already filters; this holds even where a filter is ignored.
                if (finding && finding.active && severities.includes(finding.severity) && !hasIssueTag(finding)) found.push(finding);
              }
            }
            return found;
          }, deps.retry);
        } catch (err) {
          failures.count++;
          deps.log.warn({ product, err: message(err) }, 'issue push: findings could not be listed');
          return [];
        }
      }),
    ),
  );
  return perProduct.flat().sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.product.localeCompare(b.product) || a.id - b.id);
}

/**
 * Issue push for the products a run touched: one GitHub issue per active finding at or above
 * `minSeverity` that has no `issue:` tag, then the tag. Before creating, the finding's hash is
 * looked up among the repository's Gatehouse issues and through search, so a crash between
 * creating and tagging, or a reimport that dropped the tag, never opens a second issue.
 */
export async function pushIssues(products: readonly string[], deps: IssuePushDeps): Promise<IssuePushReport> {
  const failures = { count: 0 };
  let opened = 0;
  let relinked = 0;
  let deferred = 0;
  let unresolved = 0;
  if (deps.maxIssuesPerRun === 0 || products.length === 0) return { opened, relinked, failed: 0, deferred, unresolved };
  const findings = await candidates([...new Set(products)], deps, failures);
  // One client per target for the whole push, so its rate-limit state covers every lookup.
  const clients = new Map<GithubTarget, GithubClient>();
  const clientFor = (target: GithubTarget): GithubClient => {
    if (!clients.has(target)) clients.set(target, deps.clientFor(target));
    return clients.get(target)!;
  };
  const repositories = new Map<string, Promise<IssueRepository | undefined>>();
  const known = new Map<string, Promise<Map<string, string>>>();
  const refused = new Set<string>();
  for (const [index, finding] of findings.entries()) {
    if (opened >= deps.maxIssuesPerRun) {
      deferred = findings.length - index;
      deps.log.info({ deferred, max_issues_per_run: deps.maxIssuesPerRun }, 'issue push: per-run cap reached; the rest waits for the next run');
      break;
    }
    const at = { finding: finding.id, product: finding.product };
    let repository: IssueRepository | undefined;
    try {
      if (!repositories.has(finding.product)) repositories.set(finding.product, resolveRepository(finding.product, deps.targets, clientFor));
      repository = await repositories.get(finding.product)!;
    } catch (err) {
      if (!refused.has(finding.product)) deps.log.warn({ ...at, err: message(err) }, 'issue push: repository lookup failed');
      refused.add(finding.product);
      failures.count++;
      continue;
    }
    if (!repository) {
      unresolved++;
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
    try {
      if (!known.has(repository.fullName)) known.set(repository.fullName, labelledIssues(repository));
      const issues = await known.get(repository.fullName)!;
      let url = issues.get(hash);
      if (!url) {
        await pacers.search.slot();
        url = await searchIssue(repository, hash);
      }
      if (url) {
        relinked++;
      } else {
        if (!(await pacers.create.slot())) {
          deferred = findings.length - index;
          deps.log.warn({ deferred }, 'issue push: hourly content-creation budget spent; the rest waits for a later run');
          break;
        }
        url = await createIssue(repository, issueText(finding, hash, `${deps.defectDojoUrl}/finding/${finding.id}`));
        opened++;
        deps.log.info({ ...at, issue: url }, 'issue opened');
      }
      issues.set(hash, url);
      await retrying(() => deps.defectDojo.addFindingTags(finding.id, [issueTag(url)]), deps.retry);
    } catch (err) {
      failures.count++;
      deps.log.warn({ ...at, repository: repository.fullName, err: message(err) }, 'issue push: finding not handled; the next run tries again');
    }
  }
  return { opened, relinked, failed: failures.count, deferred, unresolved };
}
