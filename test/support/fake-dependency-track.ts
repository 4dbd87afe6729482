import type { IncomingMessage, ServerResponse } from 'node:http';
import { Faults, latency, playFault, sendJson } from './faults.js';
import { listen, type Listening } from './servers.js';

export type DependencyTrackRoute = 'projects' | 'project' | 'export' | 'team_self';

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
  delayMs = 0;
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
              : 'unknown';
    const apiKey = req.headers['x-api-key'] as string | undefined;
    this.calls.push({ route, url: url.pathname + url.search, apiKey });
    await latency(this.delayMs);
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    if (req.method !== 'GET' || route === 'unknown') return sendJson(res, 404, undefined);
    // Dependency-Track answers a missing or wrong key with a bare 401.
    if (apiKey !== this.apiKey) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('Unauthorized');
    }
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
    res.writeHead(200, { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="findings.fpf"' });
    if (this.chunkedExports) {
      // Written in parts: Node sends it chunked, without a Content-Length, as a streaming server would.
      const half = Math.floor(text.length / 2);
      res.write(text.slice(0, half));
      return void res.end(text.slice(half));
    }
    res.end(text);
  }
}
