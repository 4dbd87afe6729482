import { HttpError, mayHaveActed } from '../http/call-errors.js';
import type { GitHubClient } from '../github/client.js';
import { listsOwner, type GithubTarget } from '../github/targets.js';
import { isRepositoryPair, parseFullName, sameFullName } from '../github/identifiers.js';
import { ISSUE_LABEL, bodyHasHash, type IssueText } from './issue-text.js';

/** A repository issues can be opened in. */
export interface IssueRepository {
  readonly target: GithubTarget;
  readonly client: GitHubClient;
  readonly owner: string;
  readonly name: string;
  readonly fullName: string;
  readonly hasIssues: boolean;
  /**
   * Whether the token may push (`permissions.push` of the repository's answer). Without it GitHub
   * silently drops the labels of a new issue, so the Gatehouse label cannot find them.
   */
  readonly canPush: boolean;
}

/**
 * The repository of a DefectDojo product: the product (project) name read as `owner/name`, looked
 * up on each target that lists the owner, the public platform first, then enterprise instances.
 * A repository GitHub shows under an owner the target does not list (moved there) is not it.
 */
export async function resolveRepository(
  product: string,
  targets: readonly GithubTarget[],
  clientFor: (target: GithubTarget) => GitHubClient,
): Promise<IssueRepository | undefined> {
  const named = parseFullName(product.trim());
  if (!named) return undefined;
  const { owner, name } = named;
  for (const target of targets) {
    if (!listsOwner(target, owner)) continue;
    const client = clientFor(target);
    try {
      const { data } = await client.request('GET /repos/{owner}/{repo}', { owner, repo: name });
      if (!listsOwner(target, data.owner.login) || !isRepositoryPair(data.owner.login, data.name)) continue;
      return {
        target,
        client,
        owner: data.owner.login,
        name: data.name,
        fullName: data.full_name,
        hasIssues: data.has_issues !== false,
        canPush: data.permissions?.push !== false,
      };
    } catch (err) {
      // Missing here (or not visible to this token): the next target may hold it.
      if (err instanceof HttpError && err.status === 404) continue;
      throw err;
    }
  }
  return undefined;
}

const HASH_IN_BODY = /Gatehouse finding: `([0-9a-f]{32})`/;

/**
 * The repository's issues (open or closed) by finding hash: those with the Gatehouse label, or
 * with `labelled: false` every issue, for issues whose label GitHub dropped. The listing reads
 * GitHub's database, so unlike search it holds an issue from the moment it is created.
 */
export async function issuesByHash(repo: IssueRepository, { labelled }: { labelled: boolean }): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const pages = repo.client.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
    owner: repo.owner,
    repo: repo.name,
    ...(labelled ? { labels: ISSUE_LABEL } : {}),
    state: 'all',
    per_page: 100,
  });
  for await (const { data } of pages) {
    for (const issue of data) {
      if (issue.pull_request) continue;
      const hash = HASH_IN_BODY.exec(issue.body ?? '')?.[1];
      if (hash && !found.has(hash)) found.set(hash, issue.html_url);
    }
  }
  return found;
}

/**
 * The spec's fallback: an issue whose body carries the hash, found by GitHub's search, for
 * issues that lost the label. Search lags issue creation, which the labelled listing covers.
 */
export async function searchIssue(repo: IssueRepository, hash: string): Promise<string | undefined> {
  const { data } = await repo.client.request('GET /search/issues', {
    q: `repo:${repo.fullName} is:issue in:body "${hash}"`,
    advanced_search: 'true',
    per_page: 10,
  });
  return data.items.find((item) => !item.pull_request && bodyHasHash(item.body, hash))?.html_url;
}

export interface CreatedIssue {
  readonly url: string;
  /** Labels asked for that GitHub's answer does not carry (dropped for a token that cannot push). */
  readonly droppedLabels: readonly string[];
}

/**
 * A write to GitHub made at most once. The client does not repeat a POST or PATCH whose answer was
 * lost (no answer once sent, or a 5xx): GitHub may have made it. `lookAgain` reads GitHub's state
 * to find it: found, the write stands (`found: true`); not found, the failure stands, and the next
 * run, which looks before it writes, tries again. Any other failure is thrown as it came.
 */
export async function writeOnce<T>(write: () => Promise<T>, lookAgain: () => Promise<T | undefined>): Promise<{ readonly value: T; readonly found: boolean }> {
  try {
    return { value: await write(), found: false };
  } catch (err) {
    if (!mayHaveActed(err)) throw err;
    const found = await lookAgain().catch(() => undefined);
    if (found === undefined) throw err;
    return { value: found, found: true };
  }
}

export async function createIssue(repo: IssueRepository, text: IssueText): Promise<CreatedIssue> {
  const { data } = await repo.client.request('POST /repos/{owner}/{repo}/issues', { owner: repo.owner, repo: repo.name, title: text.title, body: text.body, labels: [...text.labels] });
  const given = new Set(data.labels.map((l) => (typeof l === 'string' ? l : l.name)).filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase()));
  return { url: data.html_url, droppedLabels: text.labels.filter((l) => !given.has(l.toLowerCase())) };
}

/** An issue named by its web address, with the target whose server serves it. */
export interface IssueRef {
  readonly target: GithubTarget;
  readonly owner: string;
  readonly repo: string;
  readonly number: number;
}

/**
 * The issue of an `issue:` tag's URL (`<server>/<owner>/<repo>/issues/<n>`, lowercased by
 * DefectDojo; GitHub compares owner and repository names without case), on the first target
 * whose server it starts with; undefined when no target serves it or the owner or name is not
 * one GitHub allows (`..` among them). Which issue a finding may change is `inScope`'s decision.
 */
export function issueRefOf(url: string, targets: readonly GithubTarget[]): IssueRef | undefined {
  for (const target of targets) {
    const base = `${target.server.toLowerCase()}/`;
    if (!url.toLowerCase().startsWith(base)) continue;
    const match = /^([^/]+)\/([^/]+)\/issues\/([1-9]\d{0,11})$/.exec(url.slice(base.length));
    if (match && isRepositoryPair(match[1], match[2])) return { target, owner: match[1]!, repo: match[2]!, number: Number(match[3]) };
  }
  return undefined;
}

/**
 * Whether an issue is one issue push may have opened for a product: in the repository the product
 * resolves to (or its own `owner/name`, the name it had when the issue was opened), on the same
 * target. A tag is data anyone who can edit a finding may write: it never chooses another repository.
 */
export function inScope(ref: IssueRef, product: string, repository: Pick<IssueRepository, 'target' | 'fullName'>): boolean {
  const named = `${ref.owner}/${ref.repo}`;
  return ref.target === repository.target && (sameFullName(named, repository.fullName) || sameFullName(named, product.trim()));
}

/** What issue lifecycle reads of an issue. */
export interface IssueState {
  readonly state: 'open' | 'closed';
  readonly closedAt?: Date;
  /** GitHub's `updated_at` (its own clock): every comment written after this read is at or after it. */
  readonly updatedAt?: string;
  readonly htmlUrl: string;
}

/** The path parameters of an issue's routes. */
const issuePath = (ref: IssueRef) => ({ owner: ref.owner, repo: ref.repo, issue_number: ref.number });

export async function issueState(client: GitHubClient, ref: IssueRef): Promise<IssueState> {
  const { data } = await client.request('GET /repos/{owner}/{repo}/issues/{issue_number}', issuePath(ref));
  const closedAt = data.closed_at ? new Date(data.closed_at) : undefined;
  return {
    state: data.state === 'closed' ? 'closed' : 'open',
    htmlUrl: data.html_url,
    ...(closedAt && !Number.isNaN(closedAt.getTime()) ? { closedAt } : {}),
    ...(data.updated_at ? { updatedAt: data.updated_at } : {}),
  };
}

export async function commentOnIssue(client: GitHubClient, ref: IssueRef, body: string): Promise<void> {
  await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...issuePath(ref), body });
}

/** Whether the issue has a comment with exactly this body, written at or after `since` (GitHub's clock). */
export async function hasComment(client: GitHubClient, ref: IssueRef, body: string, since: string | undefined): Promise<boolean> {
  const pages = client.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    ...issuePath(ref),
    ...(since ? { since } : {}),
    per_page: 100,
  });
  for await (const { data } of pages) if (data.some((comment) => comment.body === body)) return true;
  return false;
}

/** Closes (with GitHub's `state_reason`) or reopens the issue. */
export async function setIssueState(client: GitHubClient, ref: IssueRef, state: 'open' | 'closed', stateReason?: 'completed' | 'not_planned'): Promise<void> {
  await client.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
    ...issuePath(ref),
    state,
    ...(stateReason ? { state_reason: stateReason } : {}),
  });
}
