import { HttpError } from '../http/request.js';
import type { GithubClient } from '../github/client.js';
import type { GithubTarget } from '../github/targets.js';
import { ISSUE_LABEL, bodyHasHash, type IssueText } from './issue-text.js';

/** A repository issues can be opened in. */
export interface IssueRepository {
  readonly target: GithubTarget;
  readonly client: GithubClient;
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

const OWNER_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;

/**
 * The repository of a DefectDojo product: the product (project) name read as `owner/name`, looked
 * up on each target that lists the owner, the public platform first, then enterprise instances.
 */
export async function resolveRepository(
  product: string,
  targets: readonly GithubTarget[],
  clientFor: (target: GithubTarget) => GithubClient,
): Promise<IssueRepository | undefined> {
  const match = OWNER_NAME.exec(product.trim());
  if (!match) return undefined;
  const [, owner, name] = match as unknown as [string, string, string];
  for (const target of targets) {
    if (!target.owners.some((o) => o.toLowerCase() === owner.toLowerCase())) continue;
    const client = clientFor(target);
    try {
      const { data } = await client.request('GET /repos/{owner}/{repo}', { owner, repo: name });
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
 * whose server it starts with; undefined when no target serves it.
 */
export function issueRefOf(url: string, targets: readonly GithubTarget[]): IssueRef | undefined {
  for (const target of targets) {
    const base = `${target.server.toLowerCase()}/`;
    if (!url.toLowerCase().startsWith(base)) continue;
    const match = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})\/issues\/(\d{1,12})$/.exec(url.slice(base.length));
    if (match) return { target, owner: match[1]!, repo: match[2]!, number: Number(match[3]) };
  }
  return undefined;
}

/** What issue lifecycle reads of an issue. */
export interface IssueState {
  readonly state: 'open' | 'closed';
  readonly closedAt?: Date;
  readonly htmlUrl: string;
}

export async function issueState(client: GithubClient, ref: IssueRef): Promise<IssueState> {
  const { data } = await client.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner: ref.owner, repo: ref.repo, issue_number: ref.number });
  const closedAt = data.closed_at ? new Date(data.closed_at) : undefined;
  return { state: data.state === 'closed' ? 'closed' : 'open', htmlUrl: data.html_url, ...(closedAt && !Number.isNaN(closedAt.getTime()) ? { closedAt } : {}) };
}

export async function commentOnIssue(client: GithubClient, ref: IssueRef, body: string): Promise<void> {
  await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: ref.owner, repo: ref.repo, issue_number: ref.number, body });
}

/** Closes (with GitHub's `state_reason`) or reopens the issue. */
export async function setIssueState(client: GithubClient, ref: IssueRef, state: 'open' | 'closed', stateReason?: 'completed' | 'not_planned'): Promise<void> {
  await client.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
    owner: ref.owner,
    repo: ref.repo,
    issue_number: ref.number,
    state,
    ...(stateReason ? { state_reason: stateReason } : {}),
  });
}
