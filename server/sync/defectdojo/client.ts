import { multipartBody } from '../http/multipart.js';
import { jsonBody, send, UnexpectedAnswerError, type SendOptions } from '../http/request.js';
import type { ScanType } from './scan-types.js';
import { reimportCounts, type ReimportCounts } from './statistics.js';

const SERVICE = 'DefectDojo';

/** The next page of a DRF list. Only the query of `next` is used: behind a proxy its host and scheme can differ from ours. */
function nextPage(base: string, next: unknown): string | null {
  return typeof next === 'string' && URL.canParse(next) ? `${base}${new URL(next).search}` : null;
}

export interface ReimportRequest {
  readonly scanType: ScanType;
  readonly productName: string;
  readonly engagementName: string;
  /** Names the test inside the engagement, so one scan type can hold several (project versions). */
  readonly testTitle?: string;
  readonly filename: string;
  /** Consumed once: a retry needs a new request. */
  readonly content: AsyncIterable<Uint8Array> | Uint8Array;
}

export interface DefectDojoClientOptions {
  readonly url: string;
  readonly token: string;
  readonly productType: string;
  readonly timeoutMs: number;
  /** Reimports of large reports take DefectDojo minutes. */
  readonly uploadTimeoutMs: number;
}

/** DefectDojo through its REST API v2, with one API token; never a password or session. */
export class DefectDojoClient {
  constructor(private readonly options: DefectDojoClientOptions) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Token ${this.options.token}`, accept: 'application/json', ...extra };
  }

  /**
   * `POST /api/v2/reimport-scan/`: creates the product, engagement and test when missing, closes
   * findings the report no longer holds, and deduplicates within the engagement.
   */
  async reimport(request: ReimportRequest): Promise<ReimportCounts | undefined> {
    const fields: Record<string, string> = {
      scan_type: request.scanType,
      product_type_name: this.options.productType,
      product_name: request.productName,
      engagement_name: request.engagementName,
      auto_create_context: 'true',
      close_old_findings: 'true',
      deduplication_on_engagement: 'true',
    };
    if (request.testTitle) fields.test_title = request.testTitle;
    const { contentType, body } = multipartBody(fields, { field: 'file', filename: request.filename, contentType: 'application/json', content: request.content });
    const operation = `reimport-scan of ${request.productName}`;
    const response = await send(SERVICE, operation, `${this.options.url}/api/v2/reimport-scan/`, {
      method: 'POST',
      headers: this.headers({ 'content-type': contentType }),
      body,
      duplex: 'half',
      timeoutMs: this.options.uploadTimeoutMs,
    } as SendOptions);
    return reimportCounts(await jsonBody(SERVICE, operation, response, this.options.uploadTimeoutMs));
  }

  /** The cheapest authenticated call: proves DefectDojo answers and accepts the token. */
  async ping(timeoutMs = this.options.timeoutMs): Promise<void> {
    const response = await send(SERVICE, 'health check', `${this.options.url}/api/v2/products/?limit=1`, { headers: this.headers(), timeoutMs });
    await response.arrayBuffer();
  }

  /**
   * `GET /api/v2/user_profile/`: the token's own user, the cheapest call that needs only a valid
   * token; made before anything is exported, so a refused token stops a run before its first export.
   */
  async checkToken(): Promise<void> {
    const response = await send(SERVICE, 'token check (user_profile)', `${this.options.url}/api/v2/user_profile/`, { headers: this.headers(), timeoutMs: this.options.timeoutMs });
    await response.arrayBuffer();
  }

  /**
   * Active findings of one product at the given severities that carry no `issue:` tag, worst
   * first, every page. `not_tag` matches case-insensitively by substring; callers check again.
   */
  async *openFindings(productName: string, severities: readonly string[]): AsyncGenerator<unknown[]> {
    const base = `${this.options.url}/api/v2/findings/`;
    const query = new URLSearchParams({
      product_name: productName,
      active: 'true',
      severity: severities.join(','),
      not_tag: 'issue:',
      o: 'numerical_severity,id',
      limit: '100',
    });
    let next: string | null = `${base}?${query}`;
    const operation = `findings of ${productName}`;
    while (next) {
      const response = await send(SERVICE, operation, next, { headers: this.headers(), timeoutMs: this.options.timeoutMs });
      const page = (await jsonBody(SERVICE, operation, response, this.options.timeoutMs)) as { results?: unknown; next?: unknown };
      if (!Array.isArray(page?.results)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no results list');
      yield page.results;
      next = nextPage(base, page.next);
    }
  }

  /**
   * `POST /api/v2/findings/{id}/tags/` (`{"tags": [...]}`): DefectDojo adds the tags to the
   * finding's own and saves nothing else. A finding `PATCH` would save the whole finding, which can
   * push it to JIRA and fail there.
   */
  async addFindingTags(id: number, tags: readonly string[]): Promise<void> {
    const operation = `tagging of finding ${id}`;
    const response = await send(SERVICE, operation, `${this.options.url}/api/v2/findings/${id}/tags/`, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ tags }),
      timeoutMs: this.options.timeoutMs,
    });
    await response.arrayBuffer();
  }

  /** Whether a product of exactly this name exists (the API's `name` filter matches substrings). */
  async productExists(name: string): Promise<boolean> {
    const base = `${this.options.url}/api/v2/products/`;
    let next: string | null = `${base}?${new URLSearchParams({ name, limit: '100' })}`;
    const operation = `product lookup of ${name}`;
    while (next) {
      const response = await send(SERVICE, operation, next, { headers: this.headers(), timeoutMs: this.options.timeoutMs });
      const page = (await jsonBody(SERVICE, operation, response, this.options.timeoutMs)) as { results?: unknown; next?: unknown };
      if (!Array.isArray(page?.results)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no results list');
      if (page.results.some((p: { name?: unknown }) => p?.name === name)) return true;
      next = nextPage(base, page.next);
    }
    return false;
  }
}
