import type { Logger } from '../logger.js';
import { RateLimitExhausted } from '../github/rate-limited-client.js';
import { message } from '../errors.js';
import { issuesByHash, searchIssue, type IssueRepository } from './github-issues.js';
import type { Pacer } from './pacer.js';

/**
 * What one push knows of a repository's Gatehouse issues, by finding hash. It starts from the
 * labelled listing; search covers issues that lost their label. When labels cannot be relied on
 * (the token cannot push, or GitHub's answer to a creation lacked them) or search is out of
 * budget, it lists every issue of the repository instead: that listing is complete and, unlike
 * search, never lags behind creation.
 */
export class IssueIndex {
  private known: Map<string, string> | undefined;
  /** Every issue of the repository was listed: a miss is a real miss, no search needed. */
  private complete = false;

  constructor(
    private readonly repo: IssueRepository,
    private readonly search: Pacer,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
  ) {}

  /** The issue of this finding hash, if the repository has one. */
  async find(hash: string): Promise<string | undefined> {
    const known = await this.listing();
    const hit = known.get(hash);
    if (hit || this.complete) return hit;
    try {
      await this.search.slot();
      return await searchIssue(this.repo, hash);
    } catch (err) {
      if (!(err instanceof RateLimitExhausted) || err.resource !== 'search') throw err;
      this.log.warn({ repository: this.repo.fullName, err: message(err) }, 'issue push: the search budget is spent; every issue of the repository is listed instead');
      await this.listEverything();
      return this.known!.get(hash);
    }
  }

  /**
   * The issue of this finding hash, from a listing of every issue of the repository made now: for
   * a creation whose answer was lost (the listing holds an issue from the moment it exists).
   */
  async lookAgain(hash: string): Promise<string | undefined> {
    await this.listEverything();
    return this.known!.get(hash);
  }

  /** An issue this push created or linked. */
  record(hash: string, url: string): void {
    this.known?.set(hash, url);
  }

  /** GitHub's answer to a creation lacked labels asked for: from now on the listing covers every issue. */
  async labelsDropped(dropped: readonly string[]): Promise<void> {
    if (this.complete) return;
    this.log.warn(
      { repository: this.repo.fullName, dropped },
      'issue push: GitHub dropped the labels of a new issue (the token cannot push to the repository); issues are found by the hash in their body',
    );
    await this.listEverything();
  }

  private async listing(): Promise<Map<string, string>> {
    if (this.known) return this.known;
    // A token that cannot push gets issues without labels: then every issue is listed.
    this.known = await issuesByHash(this.repo, { labelled: this.repo.canPush });
    if (!this.repo.canPush) this.complete = true;
    return this.known;
  }

  private async listEverything(): Promise<void> {
    const all = await issuesByHash(this.repo, { labelled: false });
    const known = this.known ?? new Map<string, string>();
    for (const [hash, url] of all) if (!known.has(hash)) known.set(hash, url);
    this.known = known;
    this.complete = true;
  }
}
