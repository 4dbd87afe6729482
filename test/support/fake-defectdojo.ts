import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Faults, latency, playFault, sendJson } from './faults.js';
import { listen, readBody, type Listening } from './servers.js';

export type DefectDojoRoute = 'reimport' | 'products' | 'findings' | 'finding' | 'finding_tags' | 'user_profile';

/** DefectDojo's scan types for the parsers this fake reads, as DefectDojo spells them. */
export const KNOWN_SCAN_TYPES = [
  'Dependency Track Finding Packaging Format (FPF) Export',
  'Github SAST Scan',
  'Github Vulnerability Scan',
  'Github Secrets Detection Report Scan',
  'SonarQube Scan',
  'SonarQube Scan detailed',
] as const;

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

/** What a parser stand-in reads from a report. */
interface Parsed {
  /** What DefectDojo's deduplication matches a reimported finding on, for this parser. */
  readonly identity: string;
  readonly title: string;
  readonly severity: Severity;
  readonly active: boolean;
  readonly uniqueIdFromTool?: string;
  readonly componentName?: string;
  readonly componentVersion?: string;
  readonly filePath?: string;
  readonly line?: number;
  readonly vulnerabilityIds?: readonly string[];
  readonly description?: string;
  /** The parser's CWE (0: none), as the finding's `cwe` field holds it. */
  readonly cwe?: number;
}

export interface FakeFinding extends Omit<Parsed, 'active'> {
  /** Changes when the finding is re-created (`recreate`), as a new DefectDojo row would. */
  id: number;
  active: boolean;
  /** Stored lowercased, as DefectDojo's tag field does. */
  tags: string[];
}

export interface FakeTest {
  readonly id: number;
  readonly product: string;
  readonly engagement: string;
  readonly scanType: string;
  readonly title: string | undefined;
  readonly findings: Map<string, FakeFinding>;
}

export interface RecordedUpload {
  readonly fields: Record<string, string>;
  readonly filename: string;
  /** The uploaded report, kept unless `keepUploads` is off (the benchmark). */
  readonly text?: string;
  readonly bytes: number;
}

/** The parser's error, as DefectDojo answers it: its exception handler gives 500 without details. */
class ParserCrash extends Error {}

function title(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
}

function severityOf(value: unknown): Severity {
  const v = String(value ?? '').toLowerCase();
  if (v === 'moderate') return 'medium';
  return (SEVERITIES as readonly string[]).includes(v) ? (v as Severity) : 'info';
}

function findVulnerabilityAlerts(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findVulnerabilityAlerts(item);
      if (found) return found;
    }
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'vulnerabilityAlerts') return value;
      const found = findVulnerabilityAlerts(value);
      if (found) return found;
    }
  }
  return undefined;
}


/**
 * Each parser as DefectDojo's behaves on the inputs that matter here, including where it crashes
 * (a null `security_severity_level`, a missing alert `id`, a null list) and what it deduplicates on.
 */
const PARSERS: Record<string, (data: unknown) => Parsed[]> = {
  'Dependency Track Finding Packaging Format (FPF) Export': (data) => {
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ParserCrash('not an FPF document');
    const findings = (data as { findings?: unknown }).findings ?? [];
    if (!Array.isArray(findings)) throw new ParserCrash('findings is not a list');
    return findings.map((f: { component: { name: string; version?: string }; vulnerability: { vulnId?: string; uuid?: string; severity?: string }; analysis?: { isSuppressed?: boolean } }) => {
      const { component, vulnerability } = f;
      if (!component || !vulnerability) throw new ParserCrash('finding without component or vulnerability');
      const id = vulnerability.vulnId ?? vulnerability.uuid;
      return {
        identity: `${component.name}:${component.version ?? ''}:${id}`,
        title: `${id} in ${component.name}:${component.version ?? ''}`,
        severity: severityOf(vulnerability.severity),
        active: f.analysis?.isSuppressed !== true,
        componentName: component.name,
        ...(component.version ? { componentVersion: component.version } : {}),
        ...(id ? { vulnerabilityIds: [id] } : {}),
      };
    });
  },
  'Github SAST Scan': (data) => {
    if (!Array.isArray(data)) throw new ParserCrash('Invalid SAST report format, expected a JSON list of alerts.');
    return data.map((alert: { number?: number; state?: string; rule?: Record<string, unknown> }) => {
      const rule = alert.rule ?? {};
      const level = 'security_severity_level' in rule ? rule.security_severity_level : 'Info';
      if (typeof level !== 'string') throw new ParserCrash("'NoneType' object has no attribute 'title'");
      return { identity: String(alert.number), title: `${String(rule.description)} (${String(rule.id)})`, severity: severityOf(title(level)), active: alert.state === 'open' };
    });
  },
  'Github Vulnerability Scan': (data) => {
    if (!data || typeof data !== 'object' || !('data' in data)) throw new ParserCrash("Invalid report file, no 'data' node found");
    const alerts = findVulnerabilityAlerts((data as { data: unknown }).data) as { nodes?: unknown } | undefined;
    if (!alerts) throw new ParserCrash("Invalid report, no 'vulnerabilityAlerts' node found");
    const nodes = alerts.nodes;
    if (!Array.isArray(nodes)) throw new ParserCrash("'NoneType' object is not iterable");
    const dupes = new Map<string, Parsed>();
    for (const alert of nodes as { id?: string; state?: string; securityVulnerability: { severity?: string; advisory: Record<string, unknown> } }[]) {
      if (alert.id === undefined) throw new ParserCrash("KeyError: 'id'");
      const advisory = alert.securityVulnerability?.advisory;
      if (!advisory || typeof advisory.summary !== 'string' || !('description' in advisory)) throw new ParserCrash("KeyError: 'summary'");
      for (const list of ['references', 'identifiers'] as const) if (list in advisory && !Array.isArray(advisory[list])) throw new ParserCrash("'NoneType' object is not iterable");
      if (!dupes.has(alert.id)) {
        dupes.set(alert.id, {
          identity: alert.id,
          title: advisory.summary,
          severity: severityOf(alert.securityVulnerability.severity ?? 'MODERATE'),
          active: alert.state !== 'FIXED' && alert.state !== 'DISMISSED',
        });
      }
    }
    return [...dupes.values()];
  },
  // DefectDojo's SonarQube parser in detailed mode on the sonar-report JSON: it recognises the
  // shape by truthy date, projectName and hotspotKeys (anything else yields no finding), reads
  // each issue's fields by key (a missing one crashes), and deduplicates on the issue key.
  'SonarQube Scan detailed': (data) => {
    const doc = data as { date?: unknown; projectName?: unknown; hotspotKeys?: unknown; rules?: Record<string, unknown>; issues?: Record<string, unknown>[] };
    const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
    if (!doc || !truthy(doc.date) || !truthy(doc.projectName) || !truthy(doc.hotspotKeys)) return [];
    if (!doc.rules || typeof doc.rules !== 'object') throw new ParserCrash("KeyError: 'rules'");
    if (!Array.isArray(doc.issues)) throw new ParserCrash("KeyError: 'issues'");
    const sonarSeverity = (v: string): Severity => ({ blocker: 'critical', critical: 'high', major: 'medium', minor: 'low', high: 'high', medium: 'medium', low: 'low' })[v.toLowerCase()] as Severity ?? 'info';
    const rules = doc.rules as Record<string, { htmlDesc?: unknown }>;
    return doc.issues.map((issue) => {
      for (const key of ['key', 'line', 'message', 'description', 'component', 'severity', 'rule']) if (!(key in issue)) throw new ParserCrash(`KeyError: '${key}'`);
      // The CWE: the first "CWE-<n>" in the rule key followed by the texts of the rule's htmlDesc links.
      const html = rules[String(issue.rule)]?.htmlDesc;
      const links = typeof html === 'string' ? [...html.matchAll(/<a\b[^>]*>([^<]*)<\/a>/gi)].map((m) => m[1]) : [];
      const cwe = /CWE-([0-9]*)/i.exec([String(issue.rule), ...links].join('\n'))?.[1];
      if (!/^\d+$/.test(String(issue.line))) throw new ParserCrash('invalid literal for int()');
      return {
        identity: String(issue.key),
        uniqueIdFromTool: String(issue.key),
        title: String(issue.description),
        severity: sonarSeverity(String(issue.severity)),
        active: true,
        filePath: String(issue.component),
        line: Number(issue.line),
        description: String(issue.message),
        cwe: cwe ? Number(cwe) : 0,
      };
    });
  },
  'Github Secrets Detection Report Scan': (data) => {
    if (!Array.isArray(data)) throw new ParserCrash('Invalid GitHub secrets detection report format, expected a JSON list of alerts.');
    return data.map((alert: { state?: string; secret_type?: string; secret_type_display_name?: string; validity?: string; publicly_leaked?: boolean }) => {
      const display = alert.secret_type_display_name ?? alert.secret_type ?? 'Unknown';
      const state = alert.state ?? 'open';
      const validity = alert.validity ?? 'unknown';
      const severity: Severity = state === 'resolved' ? 'info' : validity === 'active' && alert.publicly_leaked ? 'critical' : validity === 'active' ? 'high' : 'medium';
      const findingTitle = `Exposed Secret Detected: ${display}`;
      // No unique id: DefectDojo's legacy matching on title and severity.
      return { identity: `${findingTitle}|${severity}`, title: findingTitle, severity, active: true };
    });
  },
};

type Bucket = Record<'active' | 'verified' | 'duplicate' | 'false_p' | 'out_of_scope' | 'is_mitigated' | 'risk_accepted' | 'total', number>;

function statisticsOf(findings: Iterable<{ severity: Severity; active: boolean }>): Record<Severity | 'total', Bucket> {
  const empty = (): Bucket => ({ active: 0, verified: 0, duplicate: 0, false_p: 0, out_of_scope: 0, is_mitigated: 0, risk_accepted: 0, total: 0 });
  const out = { info: empty(), low: empty(), medium: empty(), high: empty(), critical: empty(), total: empty() };
  for (const f of findings) {
    for (const bucket of [out[f.severity], out.total]) {
      bucket.total++;
      if (f.active) bucket.active++;
      else bucket.is_mitigated++;
    }
  }
  return out;
}

/**
 * A loopback fake of DefectDojo's REST API v2 parts the sync uses: `POST /api/v2/reimport-scan/`
 * (multipart, checked as DefectDojo's serializer checks it; the report read by a stand-in of the
 * named parser; product, engagement and test created on demand; old findings closed; the 201
 * body with `statistics`) and `GET /api/v2/products/`. `Authorization: Token <key>` only.
 */
export class FakeDefectDojo {
  readonly faults = new Faults<DefectDojoRoute>();
  readonly calls: { route: DefectDojoRoute | 'unknown'; url: string; authorization: string | undefined; method?: string }[] = [];
  readonly uploads: RecordedUpload[] = [];
  readonly tests: FakeTest[] = [];
  readonly products = new Map<string, { id: number; productType: string }>();
  delayMs = 0;
  keepUploads = true;
  /** Off: answers without `statistics.delta`, as some DefectDojo versions do. */
  includeDelta = true;
  /** Most reimports in flight at once. */
  peakInFlight = 0;
  private inFlight = 0;
  private nextId = 1;

  private constructor(
    private readonly listening: Listening,
    readonly token: string,
  ) {}

  static async start(token = 'dd-api-token-0123456789abcdef'): Promise<FakeDefectDojo> {
    let fake: FakeDefectDojo | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeDefectDojo(listening, token);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  count(route: DefectDojoRoute): number {
    return this.calls.filter((c) => c.route === route).length;
  }

  testOf(product: string, scanType: string, testTitle?: string): FakeTest | undefined {
    return this.tests.find((t) => t.product === product && t.scanType === scanType && (testTitle === undefined || t.title === testTitle));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route: DefectDojoRoute | 'unknown' =
      url.pathname === '/api/v2/reimport-scan/'
        ? 'reimport'
        : url.pathname === '/api/v2/products/'
          ? 'products'
          : url.pathname === '/api/v2/findings/'
            ? 'findings'
            : /^\/api\/v2\/findings\/\d+\/$/.test(url.pathname)
              ? 'finding'
              : /^\/api\/v2\/findings\/\d+\/tags\/$/.test(url.pathname)
                ? 'finding_tags'
                : url.pathname === '/api/v2/user_profile/'
                  ? 'user_profile'
                  : 'unknown';
    this.calls.push({ route, url: url.pathname + url.search, authorization: req.headers.authorization, method: req.method ?? 'GET' });
    if (route === 'reimport') this.peakInFlight = Math.max(this.peakInFlight, ++this.inFlight);
    try {
      await latency(this.delayMs);
      if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
      const auth = req.headers.authorization;
      if (!auth) return sendJson(res, 401, { detail: 'Authentication credentials were not provided.' }, { 'www-authenticate': 'Token' });
      if (auth !== `Token ${this.token}`) return sendJson(res, 401, { detail: 'Invalid token.' }, { 'www-authenticate': 'Token' });
      if (route === 'products' && req.method === 'GET') return this.listProducts(url, res);
      // UserProfileView: the token's user (IsAuthenticated only), in UserProfileSerializer's shape.
      if (route === 'user_profile' && req.method === 'GET') {
        return sendJson(res, 200, {
          user: { id: 2, username: 'gatehouse-sync', first_name: '', last_name: '', email: '', is_active: true, is_superuser: false },
          user_contact_info: null,
          global_role: null,
          dojo_group_member: [],
          product_type_member: [],
          product_member: [],
        });
      }
      if (route === 'reimport' && req.method === 'POST') return await this.reimport(req, res);
      if (route === 'findings' && req.method === 'GET') return this.listFindings(url, res);
      if (route === 'finding' && req.method === 'PATCH') return await this.patchFinding(Number(url.pathname.split('/')[4]), req, res);
      if (route === 'finding_tags' && (req.method === 'GET' || req.method === 'POST')) return await this.findingTags(Number(url.pathname.split('/')[4]), req, res);
      if (route === 'finding_tags') return sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
      return sendJson(res, 404, { detail: 'Not found.' });
    } finally {
      if (route === 'reimport') this.inFlight--;
    }
  }

  private listProducts(url: URL, res: ServerResponse): void {
    const name = (url.searchParams.get('name') ?? '').toLowerCase();
    const limit = Number(url.searchParams.get('limit') ?? '20');
    const offset = Number(url.searchParams.get('offset') ?? '0');
    const all = [...this.products.entries()].filter(([n]) => n.toLowerCase().includes(name)).map(([n, p]) => ({ id: p.id, name: n, prod_type: p.productType }));
    const page = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? `http://defectdojo.internal/api/v2/products/?${new URLSearchParams({ name, limit: String(limit), offset: String(offset + limit) })}` : null;
    sendJson(res, 200, { count: all.length, next, previous: null, results: page, prefetch: {} });
  }

  /** Every finding with its test, for assertions. */
  findings(): { finding: FakeFinding; test: FakeTest }[] {
    return this.tests.flatMap((test) => [...test.findings.values()].map((finding) => ({ finding, test })));
  }

  /**
   * The findings of a product come back as new rows: new ids, no tags. What a reimport does to
   * findings it cannot match (for example after its test was deleted and re-created).
   */
  recreate(product: string): void {
    for (const { finding, test } of this.findings()) {
      if (test.product !== product) continue;
      finding.id = this.nextId++;
      finding.tags = [];
    }
  }

  /** Which product a finding id belongs to. */
  private findingById(id: number): { finding: FakeFinding; test: FakeTest } | undefined {
    return this.findings().find((f) => f.finding.id === id);
  }

  private findingJson({ finding, test }: { finding: FakeFinding; test: FakeTest }): unknown {
    return {
      id: finding.id,
      tags: finding.tags,
      title: finding.title,
      severity: title(finding.severity),
      numerical_severity: `S${4 - SEVERITIES.indexOf(finding.severity)}`,
      active: finding.active,
      verified: false,
      description: finding.description ?? finding.title,
      mitigation: null,
      component_name: finding.componentName ?? null,
      component_version: finding.componentVersion ?? null,
      file_path: finding.filePath ?? null,
      line: finding.line ?? null,
      cwe: finding.cwe ?? 0,
      vulnerability_ids: (finding.vulnerabilityIds ?? []).map((v) => ({ vulnerability_id: v })),
      unique_id_from_tool: finding.uniqueIdFromTool ?? null,
      hash_code: createHash('sha256').update(`${test.scanType}|${finding.identity}`).digest('hex'),
      test: test.id,
      found_by: [test.id],
    };
  }

  /** `GET /api/v2/findings/` with the filters issue push uses, limit/offset paging and an absolute `next` on another host. */
  private listFindings(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const product = q.get('product_name')?.toLowerCase();
    const active = q.get('active');
    const severities = q.get('severity')?.split(',');
    const notTag = q.get('not_tag')?.toLowerCase();
    if (active !== null && !['true', 'false'].includes(active)) return sendJson(res, 400, { active: ['Select a valid choice.'], message: 'active' });
    const all = this.findings()
      .filter(({ test }) => product === undefined || test.product.toLowerCase() === product)
      .filter(({ finding }) => active === null || String(finding.active) === active)
      .filter(({ finding }) => !severities || severities.includes(title(finding.severity)))
      .filter(({ finding }) => !notTag || !finding.tags.some((t) => t.includes(notTag)))
      .sort((a, b) => SEVERITIES.indexOf(b.finding.severity) - SEVERITIES.indexOf(a.finding.severity) || a.finding.id - b.finding.id);
    const limit = Number(q.get('limit') ?? '25');
    const offset = Number(q.get('offset') ?? '0');
    const next = new URLSearchParams(q);
    next.set('offset', String(offset + limit));
    sendJson(res, 200, {
      count: all.length,
      next: offset + limit < all.length ? `https://defectdojo.internal/api/v2/findings/?${next}` : null,
      previous: null,
      results: all.slice(offset, offset + limit).map((f) => this.findingJson(f)),
      prefetch: {},
    });
  }

  /** `PATCH /api/v2/findings/{id}/`: `tags` replaces the list, lowercased; DefectDojo's tag validation. */
  private async patchFinding(id: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const found = this.findingById(id);
    if (!found) return sendJson(res, 404, { detail: 'No Finding matches the given query.' });
    let body: { tags?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { tags?: unknown };
    } catch {
      return sendJson(res, 400, { message: 'JSON request content is malformed' });
    }
    if (body.tags !== undefined) {
      if (!Array.isArray(body.tags) || !body.tags.every((t) => typeof t === 'string')) return sendJson(res, 400, { tags: ['Expected a list of items.'] });
      const bad = body.tags.find((t: string) => /[ ,'"]/.test(t) || t.length > 255);
      if (bad !== undefined) return sendJson(res, 400, { tags: [`Invalid tag: '${bad}'. Tags should not contain spaces, commas, or quotes.`] });
      found.finding.tags = [...new Set(body.tags.map((t: string) => t.toLowerCase()))];
    }
    sendJson(res, 200, this.findingJson(found));
  }

  /**
   * `GET|POST /api/v2/findings/{id}/tags/` as DefectDojo's `FindingViewSet.tags` action: the POST
   * body is `TagSerializer` (`{"tags": [...]}`, required, a list of strings, or a JSON list as a
   * string), each tag split on commas and validated like `tag_validator`; new tags are appended to
   * the finding's (lowercased, duplicates dropped) without touching anything else of the finding
   * (no save of other fields, so no JIRA push). The answer is 200 with `{"tags": [...]}`.
   */
  private async findingTags(id: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const found = this.findingById(id);
    if (!found) return sendJson(res, 404, { detail: 'No Finding matches the given query.' });
    if (req.method === 'POST') {
      let body: { tags?: unknown };
      try {
        body = JSON.parse(await readBody(req)) as { tags?: unknown };
      } catch {
        return sendJson(res, 400, { detail: 'JSON parse error - Expecting value: line 1 column 1 (char 0)' });
      }
      let tags = body?.tags;
      if (tags === undefined) return sendJson(res, 400, { tags: ['This field is required.'] });
      if (typeof tags === 'string') {
        try {
          tags = tags === '' ? [] : JSON.parse(tags);
        } catch {
          return sendJson(res, 400, { tags: ['Invalid json list. A tag list submitted in string form must be valid json.'] });
        }
      }
      if (!Array.isArray(tags)) return sendJson(res, 400, { tags: [`Expected a list of items but got type "${typeof tags === 'object' ? 'dict' : typeof tags}".`] });
      if (!tags.every((t) => typeof t === 'string')) return sendJson(res, 400, { tags: ['All list items must be of string type.'] });
      const parts = (tags as string[]).flatMap((t) => t.match(/(?:"[^"]*"|[^",]+)/g) ?? []);
      const bad = parts.find((t) => /[ ,'"]/.test(t));
      if (bad !== undefined) return sendJson(res, 400, { tags: [`Invalid tag: '${bad}'. Tags should not contain spaces, commas, or quotes.`] });
      for (const tag of parts.map((t) => t.toLowerCase())) if (!found.finding.tags.includes(tag)) found.finding.tags.push(tag);
    }
    sendJson(res, 200, { tags: found.finding.tags });
  }

  private async reimport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let form: FormData;
    try {
      form = await new Response(Readable.toWeb(req) as ReadableStream, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return sendJson(res, 400, { detail: 'Multipart form parse error - Invalid boundary in multipart: None' });
    }
    const fields: Record<string, string> = {};
    let file: File | undefined;
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') fields[key] = value;
      else if (key === 'file') file = value;
    }
    const errors: Record<string, string[]> = {};
    const scanType = fields.scan_type;
    if (!scanType) errors.scan_type = ['This field is required.'];
    else if (!(KNOWN_SCAN_TYPES as readonly string[]).includes(scanType)) errors.scan_type = [`"${scanType}" is not a valid choice.`];
    if (!file) errors.file = ['No file was submitted.'];
    else if (!/\.(json|fpf|sarif|xml|csv|txt)$/i.test(file.name)) errors.file = [`File extension “${file.name.split('.').pop()}” is not allowed.`];
    if (Object.keys(errors).length > 0) return sendJson(res, 400, errors);
    const auto = fields.auto_create_context === 'true';
    if (!auto) return sendJson(res, 400, { non_field_errors: ['Test to reimport into not found and auto_create_context is not set'] });
    if (!fields.product_name || !fields.engagement_name) return sendJson(res, 400, { non_field_errors: ['product_name and engagement_name are required with auto_create_context'] });
    if (!this.products.has(fields.product_name) && !fields.product_type_name) return sendJson(res, 400, { non_field_errors: ['Product Type must be given to create a product'] });

    const text = await file!.text();
    this.uploads.push({ fields, filename: file!.name, bytes: Buffer.byteLength(text), ...(this.keepUploads ? { text } : {}) });
    let parsed: Parsed[];
    try {
      parsed = PARSERS[scanType!]!(JSON.parse(text));
    } catch {
      return sendJson(res, 500, { message: 'Internal server error, check logs for details' });
    }

    if (!this.products.has(fields.product_name)) this.products.set(fields.product_name, { id: this.nextId++, productType: fields.product_type_name! });
    let test = this.tests.find(
      (t) => t.product === fields.product_name && t.engagement === fields.engagement_name && t.scanType === scanType && (fields.test_title ? t.title === fields.test_title : true),
    );
    if (!test) {
      test = { id: this.nextId++, product: fields.product_name, engagement: fields.engagement_name, scanType: scanType!, title: fields.test_title, findings: new Map() };
      this.tests.push(test);
    }
    const before = statisticsOf([...test.findings.values()].map((f) => ({ ...f })));
    const created: FakeFinding[] = [];
    const reactivated: FakeFinding[] = [];
    const untouched: FakeFinding[] = [];
    const closed: FakeFinding[] = [];
    const seen = new Set<string>();
    for (const finding of parsed) {
      if (seen.has(finding.identity)) continue;
      seen.add(finding.identity);
      const existing = test.findings.get(finding.identity);
      if (!existing) {
        const f: FakeFinding = { ...finding, id: this.nextId++, tags: [] };
        test.findings.set(f.identity, f);
        created.push(f);
      } else if (!existing.active && finding.active) {
        existing.active = true;
        reactivated.push(existing);
      } else {
        untouched.push(existing);
      }
    }
    if (fields.close_old_findings !== 'false') {
      for (const f of test.findings.values()) {
        if (f.active && !seen.has(f.identity)) {
          f.active = false;
          closed.push(f);
        }
      }
    }
    const after = statisticsOf(test.findings.values());
    const product = this.products.get(fields.product_name)!;
    sendJson(res, 201, {
      scan_type: scanType,
      product_type_name: fields.product_type_name,
      product_name: fields.product_name,
      engagement_name: fields.engagement_name,
      test_title: fields.test_title ?? null,
      auto_create_context: true,
      close_old_findings: fields.close_old_findings !== 'false',
      deduplication_on_engagement: fields.deduplication_on_engagement === 'true',
      test: test.id,
      test_id: test.id,
      product_id: product.id,
      statistics: {
        before,
        ...(this.includeDelta
          ? { delta: { created: statisticsOf(created), closed: statisticsOf(closed), reactivated: statisticsOf(reactivated), untouched: statisticsOf(untouched) } }
          : {}),
        after,
      },
    });
  }
}
