import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAfter, Faults, playFault, sendJson } from './faults.js';
import { listen, type Listening } from './servers.js';

export type DependencyTrackRoute = 'projects' | 'project' | 'export' | 'team_self' | 'analysis';

/** AnalysisState, as Dependency-Track's model names it. */
const ANALYSIS_STATES = ['EXPLOITABLE', 'IN_TRIAGE', 'FALSE_POSITIVE', 'NOT_AFFECTED', 'RESOLVED', 'NOT_SET'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface FakeAnalysis {
  analysisState: string;
  isSuppressed: boolean;
  /** The audit trail: each comment as given. */
  comments: string[];
}

export interface FakeProject {
  readonly uuid: string;
  readonly name: string;
  readonly version?: string;
  readonly active?: boolean;
  /** The FPF document served by the export, as text (a fixture file) or built from `findings`. */
  readonly document?: string;
  readonly findings?: readonly unknown[];
  /** The project's external references, as the project list gives them (`{type, url}`, type in lower case). */
  readonly externalReferences?: readonly { type: string; url: string }[];
}

/**
 * A loopback fake of the Dependency-Track REST API v1 parts `sync` uses: the paginated project
 * list (`pageNumber` from 1, `pageSize`, `X-Total-Count`, `excludeInactive`) and the FPF export,
 * behind `X-Api-Key`.
 */
export class FakeDependencyTrack {
  /** On: exports come chunked, without a Content-Length. */
  chunkedExports = false;
  readonly projects: FakeProject[] = [];
  readonly faults = new Faults<DependencyTrackRoute>();
  readonly calls: { route: DependencyTrackRoute | 'unknown'; url: string; apiKey: string | undefined }[] = [];
  /** Every answer leaves this long after its request arrived (`answerAfter`). */
  delayMs = 0;
  /** Analysis decisions by `<project>:<component>:<vulnerability>` UUIDs. */
  readonly analyses = new Map<string, FakeAnalysis>();
  /** The permissions of the key's team, as `GET /api/v1/team/self` lists them. */
  permissions: string[] = ['VIEW_PORTFOLIO', 'VIEW_VULNERABILITY'];

  private constructor(
    private readonly listening: Listening,
    readonly apiKey: string,
  ) {}

  static async start(apiKey = 'odt_test0123456789abcdef'): Promise<FakeDependencyTrack> {
    let fake: FakeDependencyTrack | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeDependencyTrack(listening, apiKey);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  count(route: DependencyTrackRoute): number {
    return this.calls.filter((c) => c.route === route).length;
  }

  /**
   * The FPF document of a project, as the export serves it: `meta.timestamp` is the time of the
   * export, as Dependency-Track writes it (whole seconds), so two exports of the same findings differ.
   */
  documentOf(project: FakeProject, at = new Date()): string {
    if (project.document !== undefined) return project.document;
    return JSON.stringify({
      version: '1.2',
      meta: { application: 'Dependency-Track', version: '4.12.0', timestamp: at.toISOString().replace(/\.\d{3}Z$/, 'Z'), baseUrl: this.url },
      project: { uuid: project.uuid, name: project.name, ...(project.version ? { version: project.version } : {}) },
      findings: project.findings ?? [],
    });
  }

  /** Whether the project's findings hold this component and vulnerability. */
  private holds(projectUuid: string, component: string, vulnerability: string): 'project' | 'component' | 'vulnerability' | undefined {
    const project = this.projects.find((p) => p.uuid === projectUuid);
    if (!project) return 'project';
    const findings = (JSON.parse(this.documentOf(project)) as { findings: { component: { uuid: string }; vulnerability: { uuid: string } }[] }).findings;
    if (!findings.some((f) => f.component.uuid === component)) return 'component';
    if (!findings.some((f) => f.vulnerability.uuid === vulnerability)) return 'vulnerability';
    return undefined;
  }

  /**
   * \`GET|PUT /api/v1/analysis\` as AnalysisResource has them: VULNERABILITY_ANALYSIS required (403);
   * the UUIDs checked by pattern (400); 404 with a text body for an unknown project, component or
   * vulnerability, or (GET) no analysis; PUT answers the analysis, a comment added to its trail.
   */
  private async analysis(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    if (!this.permissions.includes('VULNERABILITY_ANALYSIS')) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      return void res.end('Forbidden');
    }
    const text = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    };
    let ids: { project?: unknown; component?: unknown; vulnerability?: unknown };
    let body: { analysisState?: unknown; comment?: unknown; isSuppressed?: unknown } = {};
    if (req.method === 'GET') ids = Object.fromEntries(url.searchParams);
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as typeof body;
      } catch {
        return text(400, 'Unable to process JSON');
      }
      ids = body as typeof ids;
    }
    for (const key of ['project', 'component', 'vulnerability'] as const) {
      if (typeof ids[key] !== 'string' || !UUID.test(ids[key] as string)) return sendJson(res, 400, [{ message: `The ${key} must be a valid 36 character UUID`, messageTemplate: `The ${key} must be a valid 36 character UUID`, path: key, invalidValue: String(ids[key]) }]);
    }
    const missing = this.holds(ids.project as string, ids.component as string, ids.vulnerability as string);
    if (missing) return text(404, `The ${missing} could not be found.`);
    const key = `${ids.project}:${ids.component}:${ids.vulnerability}`;
    const held = this.analyses.get(key);
    if (req.method === 'GET') return held ? sendJson(res, 200, { analysisState: held.analysisState, isSuppressed: held.isSuppressed, analysisComments: held.comments.map((comment) => ({ comment })) }) : text(404, 'No analysis exists.');
    if (body.analysisState !== undefined && !ANALYSIS_STATES.includes(String(body.analysisState))) return text(400, 'Unable to process JSON');
    const analysis = held ?? { analysisState: 'NOT_SET', isSuppressed: false, comments: [] };
    if (body.analysisState !== undefined) analysis.analysisState = String(body.analysisState);
    if (typeof body.isSuppressed === 'boolean') analysis.isSuppressed = body.isSuppressed;
    if (typeof body.comment === 'string' && body.comment.trim() !== '') analysis.comments.push(body.comment.trim());
    this.analyses.set(key, analysis);
    sendJson(res, 200, { analysisState: analysis.analysisState, isSuppressed: analysis.isSuppressed, analysisComments: analysis.comments.map((comment) => ({ comment })) });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const exportMatch = /^\/api\/v1\/finding\/project\/([^/]+)\/export$/.exec(url.pathname);
    const projectMatch = /^\/api\/v1\/project\/([^/]+)$/.exec(url.pathname);
    const route: DependencyTrackRoute | 'unknown' =
      url.pathname === '/api/v1/project'
        ? 'projects'
        : exportMatch
          ? 'export'
          : projectMatch
            ? 'project'
            : url.pathname === '/api/v1/team/self'
              ? 'team_self'
              : url.pathname === '/api/v1/analysis'
                ? 'analysis'
                : 'unknown';
    const apiKey = req.headers['x-api-key'] as string | undefined;
    this.calls.push({ route, url: url.pathname + url.search, apiKey });
    answerAfter(res, this.delayMs);
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    if ((req.method !== 'GET' && !(route === 'analysis' && req.method === 'PUT')) || route === 'unknown') return sendJson(res, 404, undefined);
    // Dependency-Track answers a missing or wrong key with a bare 401.
    if (apiKey !== this.apiKey) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('Unauthorized');
    }
    if (route === 'analysis') return this.analysis(req, url, res);
    if (route === 'team_self') {
      // TeamSelfResponse: the team's uuid, name and permissions.
      return sendJson(res, 200, { uuid: '6a1b2c3d-0000-4000-8000-000000000001', name: 'gatehouse-sync', permissions: this.permissions.map((name) => ({ name, description: name })) });
    }
    const listed = (p: FakeProject) => ({
      uuid: p.uuid,
      name: p.name,
      ...(p.version ? { version: p.version } : {}),
      active: p.active !== false,
      classifier: 'APPLICATION',
      ...(p.externalReferences ? { externalReferences: p.externalReferences } : {}),
    });
    if (route === 'project') {
      // ProjectResource.getProject: 404 with a text body for an unknown UUID.
      const one = this.projects.find((p) => p.uuid === decodeURIComponent(projectMatch![1]!));
      if (!one) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('The project could not be found.');
      }
      return sendJson(res, 200, listed(one));
    }
    if (route === 'projects') {
      const pageNumber = Number(url.searchParams.get('pageNumber') ?? '1');
      const pageSize = Number(url.searchParams.get('pageSize') ?? '100');
      const visible = url.searchParams.get('excludeInactive') === 'true' ? this.projects.filter((p) => p.active !== false) : this.projects;
      const page = visible.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
      const body = page.map(listed);
      return sendJson(res, 200, body, { 'x-total-count': String(visible.length) });
    }
    const project = this.projects.find((p) => p.uuid === decodeURIComponent(exportMatch![1]!));
    if (!project) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('The project could not be found.');
    }
    const text = this.documentOf(project);
    const headers = { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="findings.fpf"' };
    if (this.chunkedExports) {
      // Written in parts: Node sends it chunked, without a Content-Length, as a streaming server would.
      res.writeHead(200, headers);
      const half = Math.floor(text.length / 2);
      res.write(text.slice(0, half));
      return void res.end(text.slice(half));
    }
    // Whole, with its length stated (writeHead without one would make Node send it chunked too).
    res.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}
