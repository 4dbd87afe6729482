import { jsonAnswer, send } from '../../http/send.js';
import { retryTransient, UnexpectedAnswerError } from '../../http/call-errors.js';
import type { RetryPolicy } from '../../http/retry.js';

const SERVICE = 'SonarQube';
/** The web API's largest page. */
const PAGE_SIZE = 500;
/** SonarQube's search indexes return at most the first 10,000 results of any query. */
const SEARCH_WINDOW = 10_000;

type OnRetry = (error: Error, retry: number, delayMs: number) => void;

export interface SonarQubeProject {
  readonly key: string;
  readonly name: string;
}

/** An open issue as `api/issues/search` gives it (the fields the report uses). */
export interface SonarQubeIssue {
  readonly key: string;
  readonly rule: string;
  readonly severity?: string;
  readonly impacts?: readonly { readonly softwareQuality?: string; readonly severity?: string }[];
  readonly component: string;
  readonly line?: number;
  readonly message: string;
  readonly type?: string;
}

export interface ProjectIssues {
  readonly issues: SonarQubeIssue[];
  /** Rule key → rule name, from `additionalFields=rules` (or the rule lookup, for hotspots). */
  readonly rules: Map<string, string>;
  /** Rule key → its CWE identifiers (numbers as text), from the rule lookup; absent: not looked up. */
  readonly cwes?: ReadonlyMap<string, readonly string[]>;
}

/** What `api/rules/search` tells about one rule: its name and the CWEs of its security standards. */
export interface RuleDetails {
  readonly name?: string;
  readonly cwes: readonly string[];
}

/** Issue types imported by default: vulnerabilities; bugs and code smells are not security findings. */
const SECURITY_TYPES = 'VULNERABILITY';

/** More open issues than SonarQube's search can page through. */
class SearchWindowExceeded extends Error {
  override readonly name = 'SearchWindowExceeded';
}

export interface SonarQubeClientOptions {
  readonly url: string;
  readonly token: string;
  readonly timeoutMs: number;
}

interface Page {
  readonly paging?: { readonly pageIndex?: unknown; readonly pageSize?: unknown; readonly total?: unknown };
}

function total(page: Page, operation: string): number {
  const value = page.paging?.total;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no paging total');
  return value;
}

function issue(value: unknown): SonarQubeIssue | undefined {
  const i = value as Record<string, unknown> | null;
  if (!i || typeof i.key !== 'string' || typeof i.rule !== 'string' || typeof i.component !== 'string') return undefined;
  return {
    key: i.key,
    rule: i.rule,
    component: i.component,
    message: typeof i.message === 'string' ? i.message : '',
    ...(typeof i.severity === 'string' ? { severity: i.severity } : {}),
    ...(Array.isArray(i.impacts) ? { impacts: i.impacts as SonarQubeIssue['impacts'] } : {}),
    ...(typeof i.line === 'number' ? { line: i.line } : {}),
    ...(typeof i.type === 'string' ? { type: i.type } : {}),
  };
}

/**
 * SonarQube's web API with a user token, sent as the basic-auth login with an empty password: the
 * one form every version from 9.9 on accepts (bearer needs 10.0).
 */
export class SonarQubeClient {
  /** Rule lookups of this run, shared by every project (rules are the server's, not a project's). */
  private readonly ruleCache = new Map<string, Promise<RuleDetails>>();

  constructor(private readonly options: SonarQubeClientOptions) {}

  private get headers(): Record<string, string> {
    return { authorization: `Basic ${Buffer.from(`${this.options.token}:`).toString('base64')}`, accept: 'application/json' };
  }

  private async get(operation: string, path: string, query: URLSearchParams, retry: RetryPolicy, onRetry?: OnRetry): Promise<Record<string, unknown>> {
    return retryTransient(
      async () => {
        const response = await send(SERVICE, operation, `${this.options.url}${path}?${query}`, { headers: this.headers, timeoutMs: this.options.timeoutMs });
        const body = await jsonAnswer(SERVICE, operation, response);
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer is not an object');
        return body as Record<string, unknown>;
      },
      retry,
      onRetry,
    );
  }

  /**
   * `api/authentication/validate`: whether SonarQube accepts the token. It answers 200 with
   * `{"valid": false}` for a refused token rather than 401, so the flag is what is read.
   */
  async tokenValid(retry: RetryPolicy, onRetry?: OnRetry): Promise<boolean> {
    const body = await this.get('token check (authentication/validate)', '/api/authentication/validate', new URLSearchParams(), retry, onRetry);
    if (typeof body.valid !== 'boolean') throw new UnexpectedAnswerError(SERVICE, 'token check (authentication/validate)', 'the answer has no valid flag');
    return body.valid;
  }

  /** The pages of a search and their `field` lists, until one reaches the paging total or is empty; a total past the window fails it whole. */
  private async *search(what: string, path: string, query: Record<string, string>, field: string, tooMany: (count: number) => string, retry: RetryPolicy, onRetry?: OnRetry) {
    for (let p = 1; ; p++) {
      const operation = `${what} (page ${p})`;
      const page = await this.get(operation, path, new URLSearchParams({ ...query, ps: String(PAGE_SIZE), p: String(p) }), retry, onRetry);
      const count = total(page, operation);
      if (count > SEARCH_WINDOW) throw new SearchWindowExceeded(tooMany(count));
      const items = page[field];
      if (!Array.isArray(items)) throw new UnexpectedAnswerError(SERVICE, operation, `the answer has no ${field} list`);
      yield { operation, page, items };
      if (p * PAGE_SIZE >= count || items.length === 0) return;
    }
  }

  /** Every project the token may browse (`api/components/search?qualifiers=TRK`, which needs no admin right). */
  async listProjects(retry: RetryPolicy, onRetry?: OnRetry): Promise<SonarQubeProject[]> {
    const projects: SonarQubeProject[] = [];
    const tooMany = (count: number) => `SonarQube lists ${count} projects; its search pages through the first ${SEARCH_WINDOW} only`;
    for await (const { operation, items } of this.search('project list', '/api/components/search', { qualifiers: 'TRK' }, 'components', tooMany, retry, onRetry)) {
      for (const c of items as { key?: unknown; name?: unknown }[]) {
        if (typeof c?.key !== 'string') throw new UnexpectedAnswerError(SERVICE, operation, 'a project has no key');
        projects.push({ key: c.key, name: typeof c.name === 'string' && c.name.trim() !== '' ? c.name : c.key });
      }
    }
    return projects;
  }

  /**
   * Every open issue of a project (`api/issues/search`, `resolved=false`, with rule names). A
   * project past the search window fails whole: a cut-off report would close the rest in DefectDojo.
   */
  async projectIssues(project: SonarQubeProject, retry: RetryPolicy, onRetry?: OnRetry, options: { readonly allTypes?: boolean } = {}): Promise<ProjectIssues> {
    const issues: SonarQubeIssue[] = [];
    const rules = new Map<string, string>();
    // `componentKeys`: renamed `components` in 10.2, where the old name still works; 9.9 knows only it.
    // `types`: deprecated in 10.2 but still applied, and the one filter 9.9 to 2025.x all know.
    const query = { componentKeys: project.key, resolved: 'false', additionalFields: 'rules', ...(options.allTypes ? {} : { types: SECURITY_TYPES }) };
    const tooMany = (count: number) => `${count} open issues; SonarQube's search pages through the first ${SEARCH_WINDOW} only, and a partial report would close the rest in DefectDojo`;
    for await (const { operation, page, items } of this.search(`issues of ${project.key}`, '/api/issues/search', query, 'issues', tooMany, retry, onRetry)) {
      for (const raw of items) {
        const parsed = issue(raw);
        if (!parsed) throw new UnexpectedAnswerError(SERVICE, operation, 'an issue has no key, rule or component');
        issues.push(parsed);
      }
      for (const r of Array.isArray(page.rules) ? (page.rules as { key?: unknown; name?: unknown }[]) : []) {
        if (typeof r?.key === 'string' && typeof r.name === 'string') rules.set(r.key, r.name);
      }
    }
    return { issues, rules };
  }

  /**
   * Every security hotspot of a project still to review (`api/hotspots/search`, `projectKey`,
   * `status=TO_REVIEW`), as issues of type SECURITY_HOTSPOT whose severity is the hotspot's
   * vulnerability probability (HIGH, MEDIUM, LOW). Past the search window it fails whole, as issues do.
   */
  async projectHotspots(project: SonarQubeProject, retry: RetryPolicy, onRetry?: OnRetry): Promise<SonarQubeIssue[]> {
    const hotspots: SonarQubeIssue[] = [];
    const tooMany = (count: number) => `${count} hotspots to review; SonarQube's search pages through the first ${SEARCH_WINDOW} only, and a partial report would close the rest in DefectDojo`;
    for await (const { operation, items } of this.search(`hotspots of ${project.key}`, '/api/hotspots/search', { projectKey: project.key, status: 'TO_REVIEW' }, 'hotspots', tooMany, retry, onRetry)) {
      for (const raw of items as Record<string, unknown>[]) {
        if (typeof raw?.key !== 'string' || typeof raw.component !== 'string') throw new UnexpectedAnswerError(SERVICE, operation, 'a hotspot has no key or component');
        // `ruleKey` is in the answer from 9.7 on; before, the security category stands in for the rule.
        const rule = typeof raw.ruleKey === 'string' ? raw.ruleKey : `hotspot:${typeof raw.securityCategory === 'string' ? raw.securityCategory : 'others'}`;
        hotspots.push({
          key: raw.key,
          rule,
          component: raw.component,
          message: typeof raw.message === 'string' ? raw.message : '',
          severity: typeof raw.vulnerabilityProbability === 'string' ? raw.vulnerabilityProbability : 'LOW',
          ...(typeof raw.line === 'number' ? { line: raw.line } : {}),
          type: 'SECURITY_HOTSPOT',
        });
      }
    }
    return hotspots;
  }

  /**
   * A rule's name and CWEs: `api/rules/search?rule_key=<key>&facets=cwe`, whose `cwe` facet over
   * that one rule lists the CWEs of its security standards (SonarQube's own mapping; the API
   * gives no per-issue CWE). Once per rule and run; a rule SonarQube does not know has none.
   */
  ruleDetails(ruleKey: string, retry: RetryPolicy, onRetry?: OnRetry): Promise<RuleDetails> {
    let found = this.ruleCache.get(ruleKey);
    if (!found) {
      found = this.lookUpRule(ruleKey, retry, onRetry);
      this.ruleCache.set(ruleKey, found);
      // A failure is not kept: the next project asks again.
      found.catch(() => this.ruleCache.delete(ruleKey));
    }
    return found;
  }

  private async lookUpRule(ruleKey: string, retry: RetryPolicy, onRetry?: OnRetry): Promise<RuleDetails> {
    if (ruleKey.startsWith('hotspot:')) return { cwes: [] };
    const page = await this.get(`rule ${ruleKey}`, '/api/rules/search', new URLSearchParams({ rule_key: ruleKey, facets: 'cwe', f: 'name', ps: '1' }), retry, onRetry);
    const rule = Array.isArray(page.rules) ? (page.rules as { key?: unknown; name?: unknown }[]).find((r) => r?.key === ruleKey) : undefined;
    const facets = Array.isArray(page.facets) ? (page.facets as { name?: unknown; property?: unknown; values?: unknown }[]) : [];
    const facet = facets.find((f) => f?.name === 'cwe' || f?.property === 'cwe');
    const values = Array.isArray(facet?.values) ? (facet.values as { val?: unknown; count?: unknown }[]) : [];
    const cwes = values.filter((v) => typeof v?.val === 'string' && /^\d+$/.test(v.val) && (typeof v.count !== 'number' || v.count > 0)).map((v) => v.val as string);
    return { ...(typeof rule?.name === 'string' ? { name: rule.name } : {}), cwes };
  }
}
