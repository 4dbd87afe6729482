import pLimit from 'p-limit';
import { multipartBody } from './multipart.js';
import { HttpError, UnexpectedAnswerError } from '../../http/call-errors.js';
import { jsonAnswer, send } from '../../http/send.js';
import { MINIMUM_DEFECTDOJO_VERSION, type ScanType } from './scan-types.js';
import { reimportCounts, type ReimportCounts } from './statistics.js';

const SERVICE = 'DefectDojo';

/** The page size of every list read. */
const PAGE = 100;

/** The next page of a DRF list. Only the query of `next` is used: behind a proxy its host and scheme can differ from ours. */
function nextPage(base: string, next: unknown): string | null {
  return typeof next === 'string' && URL.canParse(next) ? `${base}${new URL(next).search}` : null;
}

/**
 * What DefectDojo can store about the scan a report comes from, written on the test by every
 * reimport (`update_test_meta`); each as far as the source knows it. A field left out is written
 * empty by DefectDojo, so the test always shows the latest reimport's facts.
 */
export interface ScanFacts {
  readonly version?: string;
  readonly commitHash?: string;
  readonly branchTag?: string;
  readonly buildId?: string;
  /** The repository's web address; DefectDojo keeps it on the engagement when the reimport creates it. */
  readonly sourceCodeManagementUri?: string;
}

/** The Test model's column lengths (and the engagement's URL field): a longer value fails in DefectDojo's database with a 500. */
const SCAN_FACT_FIELDS: readonly { readonly key: keyof ScanFacts; readonly field: string; readonly max: number }[] = [
  { key: 'version', field: 'version', max: 100 },
  { key: 'commitHash', field: 'commit_hash', max: 150 },
  { key: 'branchTag', field: 'branch_tag', max: 150 },
  { key: 'buildId', field: 'build_id', max: 150 },
  { key: 'sourceCodeManagementUri', field: 'source_code_management_uri', max: 600 },
];

/**
 * The form fields of the facts DefectDojo accepts: a value too long for its column, or an address
 * its URLField refuses, is left out (and said through `note`) rather than failing the reimport.
 */
export function scanFactFields(facts: ScanFacts | undefined, note?: (text: string) => void): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { key, field, max } of SCAN_FACT_FIELDS) {
    const value = facts?.[key]?.trim();
    if (!value) continue;
    if (value.length > max) {
      note?.(`${field} is longer than DefectDojo stores (${max} characters); not sent`);
      continue;
    }
    if (key === 'sourceCodeManagementUri' && (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))) {
      note?.(`${field} is not an http(s) address; not sent`);
      continue;
    }
    fields[field] = value;
  }
  return fields;
}

export interface ReimportRequest {
  readonly scanType: ScanType;
  readonly productName: string;
  readonly engagementName: string;
  /**
   * Names the test inside the engagement, always: without it DefectDojo reimports into the newest
   * test of the scan type in the engagement, whichever that is (another project version's).
   */
  readonly testTitle: string;
  readonly filename: string;
  /** Whole, or a stream of known length; consumed once: a retry needs a new request. */
  readonly content: Uint8Array;
  /** Told what the operator should know about this reimport (a product found under another type). */
  readonly note?: (text: string) => void;
  /** What the source knows of the scan (version, commit, branch, build, repository). */
  readonly scan?: ScanFacts;
  /** The report's digest (`digests.ts`), sent as the test's `build_id`. */
  readonly digest?: string;
  /**
   * What this run's product directory says of the product (`productDirectory`): null when it was
   * not there; left out, the product is looked up before the upload.
   */
  readonly product?: KnownProduct | null;
}

/** A product as found: its product type's name (undefined when the token may not read the type). */
export interface KnownProduct {
  readonly productType: string | undefined;
}

/** A report larger than DefectDojo accepts: refused here, before anything is sent. */
export class UploadTooLarge extends Error {
  override readonly name = 'UploadTooLarge';
  /** `what` (the report) and its size in bytes; undefined when it was only seen to pass the limit. */
  constructor(what: string, bytes: number | undefined, limitBytes: number) {
    const size = bytes === undefined ? `over ${megabytes(limitBytes)}` : megabytes(bytes);
    super(`${what} is ${size} MB, above the upload limit of ${megabytes(limitBytes)} MB (DefectDojo's DD_SCAN_FILE_MAX_SIZE; defectdojo.maxUploadMb); not sent`);
  }
}

/** DefectDojo does not know the scan type: its release predates the parser. */
export class ScanTypeUnknown extends Error {
  override readonly name = 'ScanTypeUnknown';
}

/** Mebibytes as DefectDojo counts them (`file_size_mb`: bytes / 1048576), one decimal. */
const megabytes = (bytes: number): string => (bytes / 1048576).toFixed(1);

export interface DefectDojoClientOptions {
  readonly url: string;
  readonly token: string;
  readonly productType: string;
  readonly timeoutMs: number;
  /** Reimports of large reports take DefectDojo minutes. */
  readonly uploadTimeoutMs: number;
  /** The largest report sent, in bytes (default: DefectDojo's own default DD_SCAN_FILE_MAX_SIZE, 100 MB). */
  readonly maxUploadBytes?: number;
  /**
   * `defectdojo.doNotReactivate`: every reimport sends `do_not_reactivate=true`, so a finding closed
   * in DefectDojo (mitigated by hand or by an earlier reimport) stays closed when the report still
   * holds it.
   */
  readonly doNotReactivate?: boolean;
}

/** DefectDojo's default DD_SCAN_FILE_MAX_SIZE: 100 MB, counted as bytes / 1048576. */
const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1048576;

/** DefectDojo through its REST API v2, with one API token; never a password or session. */
export class DefectDojoClient {
  constructor(private readonly options: DefectDojoClientOptions) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Token ${this.options.token}`, accept: 'application/json', ...extra };
  }

  /** Product type names by id, kept for the client's life (a renamed type only makes a note stale). */
  private readonly productTypeNames = new Map<number, Promise<string | undefined>>();

  get doNotReactivate(): boolean {
    return this.options.doNotReactivate === true;
  }

  get maxUploadBytes(): number {
    return this.options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  }

  /**
   * `POST /api/v2/reimport-scan/`: creates the product, engagement and test when missing, closes
   * findings the report no longer holds, and deduplicates within the engagement.
   * `product_type_name` goes only with a product that does not exist yet: DefectDojo refuses (400)
   * a reimport whose type disagrees with an existing product's, e.g. after the product was moved.
   */
  async reimport(request: ReimportRequest): Promise<ReimportCounts | undefined> {
    const size = request.content.byteLength;
    if (size > this.maxUploadBytes) {
      throw new UploadTooLarge(`the ${request.scanType} report of ${request.productName}`, size, this.maxUploadBytes);
    }
    // Not kept by the client: the service's client lives across runs, and products move.
    const found = request.product !== undefined ? (request.product ?? undefined) : await this.product(request.productName);
    if (found && found.productType !== undefined && found.productType !== this.options.productType) {
      request.note?.(`product ${request.productName} is under product type "${found.productType}", not "${this.options.productType}"; synced where it is`);
    }
    const fields: Record<string, string> = {
      scan_type: request.scanType,
      ...(found ? {} : { product_type_name: this.options.productType }),
      product_name: request.productName,
      engagement_name: request.engagementName,
      test_title: request.testTitle,
      auto_create_context: 'true',
      close_old_findings: 'true',
      deduplication_on_engagement: 'true',
      ...(this.options.doNotReactivate ? { do_not_reactivate: 'true' } : {}),
      ...scanFactFields(request.digest ? { ...request.scan, buildId: request.digest } : request.scan, request.note),
    };
    const { contentType, body } = multipartBody(fields, { field: 'file', filename: request.filename, contentType: 'application/json', content: request.content });
    const operation = `reimport-scan of ${request.productName}`;
    let response: Response;
    try {
      response = await send(SERVICE, operation, `${this.options.url}/api/v2/reimport-scan/`, {
        method: 'POST',
        headers: this.headers({ 'content-type': contentType }),
        body,
        timeoutMs: this.options.uploadTimeoutMs,
      });
    } catch (err) {
      throw this.explained(err, request);
    }
    return reimportCounts(await jsonAnswer(SERVICE, operation, response));
  }

  /** DefectDojo's refusal of an unknown scan type (DRF's choice error), said as what it means. */
  private explained(err: unknown, request: ReimportRequest): unknown {
    // DRF's field error, "\"<type>\" is not a valid choice.", quoted as JSON or as Python's repr.
    const detail = (err instanceof HttpError ? (err.detail ?? '') : '').replace(/\\"/g, '"');
    if (!(err instanceof HttpError) || err.status !== 400 || !detail.includes(`"${request.scanType}" is not a valid choice`)) return err;
    const minimum = MINIMUM_DEFECTDOJO_VERSION[request.scanType] as string | undefined;
    return new ScanTypeUnknown(
      `DefectDojo at ${this.options.url} does not know the scan type "${request.scanType}"${minimum ? `: the server is too old for this source; it needs DefectDojo ${minimum} or later` : ''}`,
    );
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
  openFindings(productName: string, severities: readonly string[]): AsyncGenerator<unknown[]> {
    const query = { product_name: productName, active: 'true', severity: severities.join(','), not_tag: 'issue:', o: 'numerical_severity,id' };
    return this.pages('/api/v2/findings/', query, `findings of ${productName}`);
  }

  /**
   * Every finding of one product, in any state, with a tag containing `issue:` (the findings issue
   * push linked to an issue), every page; `tag` matches by substring, callers check again.
   */
  linkedFindings(productName: string): AsyncGenerator<unknown[]> {
    return this.pages('/api/v2/findings/', { product_name: productName, tag: 'issue:', o: 'id' }, `linked findings of ${productName}`);
  }

  /**
   * The findings of one product marked false positive, and those whose risk is accepted (two
   * lists: the API's filters are ANDed), every page, as DefectDojo holds them.
   */
  async triagedFindings(productName: string): Promise<{ id: number; uniqueIdFromTool: string; falseP: boolean; riskAccepted: boolean }[]> {
    const found = new Map<number, { id: number; uniqueIdFromTool: string; falseP: boolean; riskAccepted: boolean }>();
    for (const flag of ['false_p', 'risk_accepted'] as const) {
      for await (const results of this.pages<Record<string, unknown>>('/api/v2/findings/', { product_name: productName, [flag]: 'true', o: 'id' }, `triaged findings of ${productName}`)) {
        for (const f of results) {
          if (typeof f?.id !== 'number' || typeof f.unique_id_from_tool !== 'string' || f[flag] !== true) continue;
          found.set(f.id, { id: f.id, uniqueIdFromTool: f.unique_id_from_tool, falseP: f.false_p === true, riskAccepted: f.risk_accepted === true });
        }
      }
    }
    return [...found.values()];
  }

  /**
   * Every finding of one product whose `unique_id_from_tool` starts with `prefix` (the API's
   * filter matches substrings: checked again here), every page, as DefectDojo holds it.
   */
  async findingsByUniqueId(productName: string, prefix: string): Promise<{ id: number; uniqueIdFromTool: string; title: string; severity: string; active: boolean; vulnerabilityIds: string[] }[]> {
    const found = [];
    for await (const results of this.pages<Record<string, unknown>>('/api/v2/findings/', { product_name: productName, unique_id_from_tool: prefix }, `findings of ${productName}`)) {
      for (const f of results) {
        if (typeof f?.unique_id_from_tool !== 'string' || !f.unique_id_from_tool.startsWith(prefix) || typeof f.id !== 'number') continue;
        if (typeof f.title !== 'string' || typeof f.severity !== 'string') continue;
        const ids = Array.isArray(f.vulnerability_ids) ? f.vulnerability_ids.map((v: { vulnerability_id?: unknown }) => v?.vulnerability_id).filter((v): v is string => typeof v === 'string') : [];
        found.push({ id: f.id, uniqueIdFromTool: f.unique_id_from_tool, title: f.title, severity: f.severity, active: f.active === true, vulnerabilityIds: ids });
      }
    }
    return found;
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

  /**
   * Every test of one scan type (`GET /api/v2/tests/?scan_type=…`, every page): its engagement's
   * id, its title and its `build_id`, where the sync keeps the digest of the last report imported.
   */
  async tests(scanType: string): Promise<{ id: number; engagement: number; title: string; buildId: string }[]> {
    return this.all(
      '/api/v2/tests/',
      `test list (${scanType})`,
      (t: { id?: unknown; engagement?: unknown; title?: unknown; build_id?: unknown; scan_type?: unknown }) =>
        typeof t?.id === 'number' && typeof t.engagement === 'number' && (t.scan_type === undefined || t.scan_type === scanType)
          ? { id: t.id, engagement: t.engagement, title: typeof t.title === 'string' ? t.title : '', buildId: typeof t.build_id === 'string' ? t.build_id : '' }
          : undefined,
      { scan_type: scanType },
    );
  }

  /** Whether a product of exactly this name exists. */
  async productExists(name: string): Promise<boolean> {
    return (await this.product(name)) !== undefined;
  }

  /**
   * Every product's type by product name, for one run: two paged lists (`/product_types/`,
   * `/products/`) in place of a lookup before each reimport.
   */
  async productDirectory(): Promise<Map<string, KnownProduct>> {
    // The two lists are independent until products are given their types' names: read together.
    const [types, listed] = await Promise.all([
      this.all('/api/v2/product_types/', 'product type list', (t: { id?: unknown; name?: unknown }) =>
        typeof t?.id === 'number' && typeof t.name === 'string' ? ([t.id, t.name] as const) : undefined,
      ),
      this.all('/api/v2/products/', 'product list', (p: { name?: unknown; prod_type?: unknown }) =>
        typeof p?.name === 'string' ? ([p.name, typeof p.prod_type === 'number' ? p.prod_type : undefined] as const) : undefined,
      ),
    ]);
    const typeNames = new Map(types);
    return new Map(listed.map(([name, type]) => [name, { productType: type === undefined ? undefined : typeNames.get(type) }]));
  }

  /**
   * Every entry of a DRF list that `pick` keeps. The first page's `count` gives the number of
   * pages; the others are read by `offset`, four at a time (read one by one through `next`, the
   * product list of a large DefectDojo delayed every run's first reimport by a round trip a page).
   */
  private async all<E, T>(path: string, operation: string, pick: (entry: E) => T | undefined, query: Record<string, string> = {}): Promise<T[]> {
    const page = (offset: number) => this.page<E>(`${this.options.url}${path}?${new URLSearchParams({ ...query, limit: String(PAGE), offset: String(offset) })}`, operation);
    const first = await page(0);
    if (typeof first.count !== 'number' || !Number.isSafeInteger(first.count) || first.count < 0) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no count');
    const offsets: number[] = [];
    for (let offset = PAGE; offset < first.count; offset += PAGE) offsets.push(offset);
    const limit = pLimit(4);
    const rest = await Promise.all(offsets.map((offset) => limit(() => page(offset))));
    return [first, ...rest].flatMap(({ results }) => results.map((entry) => pick(entry))).filter((value): value is T => value !== undefined);
  }

  /** The product of exactly this name (`?name=` matches substrings), with its type's name: `prod_type` is an id. */
  private async product(name: string): Promise<KnownProduct | undefined> {
    for await (const results of this.pages<{ name?: unknown; prod_type?: unknown }>('/api/v2/products/', { name }, `product lookup of ${name}`)) {
      const product = results.find((p) => p?.name === name);
      if (product) {
        const typeId = typeof product.prod_type === 'number' ? product.prod_type : undefined;
        return { productType: typeId === undefined ? undefined : await this.productTypeName(typeId) };
      }
    }
    return undefined;
  }

  /** One page of a DRF list: its entries, the next page's address (ours: `nextPage`) and the total `count` as answered. */
  private async page<E>(url: string, operation: string): Promise<{ results: E[]; next: string | null; count: unknown }> {
    const response = await send(SERVICE, operation, url, { headers: this.headers(), timeoutMs: this.options.timeoutMs });
    const body = (await jsonAnswer(SERVICE, operation, response)) as { results?: unknown; next?: unknown; count?: unknown };
    if (!Array.isArray(body?.results)) throw new UnexpectedAnswerError(SERVICE, operation, 'the answer has no results list');
    return { results: body.results as E[], next: nextPage(url.split('?')[0]!, body.next), count: body.count };
  }

  /** Every page of a DRF list filtered by `query`, one after another through `next`: the caller may stop early. */
  private async *pages<E>(path: string, query: Record<string, string>, operation: string): AsyncGenerator<E[]> {
    let next: string | null = `${this.options.url}${path}?${new URLSearchParams({ ...query, limit: String(PAGE) })}`;
    while (next) {
      const page: { results: E[]; next: string | null } = await this.page<E>(next, operation);
      yield page.results;
      next = page.next;
    }
  }

  /** `GET /api/v2/product_types/{id}/`, once per id; undefined when the token may not read it. */
  private productTypeName(id: number): Promise<string | undefined> {
    let name = this.productTypeNames.get(id);
    if (!name) {
      const operation = `product type ${id}`;
      name = send(SERVICE, operation, `${this.options.url}/api/v2/product_types/${id}/`, { headers: this.headers(), timeoutMs: this.options.timeoutMs }).then(
        async (response) => {
          const body = (await jsonAnswer(SERVICE, operation, response)) as { name?: unknown };
          return typeof body?.name === 'string' ? body.name : undefined;
        },
        (err: unknown) => {
          if (err instanceof HttpError && (err.status === 403 || err.status === 404)) return undefined;
          throw err;
        },
      );
      this.productTypeNames.set(id, name);
      name.catch(() => this.productTypeNames.delete(id));
    }
    return name;
  }
}
