import { message } from '../errors.js';
import { closingComment, readLinkedFinding, reopeningComment, stateReasonFor, type LinkedFinding } from './finding-status.js';
import { commentOnIssue, hasComment, inScope, issueRefOf, issueState, resolveRepository, setIssueState, writeOnce, type IssueRef, type IssueRepository } from './github-issues.js';
import type { IssuePushDeps } from './deps.js';
import { perProduct } from './per-product.js';

/** Issue push's collaborators (the same clients, pacers and retries), with its own cap on changes. */
export type LifecycleDeps = Pick<IssuePushDeps, 'defectDojo' | 'defectDojoUrl' | 'targets' | 'clientFor' | 'pacersFor' | 'retry' | 'log'> & {
  /** The most issues closed or reopened in one run (`github.maxIssuesPerRun`, counted apart from openings). */
  readonly maxChangesPerRun: number;
  /** Repositories issue push already resolved in this run, by product: not asked for again. */
  readonly resolved?: ReadonlyMap<string, IssueRepository | undefined>;
};

export interface LifecycleReport {
  /** Issues closed because their finding is no longer active. */
  readonly closed: number;
  /** Issues reopened because their finding became active after the issue was closed. */
  readonly reopened: number;
  /** Closed issues of active findings left closed: closed (by hand) after the finding's last status change. */
  readonly keptClosed: number;
  /** Findings or issues that could not be handled (logged); tried again by the next run. */
  readonly failed: number;
  /** Changes left for a later run: the per-run cap or the hourly content budget was reached. */
  readonly deferred: number;
  /**
   * Issue tags left alone because they name an issue outside the finding's product's repository
   * (another repository or owner, another server): warned with the finding id, never written to.
   */
  readonly outOfScope: number;
}

type Change = { readonly kind: 'close' | 'reopen'; readonly finding: LinkedFinding; readonly ref: IssueRef; readonly url: string; readonly updatedAt?: string };

/** What the issue of `finding` needs, if anything; `kept` when a closed issue stays closed. */
export function decide(finding: LinkedFinding, issue: { state: 'open' | 'closed'; closedAt?: Date }): 'close' | 'reopen' | 'kept' | 'none' {
  if (!finding.active) return issue.state === 'open' ? 'close' : 'none';
  if (issue.state === 'open') return 'none';
  // Reopened only when DefectDojo changed the finding's status after the issue was closed: an issue
  // closed by hand while its finding stayed active stays closed until the finding is closed and
  // re-activated. Both times are the servers' own clocks (GitHub's in whole seconds).
  return finding.lastStatusUpdate && issue.closedAt && finding.lastStatusUpdate.getTime() > issue.closedAt.getTime() ? 'reopen' : 'kept';
}

/**
 * Issue lifecycle for the products of a run: for every finding issue push linked to an issue (its
 * `issue:` tag), the issue is closed with a comment when the finding is no longer active
 * (`state_reason` completed when mitigated, not_planned for a false positive, out of scope, risk
 * accepted or duplicate) and reopened with a comment when the finding is active again after the
 * issue was closed. Every write takes a slot of the account's content-creation pacer, as creation
 * does. Running it twice changes nothing the second time: each change is read back from GitHub's
 * and DefectDojo's own state.
 */
export async function followIssues(products: readonly string[], deps: LifecycleDeps): Promise<LifecycleReport> {
  const counts = { closed: 0, reopened: 0, keptClosed: 0, failed: 0, deferred: 0, outOfScope: 0 };
  const changes: Change[] = [];
  const linked = await inScopeLinks(await linkedFindings(products, deps, counts), deps, counts);
  for (const { url, finding, ref } of byIssue(linked)) {
    try {
      const issue = await issueState(deps.clientFor(ref.target), ref);
      const decision = decide(finding, issue);
      if (decision === 'kept') counts.keptClosed++;
      else if (decision !== 'none') changes.push({ kind: decision, finding, ref, url: issue.htmlUrl, ...(issue.updatedAt ? { updatedAt: issue.updatedAt } : {}) });
    } catch (err) {
      counts.failed++;
      deps.log.warn({ finding: finding.id, product: finding.product, issue: url, err: message(err) }, 'issue lifecycle: issue could not be read; the next run tries again');
    }
  }
  for (const [index, change] of changes.entries()) {
    if (counts.closed + counts.reopened >= deps.maxChangesPerRun) {
      counts.deferred = changes.length - index;
      deps.log.info({ deferred: counts.deferred, max_issues_per_run: deps.maxChangesPerRun }, 'issue lifecycle: per-run cap reached; the rest waits for the next run');
      break;
    }
    const outcome = await apply(change, deps);
    if (outcome === 'deferred') {
      counts.deferred = changes.length - index;
      deps.log.warn({ deferred: counts.deferred }, 'issue lifecycle: hourly content-creation budget spent; the rest waits for a later run');
      break;
    }
    if (outcome === 'failed') counts.failed++;
    else if (change.kind === 'close') counts.closed++;
    else counts.reopened++;
  }
  return counts;
}

/**
 * The comment, then the state change, each in a paced slot. A comment whose answer was lost is not
 * written again but looked for among the issue's comments since it was read (`writeOnce`). A
 * failure between them leaves the comment; the next run writes both again.
 */
async function apply(change: Change, deps: LifecycleDeps): Promise<'done' | 'deferred' | 'failed'> {
  const { finding, ref } = change;
  const client = deps.clientFor(ref.target);
  const pacer = deps.pacersFor(ref.target).create;
  const findingUrl = `${deps.defectDojoUrl}/finding/${finding.id}`;
  try {
    if (!(await pacer.slot())) return 'deferred';
    const comment = change.kind === 'close' ? closingComment(finding, findingUrl) : reopeningComment(finding, findingUrl);
    await writeOnce(
      async () => {
        await commentOnIssue(client, ref, comment);
        return true;
      },
      async () => ((await hasComment(client, ref, comment, sinceRead(change.updatedAt))) ? true : undefined),
    );
    if (!(await pacer.slot())) return 'deferred';
    if (change.kind === 'close') await setIssueState(client, ref, 'closed', stateReasonFor(finding.reason ?? 'inactive'));
    else await setIssueState(client, ref, 'open');
    deps.log.info({ finding: finding.id, product: finding.product, issue: change.url, ...(finding.reason ? { reason: finding.reason } : {}) }, change.kind === 'close' ? 'issue closed' : 'issue reopened');
    return 'done';
  } catch (err) {
    deps.log.warn({ finding: finding.id, product: finding.product, issue: change.url, err: message(err) }, `issue lifecycle: issue not ${change.kind === 'close' ? 'closed' : 'reopened'}; the next run tries again`);
    return 'failed';
  }
}

/**
 * From a second before the issue's `updated_at` as read: GitHub's `since` is documented as "after
 * the given time", and a comment may be written within the second the issue was last updated.
 */
function sinceRead(updatedAt: string | undefined): string | undefined {
  const ms = updatedAt === undefined ? NaN : Date.parse(updatedAt);
  return Number.isFinite(ms) ? new Date(ms - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
}

type Link = { readonly url: string; readonly finding: LinkedFinding; readonly ref: IssueRef };

/**
 * The finding-to-issue links issue lifecycle may act on: each tag's issue must lie in the
 * repository its finding's product resolves to, as issue push resolves it (`inScope`). Every other
 * tag (crafted, or copied from another product) is skipped, counted and warned about by finding
 * id, never by its value. A product whose repository lookup fails counts as one failure.
 */
async function inScopeLinks(findings: readonly LinkedFinding[], deps: LifecycleDeps, counts: { failed: number; outOfScope: number }): Promise<Link[]> {
  const repositories = new Map<string, IssueRepository | undefined | 'failed'>();
  for (const product of new Set(findings.map((f) => f.product))) {
    if (deps.resolved?.has(product)) {
      repositories.set(product, deps.resolved.get(product));
      continue;
    }
    try {
      repositories.set(product, await resolveRepository(product, deps.targets, deps.clientFor));
    } catch (err) {
      counts.failed++;
      repositories.set(product, 'failed');
      deps.log.warn({ product, err: message(err) }, 'issue lifecycle: repository lookup failed; the next run tries again');
    }
  }
  const links: Link[] = [];
  for (const finding of findings) {
    const repository = repositories.get(finding.product);
    if (repository === 'failed') continue;
    for (const url of new Set(finding.issueUrls)) {
      const ref = issueRefOf(url, deps.targets);
      if (ref && repository && inScope(ref, finding.product, repository)) {
        links.push({ url, finding, ref });
        continue;
      }
      counts.outOfScope++;
      deps.log.warn({ finding: finding.id, product: finding.product }, "issue lifecycle: the finding's issue tag names an issue outside its product's repository; skipped (out of scope)");
    }
  }
  return links;
}

/**
 * Each issue once, with the finding that decides it: when several findings carry one issue (a
 * finding re-created by a reimport and linked again), an active one (the latest changed) keeps the
 * issue open; otherwise the latest changed inactive one says why it closes.
 */
function byIssue(links: readonly Link[]): Link[] {
  const time = (f: LinkedFinding) => f.lastStatusUpdate?.getTime() ?? 0;
  const chosen = new Map<string, Link>();
  for (const link of links) {
    const { finding } = link;
    const held = chosen.get(link.url)?.finding;
    if (!held || (finding.active && !held.active) || (finding.active === held.active && time(finding) > time(held))) chosen.set(link.url, link);
  }
  return [...chosen.values()];
}

/** The linked findings of the products, in product and id order; a product that cannot be listed counts as one failure. */
function linkedFindings(products: readonly string[], deps: LifecycleDeps, counts: { failed: number }): Promise<LinkedFinding[]> {
  return perProduct(products, deps, 'issue lifecycle: linked findings', (product) => deps.defectDojo.linkedFindings(product), (product, raw) => readLinkedFinding(product, raw), () => counts.failed++);
}
