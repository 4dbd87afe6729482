import type { IncomingMessage, ServerResponse } from 'node:http';
import { Faults, playFault, sendJson } from './faults.js';
import { listen, type Listening } from './servers.js';

export type SonarQubeRoute = 'components' | 'issues' | 'validate' | 'hotspots' | 'rules';

export interface FakeSonarProject {
  readonly key: string;
  readonly name: string;
  /** Issues as `api/issues/search` returns them; `resolution` set means resolved. */
  issues: Record<string, unknown>[];
  /** Hotspots as `api/hotspots/search` returns them; `status` TO_REVIEW or REVIEWED. */
  hotspots?: Record<string, unknown>[];
}

const MAX_PAGE_SIZE = 500;
const WINDOW = 10_000;

/**
 * A loopback fake of the SonarQube web API the connector reads: `api/components/search`
 * (qualifiers required) and `api/issues/search` (componentKeys, resolved, additionalFields=rules),
 * with SonarQube's paging (`p`, `ps` up to 500, `paging{pageIndex,pageSize,total}`), its
 * 10,000-result window (400 `{"errors":[{"msg":…}]}`), 401 with an empty body for a bad token,
 * and only projects the token may browse.
 */
export class FakeSonarQube {
  readonly projects: FakeSonarProject[] = [];
  readonly faults = new Faults<SonarQubeRoute>();
  readonly calls: { route: SonarQubeRoute | 'unknown'; query: URLSearchParams; authorization: string | undefined }[] = [];
  /** Keys of projects the token may not browse: left out of every answer, as SonarQube's permission filter does. */
  readonly hidden = new Set<string>();
  /** Rule names for `additionalFields=rules`. */
  readonly ruleNames = new Map<string, string>();
  /** The CWEs of each rule's security standards, as `api/rules/search`'s `cwe` facet counts them. */
  readonly ruleCwes = new Map<string, string[]>();
  /** Set: the instance reports this many issues for any project (to reach the search window without holding them). */
  totalOverride?: number;

  private constructor(
    private readonly listening: Listening,
    readonly token: string,
  ) {}

  static async start(token = 'squ_fakeSonarToken0123456789abcdef01234567'): Promise<FakeSonarQube> {
    let fake: FakeSonarQube | undefined;
    const listening = await listen((req, res) => void fake!.handle(req, res));
    fake = new FakeSonarQube(listening, token);
    return fake;
  }

  get url(): string {
    return this.listening.url;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  count(route: SonarQubeRoute): number {
    return this.calls.filter((c) => c.route === route).length;
  }

  addProject(key: string, name = key, issues: Record<string, unknown>[] = []): FakeSonarProject {
    const project = { key, name, issues };
    this.projects.push(project);
    return project;
  }

  /** A security hotspot of `project` as `api/hotspots/search` returns it (10.x: with `ruleKey`). */
  static hotspot(project: string, n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      key: `AZhs${project.replace(/[^A-Za-z0-9]/g, '')}${String(n).padStart(6, '0')}`,
      component: `${project}:app/settings.py`,
      project,
      securityCategory: 'csrf',
      vulnerabilityProbability: 'HIGH',
      status: 'TO_REVIEW',
      line: n,
      message: 'Make sure allowing safe and unsafe HTTP methods is safe here.',
      author: 'dev@example.com',
      creationDate: '2026-10-01T10:00:00+0000',
      updateDate: '2026-10-01T10:00:00+0000',
      ruleKey: 'python:S3752',
      flows: [],
      messageFormattings: [],
      ...overrides,
    };
  }

  /** An issue of `project` in SonarQube 10.x's shape. */
  static issue(project: string, n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      key: `AY${project.replace(/[^A-Za-z0-9]/g, '')}${String(n).padStart(6, '0')}`,
      rule: 'python:S4502',
      severity: 'CRITICAL',
      component: `${project}:app/views.py`,
      project,
      line: n,
      hash: 'f2e5e8c1b0a',
      textRange: { startLine: n, endLine: n, startOffset: 0, endOffset: 10 },
      flows: [],
      status: 'OPEN',
      message: 'Make sure disabling CSRF protection is safe here.',
      effort: '5min',
      author: 'dev@example.com',
      tags: ['cwe'],
      creationDate: '2026-10-01T10:00:00+0000',
      updateDate: '2026-10-01T10:00:00+0000',
      type: 'VULNERABILITY',
      impacts: [{ softwareQuality: 'SECURITY', severity: 'HIGH' }],
      ...overrides,
    };
  }

  private paging(url: URL, res: ServerResponse): { p: number; ps: number } | undefined {
    const p = Number(url.searchParams.get('p') ?? '1');
    const ps = Number(url.searchParams.get('ps') ?? '100');
    if (!Number.isInteger(ps) || ps < 1 || ps > MAX_PAGE_SIZE) {
      sendJson(res, 400, { errors: [{ msg: `'ps' value (${url.searchParams.get('ps')}) must be less than ${MAX_PAGE_SIZE}` }] });
      return undefined;
    }
    if (p * ps > WINDOW) {
      sendJson(res, 400, { errors: [{ msg: `Can return only the first ${WINDOW} results. ${p * ps}th result asked.` }] });
      return undefined;
    }
    return { p, ps };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const route: SonarQubeRoute | 'unknown' =
      url.pathname === '/api/components/search'
        ? 'components'
        : url.pathname === '/api/issues/search'
          ? 'issues'
          : url.pathname === '/api/authentication/validate'
            ? 'validate'
            : url.pathname === '/api/hotspots/search'
              ? 'hotspots'
              : url.pathname === '/api/rules/search'
                ? 'rules'
                : 'unknown';
    this.calls.push({ route, query: url.searchParams, authorization: req.headers.authorization });
    if (route !== 'unknown' && (await playFault(this.faults.take(route), req, res))) return;
    // api/authentication/validate answers 200 whatever the token; `valid` says whether it was accepted.
    if (route === 'validate') return sendJson(res, 200, { valid: req.headers.authorization === `Basic ${Buffer.from(`${this.token}:`).toString('base64')}` });
    if (req.headers.authorization !== `Basic ${Buffer.from(`${this.token}:`).toString('base64')}`) {
      res.writeHead(401).end();
      return;
    }
    if (route === 'unknown' || req.method !== 'GET') return sendJson(res, 404, { errors: [{ msg: `Unknown url : ${url.pathname}` }] });
    const paging = this.paging(url, res);
    if (!paging) return;
    const { p, ps } = paging;
    const visible = this.projects.filter((pr) => !this.hidden.has(pr.key));
    if (route === 'components') {
      if (!url.searchParams.get('qualifiers')) return sendJson(res, 400, { errors: [{ msg: "The 'qualifiers' parameter is missing" }] });
      const all = visible.map((pr) => ({ key: pr.key, name: pr.name, qualifier: 'TRK', project: pr.key }));
      return sendJson(res, 200, { paging: { pageIndex: p, pageSize: ps, total: all.length }, components: all.slice((p - 1) * ps, p * ps) });
    }
    if (route === 'rules') {
      // One rule by `rule_key`; the `cwe` facet over it lists its CWEs ("unknown" when it has none).
      const key = url.searchParams.get('rule_key');
      const known = key !== null && (this.ruleNames.has(key) || this.ruleCwes.has(key) || visible.some((pr) => pr.issues.some((i) => i.rule === key) || (pr.hotspots ?? []).some((h) => h.ruleKey === key)));
      const matched = known ? [{ key, name: this.ruleNames.get(key!) ?? `Rule ${key}` }] : [];
      const facets = (url.searchParams.get('facets') ?? '').split(',').includes('cwe')
        ? [{ name: 'cwe', values: known ? (this.ruleCwes.get(key!)?.length ? this.ruleCwes.get(key!)!.map((val) => ({ val, count: 1 })) : [{ val: 'unknown', count: 1 }]) : [] }]
        : [];
      return sendJson(res, 200, { total: matched.length, p, ps, paging: { pageIndex: p, pageSize: ps, total: matched.length }, rules: matched.slice(0, ps), facets });
    }
    if (route === 'hotspots') {
      const projectKey = url.searchParams.get('projectKey') ?? url.searchParams.get('project');
      if (!projectKey) return sendJson(res, 400, { errors: [{ msg: "A value must be provided for either parameter 'project' or parameter 'hotspots'" }] });
      const status = url.searchParams.get('status');
      const all = visible.filter((pr) => pr.key === projectKey).flatMap((pr) => pr.hotspots ?? []).filter((h) => !status || h.status === status);
      const pageOf = all.slice((p - 1) * ps, p * ps);
      return sendJson(res, 200, { paging: { pageIndex: p, pageSize: ps, total: all.length }, hotspots: pageOf, components: [{ key: projectKey, qualifier: 'TRK', name: projectKey, longName: projectKey }] });
    }
    const keys = (url.searchParams.get('componentKeys') ?? url.searchParams.get('components') ?? '').split(',').filter(Boolean);
    const unresolved = url.searchParams.get('resolved') === 'false';
    const types = url.searchParams.get('types')?.split(',');
    const issues = visible
      .filter((pr) => keys.length === 0 || keys.includes(pr.key))
      .flatMap((pr) => pr.issues)
      .filter((i) => !unresolved || !i.resolution)
      .filter((i) => !types || types.includes(String(i.type)));
    const total = this.totalOverride ?? issues.length;
    const page = issues.slice((p - 1) * ps, p * ps);
    const withRules = (url.searchParams.get('additionalFields') ?? '').split(',').includes('rules');
    const rules = [...new Set(page.map((i) => String(i.rule)))].map((key) => ({ key, name: this.ruleNames.get(key) ?? `Rule ${key}`, status: 'READY', lang: 'py', langName: 'Python' }));
    return sendJson(res, 200, {
      total,
      p,
      ps,
      paging: { pageIndex: p, pageSize: ps, total },
      effortTotal: 0,
      issues: page,
      components: keys.map((key) => ({ key, enabled: true, qualifier: 'TRK', name: key, longName: key })),
      ...(withRules ? { rules } : {}),
      facets: [],
    });
  }
}
