import { jsonBody, send, UnexpectedAnswerError } from '../http/request.js';
import { retrying, type RetryPolicy } from '../http/retry.js';

const SERVICE = 'Dependency-Track';
const PAGE_SIZE = 100;

export interface DependencyTrackProject {
  readonly uuid: string;
  readonly name: string;
  readonly version?: string;
  readonly active: boolean;
}

export interface DependencyTrackClientOptions {
  readonly url: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
}

function project(value: unknown): DependencyTrackProject | undefined {
  const p = value as { uuid?: unknown; name?: unknown; version?: unknown; active?: unknown } | null;
  if (!p || typeof p.uuid !== 'string' || typeof p.name !== 'string' || p.name.trim() === '') return undefined;
  return {
    uuid: p.uuid,
    name: p.name,
    ...(typeof p.version === 'string' && p.version.trim() !== '' ? { version: p.version } : {}),
    active: p.active !== false,
  };
}

/** Dependency-Track's REST API v1 with an API key (`X-Api-Key`). */
export class DependencyTrackClient {
  constructor(private readonly options: DependencyTrackClientOptions) {}

  private get headers(): Record<string, string> {
    return { 'x-api-key': this.options.apiKey, accept: 'application/json' };
  }

  /** Every project, page by page (`pageNumber` from 1, `pageSize`, `X-Total-Count`); each page retried on its own. */
  async listProjects(excludeInactive: boolean, retry: RetryPolicy, onRetry?: (error: Error, retry: number, delayMs: number) => void): Promise<DependencyTrackProject[]> {
    const projects: DependencyTrackProject[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const query = new URLSearchParams({ pageNumber: String(pageNumber), pageSize: String(PAGE_SIZE), sortName: 'name', sortOrder: 'asc' });
      if (excludeInactive) query.set('excludeInactive', 'true');
      const operation = `project list (page ${pageNumber})`;
      const { items, total } = await retrying(
        async () => {
          const response = await send(SERVICE, operation, `${this.options.url}/api/v1/project?${query}`, { headers: this.headers, timeoutMs: this.options.timeoutMs });
          const body = await jsonBody(SERVICE, operation, response, this.options.timeoutMs);
          if (!Array.isArray(body)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer is not a list of projects');
          const header = response.headers.get('x-total-count');
          return { items: body, total: header !== null && /^\d+$/.test(header) ? Number(header) : undefined };
        },
        retry,
        onRetry,
      );
      for (const item of items) {
        const p = project(item);
        if (!p) throw new UnexpectedAnswerError(SERVICE, operation, 'a project has no uuid or name');
        if (!excludeInactive || p.active) projects.push(p);
      }
      // Without X-Total-Count a short page is the last one.
      if (items.length === 0 || (total !== undefined ? pageNumber * PAGE_SIZE >= total : items.length < PAGE_SIZE)) return projects;
    }
  }

  /** `GET /api/v1/finding/project/{uuid}/export`: the FPF document, body unread so it can be streamed on. */
  exportFindings(project: DependencyTrackProject, signal?: AbortSignal): Promise<Response> {
    return send(SERVICE, `FPF export of ${project.name}`, `${this.options.url}/api/v1/finding/project/${encodeURIComponent(project.uuid)}/export`, {
      headers: this.headers,
      timeoutMs: this.options.uploadTimeoutMs,
      ...(signal ? { signal } : {}),
    });
  }
}
