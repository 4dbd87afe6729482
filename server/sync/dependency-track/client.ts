import { HttpError, retryTransient, UnexpectedAnswerError } from '../../http/call-errors.js';
import { jsonAnswer, send } from '../../http/send.js';
import pLimit from 'p-limit';
import type { RetryPolicy } from '../../http/retry.js';

const SERVICE = 'Dependency-Track';
const PAGE_SIZE = 100;
const LIST_CONCURRENCY = 4;
/** What the key's team needs: the project list and each project's findings. */
export const REQUIRED_PERMISSIONS = ['VIEW_PORTFOLIO', 'VIEW_VULNERABILITY'] as const;

type OnRetry = (error: Error, retry: number, delayMs: number) => void;

export interface DependencyTrackProject {
  readonly uuid: string;
  readonly name: string;
  readonly version?: string;
  readonly active: boolean;
  /** The project's `vcs` external reference, when it has one: its source repository. */
  readonly vcsUrl?: string;
}

/** A finding of Dependency-Track: its project's, component's and vulnerability's UUIDs (the FPF `matrix`). */
export interface FindingRef {
  readonly project: string;
  readonly component: string;
  readonly vulnerability: string;
}

export interface DependencyTrackClientOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
}

function project(value: unknown): DependencyTrackProject | undefined {
  const p = value as { uuid?: unknown; name?: unknown; version?: unknown; active?: unknown; externalReferences?: unknown } | null;
  if (!p || typeof p.uuid !== 'string' || typeof p.name !== 'string' || p.name.trim() === '') return undefined;
  // CycloneDX external reference types; Dependency-Track serialises them in lower case.
  const references = Array.isArray(p.externalReferences) ? (p.externalReferences as { type?: unknown; url?: unknown }[]) : [];
  const vcs = references.find((r) => typeof r?.type === 'string' && r.type.toLowerCase() === 'vcs' && typeof r.url === 'string' && r.url.trim() !== '');
  return {
    uuid: p.uuid,
    name: p.name,
    ...(typeof p.version === 'string' && p.version.trim() !== '' ? { version: p.version } : {}),
    active: p.active !== false,
    ...(vcs ? { vcsUrl: (vcs.url as string).trim() } : {}),
  };
}

/** Undefined for a 404: what Dependency-Track answers for a UUID or an analysis it has none of. */
async function unlessMissing<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return undefined;
    throw err;
  }
}

/** Dependency-Track's REST API v1 with an API key (`X-Api-Key`). */
export class DependencyTrackClient {
  constructor(private readonly options: DependencyTrackClientOptions) {}

  private get headers(): Record<string, string> {
    return { 'x-api-key': this.options.apiKey, accept: 'application/json' };
  }

  /**
   * A `GET` of the API read as JSON, `read` checking the answer within the attempt. Retried while
   * its failure is transient when given a policy; without one, the caller retries a larger step.
   */
  private async get<T>(operation: string, path: string, read: (body: unknown, response: Response) => T, retry?: RetryPolicy, onRetry?: OnRetry): Promise<T> {
    const attempt = async (): Promise<T> => {
      const response = await send(SERVICE, operation, `${this.options.url}${path}`, { headers: this.headers, timeoutMs: this.options.timeoutMs });
      return read(await jsonAnswer(SERVICE, operation, response), response);
    };
    return retry ? retryTransient(attempt, retry, onRetry) : attempt();
  }

  /**
   * `GET /api/v1/team/self`: the key's team and its permissions. Throws `HttpError` when the key
   * is refused; answers the permissions the sync needs that the team lacks (empty when it has
   * them, or when the server does not list them).
   */
  missingPermissions(retry: RetryPolicy, onRetry?: OnRetry, required: readonly string[] = REQUIRED_PERMISSIONS): Promise<string[]> {
    const read = (body: unknown): string[] => {
      const permissions = (body as { permissions?: unknown } | null)?.permissions;
      if (!Array.isArray(permissions)) return [];
      const held = new Set(permissions.map((p: { name?: unknown }) => p?.name));
      return required.filter((name) => !held.has(name));
    };
    return this.get('key check (team/self)', '/api/v1/team/self', read, retry, onRetry);
  }

  /** One page of the project list, retried on its own. */
  private page(pageNumber: number, excludeInactive: boolean, retry: RetryPolicy, onRetry?: OnRetry): Promise<{ items: unknown[]; total: number | undefined }> {
    const query = new URLSearchParams({ pageNumber: String(pageNumber), pageSize: String(PAGE_SIZE), sortName: 'name', sortOrder: 'asc' });
    if (excludeInactive) query.set('excludeInactive', 'true');
    const operation = `project list (page ${pageNumber})`;
    const read = (body: unknown, response: Response) => {
      if (!Array.isArray(body)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer is not a list of projects');
      if (!body.every((item) => project(item))) throw new UnexpectedAnswerError(SERVICE, operation, 'a project has no uuid or name');
      const header = response.headers.get('x-total-count');
      return { items: body, total: header !== null && /^\d+$/.test(header) ? Number(header) : undefined };
    };
    return this.get(operation, `/api/v1/project?${query}`, read, retry, onRetry);
  }

  /**
   * Every project (`pageNumber` from 1, `pageSize`, `X-Total-Count`). Once the first page gives
   * the total, the other pages are fetched together rather than one after another; without the
   * header, page by page until a short one.
   */
  async listProjects(excludeInactive: boolean, retry: RetryPolicy, onRetry?: OnRetry): Promise<DependencyTrackProject[]> {
    const first = await this.page(1, excludeInactive, retry, onRetry);
    const pages = [first.items];
    if (first.total !== undefined) {
      const rest = Array.from({ length: Math.max(0, Math.ceil(first.total / PAGE_SIZE) - 1) }, (_, i) => i + 2);
      const limit = pLimit(LIST_CONCURRENCY);
      pages.push(...(await Promise.all(rest.map((n) => limit(async () => (await this.page(n, excludeInactive, retry, onRetry)).items)))));
    } else {
      for (let n = 2, last = first.items; last.length === PAGE_SIZE; n++) {
        last = (await this.page(n, excludeInactive, retry, onRetry)).items;
        pages.push(last);
      }
    }
    // Dependency-Track filters inactive projects itself; the check here covers servers that ignore the parameter.
    return pages.flat().map((item) => project(item)!).filter((p) => !excludeInactive || p.active);
  }

  /** `GET /api/v1/project/{uuid}`: one project; undefined when Dependency-Track has none of that UUID (404). */
  projectByUuid(uuid: string, retry: RetryPolicy, onRetry?: OnRetry): Promise<DependencyTrackProject | undefined> {
    const operation = `project ${uuid}`;
    const read = (body: unknown): DependencyTrackProject => {
      const found = project(body);
      if (!found) throw new UnexpectedAnswerError(SERVICE, operation, 'the project has no uuid or name');
      return found;
    };
    return unlessMissing(this.get(operation, `/api/v1/project/${encodeURIComponent(uuid)}`, read, retry, onRetry));
  }

  /** `GET /api/v1/analysis?project=&component=&vulnerability=`: the finding's analysis state; undefined when it has none (404). */
  analysisState(finding: FindingRef): Promise<string | undefined> {
    const query = new URLSearchParams({ project: finding.project, component: finding.component, vulnerability: finding.vulnerability });
    const read = (body: unknown): string | undefined => {
      const state = (body as { analysisState?: unknown } | null)?.analysisState;
      return typeof state === 'string' ? state : undefined;
    };
    // 404 "No analysis exists." (or the finding is gone: the PUT says so).
    return unlessMissing(this.get(`analysis of ${finding.vulnerability} in ${finding.project}`, `/api/v1/analysis?${query}`, read));
  }

  /** `PUT /api/v1/analysis`: records an analysis decision with a comment (VULNERABILITY_ANALYSIS); suppression is left as it is. */
  async recordAnalysis(finding: FindingRef, analysisState: 'FALSE_POSITIVE' | 'NOT_AFFECTED', comment: string): Promise<void> {
    const operation = `analysis of ${finding.vulnerability} in ${finding.project}`;
    const response = await send(SERVICE, operation, `${this.options.url}/api/v1/analysis`, {
      method: 'PUT',
      headers: { ...this.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ project: finding.project, component: finding.component, vulnerability: finding.vulnerability, analysisState, comment }),
      timeoutMs: this.options.timeoutMs,
    });
    await response.arrayBuffer();
  }

  /** `GET /api/v1/finding/project/{uuid}/export`: the FPF document, read whole, at most `maxBytes` (else a `TransportError` caused by `AnswerTooLarge`). */
  async exportFindings(project: DependencyTrackProject, maxBytes: number): Promise<Buffer> {
    const response = await send(SERVICE, `FPF export of ${project.name}`, `${this.options.url}/api/v1/finding/project/${encodeURIComponent(project.uuid)}/export`, {
      headers: this.headers,
      timeoutMs: this.options.uploadTimeoutMs,
      maxBytes,
    });
    return Buffer.from(await response.arrayBuffer());
  }
}
