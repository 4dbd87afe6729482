import { jsonBody, send, UnexpectedAnswerError } from '../http/request.js';
import { retrying, type RetryPolicy } from '../http/retry.js';

const SERVICE = 'SonarQube';
/** The web API's largest page. */
const PAGE_SIZE = 500;
/** SonarQube's search indexes return at most the first 10,000 results of any query. */
export const SEARCH_WINDOW = 10_000;

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
  /** Rule key → rule name, from `additionalFields=rules`. */
  readonly rules: Map<string, string>;
}

/** More open issues than SonarQube's search can page through. */
export class SearchWindowExceeded extends Error {
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
  constructor(private readonly options: SonarQubeClientOptions) {}

  private get headers(): Record<string, string> {
    return { authorization: `Basic ${Buffer.from(`${this.options.token}:`).toString('base64')}`, accept: 'application/json' };
  }

  private async get(operation: string, path: string, query: URLSearchParams, retry: RetryPolicy, onRetry?: OnRetry): Promise<Record<string, unknown>> {
    return retrying(
      async () => {
        const response = await send(SERVICE, operation, `${this.options.url}${path}?${query}`, { headers: this.headers, timeoutMs: this.options.timeoutMs });
        const body = await jsonBody(SERVICE, operation, response, this.options.timeoutMs);
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

  /** Every project the token may browse (`api/components/search?qualifiers=TRK`, which needs no admin right). */
  async listProjects(retry: RetryPolicy, onRetry?: OnRetry): Promise<SonarQubeProject[]> {
    const projects: SonarQubeProject[] = [];
    for (let p = 1; ; p++) {
      const operation = `project list (page ${p})`;
      const page = await this.get(operation, '/api/components/search', new URLSearchParams({ qualifiers: 'TRK', ps: String(PAGE_SIZE), p: String(p) }), retry, onRetry);
      const count = total(page, operation);
      if (count > SEARCH_WINDOW) throw new SearchWindowExceeded(`SonarQube lists ${count} projects; its search pages through the first ${SEARCH_WINDOW} only`);
      if (!Array.isArray(page.components)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no components list');
      for (const c of page.components as { key?: unknown; name?: unknown }[]) {
        if (typeof c?.key !== 'string') throw new UnexpectedAnswerError(SERVICE, operation, 'a project has no key');
        projects.push({ key: c.key, name: typeof c.name === 'string' && c.name.trim() !== '' ? c.name : c.key });
      }
      if (p * PAGE_SIZE >= count || page.components.length === 0) return projects;
    }
  }

  /**
   * Every open issue of a project (`api/issues/search`, `resolved=false`, with rule names). A
   * project past the search window fails whole: a cut-off report would close the rest in DefectDojo.
   */
  async projectIssues(project: SonarQubeProject, retry: RetryPolicy, onRetry?: OnRetry): Promise<ProjectIssues> {
    const issues: SonarQubeIssue[] = [];
    const rules = new Map<string, string>();
    for (let p = 1; ; p++) {
      const operation = `issues of ${project.key} (page ${p})`;
      // `componentKeys`: renamed `components` in 10.2, where the old name still works; 9.9 knows only it.
      const query = new URLSearchParams({ componentKeys: project.key, resolved: 'false', additionalFields: 'rules', ps: String(PAGE_SIZE), p: String(p) });
      const page = await this.get(operation, '/api/issues/search', query, retry, onRetry);
      const count = total(page, operation);
      if (count > SEARCH_WINDOW) throw new SearchWindowExceeded(`${count} open issues; SonarQube's search pages through the first ${SEARCH_WINDOW} only, and a partial report would close the rest in DefectDojo`);
      if (!Array.isArray(page.issues)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no issues list');
      for (const raw of page.issues) {
        const parsed = issue(raw);
        if (!parsed) throw new UnexpectedAnswerError(SERVICE, operation, 'an issue has no key, rule or component');
        issues.push(parsed);
      }
      for (const r of Array.isArray(page.rules) ? (page.rules as { key?: unknown; name?: unknown }[]) : []) {
        if (typeof r?.key === 'string' && typeof r.name === 'string') rules.set(r.key, r.name);
      }
      if (p * PAGE_SIZE >= count || page.issues.length === 0) return { issues, rules };
    }
  }
}
