import { generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { jwtVerify } from 'jose';
// Loopback listener shared with the tests (ephemeral port, closes keep-alive sockets too).
import { listen, readBody, type Listening } from '../test/support/servers.js';

export interface DemoRepository {
  readonly owner: string;
  readonly name: string;
  readonly id: number;
}

/** What one mint asked for and got. The token itself is not kept: the demo never shows it. */
export interface MintRecord {
  readonly installationId: number;
  readonly repositoryIds: readonly number[];
  readonly permissions: Readonly<Record<string, string>>;
  readonly expiresAt: string;
}

const INSTALLATION_ID = 7001;
const TOKEN_LIFETIME_MS = 3_600_000;
const GRANT: Readonly<Record<string, string>> = { contents: 'write', pull_requests: 'write', metadata: 'read' };
const RANK: Readonly<Record<string, number>> = { read: 1, write: 2 };
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };

/**
 * The two GitHub REST calls behind `POST /token`, on loopback: the repository's installation and
 * the installation token, both only for a JWT signed with the app's key (`iss` = app id), with
 * GitHub's answer shapes. One app, installed on one repository. The tests' fake
 * (test/support/fake-github.ts) covers the whole broker surface with fault injection; the demo
 * only needs these two routes, so it has its own small one.
 */
export class DemoPlatform {
  readonly mints: MintRecord[] = [];
  /** Answers the console's sign-in (`/login/oauth/…`) and user-token calls (`/user…`), when set. */
  people?: { serve(req: IncomingMessage, res: ServerResponse): void };

  private constructor(
    private readonly listening: Listening,
    private readonly publicKey: KeyObject,
    readonly appId: string,
    /** PKCS#1 PEM, as GitHub hands it out. Goes to the backend's environment only. */
    readonly privateKeyPem: string,
    readonly repository: DemoRepository,
  ) {}

  static async start(repository: DemoRepository, appId = '90210'): Promise<DemoPlatform> {
    const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    let platform: DemoPlatform | undefined;
    const listening = await listen((req, res) => void platform!.handle(req, res));
    platform = new DemoPlatform(listening, publicKey, appId, pem, repository);
    return platform;
  }

  /** What `FORGE_API_BASE` is set to. */
  get url(): string {
    return this.listening.url;
  }

  get installationId(): number {
    return INSTALLATION_ID;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    // One host plays github.com and api.github.com: the person's side goes to the console's fake.
    if (this.people && (path.startsWith('/login/oauth/') || path === '/user' || path.startsWith('/user/'))) return this.people.serve(req, res);
    const body = await readBody(req);
    if (!(await this.appJwtValid(req.headers.authorization))) {
      return send(res, 401, { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' });
    }
    const { owner, name } = this.repository;
    if (req.method === 'GET' && path.toLowerCase() === `/repos/${owner}/${name}/installation`.toLowerCase()) {
      return send(res, 200, { id: INSTALLATION_ID, account: { login: owner, type: 'Organization' }, app_id: Number(this.appId), permissions: GRANT, suspended_at: null });
    }
    if (req.method === 'POST' && path === `/app/installations/${INSTALLATION_ID}/access_tokens`) return this.mint(body, res);
    send(res, 404, NOT_FOUND);
  }

  /** GitHub refuses (422) a repository outside the installation or a permission beyond its grant. */
  private mint(raw: string, res: ServerResponse): void {
    let request: { repository_ids?: unknown; permissions?: unknown };
    try {
      request = JSON.parse(raw || '{}') as typeof request;
    } catch {
      return send(res, 400, { message: 'Problems parsing JSON' });
    }
    const ids = Array.isArray(request.repository_ids) ? request.repository_ids : [this.repository.id];
    if (!ids.every((id) => id === this.repository.id)) return send(res, 422, { message: 'There is at least one repository that does not exist or is not accessible to the parent installation.' });
    const permissions = (request.permissions ?? GRANT) as Record<string, string>;
    for (const [permission, access] of Object.entries(permissions)) {
      if ((RANK[access] ?? 99) > (RANK[GRANT[permission] ?? ''] ?? 0)) {
        return send(res, 422, { message: 'The permissions requested are not granted to this installation.' });
      }
    }
    // GitHub writes timestamps without milliseconds.
    const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    this.mints.push({ installationId: INSTALLATION_ID, repositoryIds: ids as number[], permissions, expiresAt });
    send(res, 201, {
      token: `ghs_${randomBytes(27).toString('base64url')}`,
      expires_at: expiresAt,
      permissions,
      repository_selection: 'selected',
      repositories: [{ id: this.repository.id, name: this.repository.name, full_name: `${this.repository.owner}/${this.repository.name}` }],
    });
  }

  private async appJwtValid(authorization: string | undefined): Promise<boolean> {
    const jwt = /^(?:bearer|token) (\S+)$/i.exec(authorization ?? '')?.[1];
    if (!jwt) return false;
    try {
      const { payload } = await jwtVerify(jwt, this.publicKey, { algorithms: ['RS256'], requiredClaims: ['iat', 'exp'] });
      return String(payload.iss) === this.appId;
    } catch {
      return false;
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
