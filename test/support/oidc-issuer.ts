import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose';
import { stallBody } from './faults.js';
import { listen, type Listening } from './servers.js';

/** The claim set GitHub Actions puts in its OIDC tokens (values of a plausible run). */
export interface GithubClaims {
  iss: string;
  aud: string | string[];
  sub: string;
  repository: string;
  repository_id: string;
  repository_owner: string;
  repository_owner_id: string;
  ref: string;
  sha: string;
  run_id: string;
  run_attempt: string;
  actor: string;
  job_workflow_ref: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly publicPem: string;
}

export type IssuerMode = 'ok' | 'down' | 'hang' | 'stall-body' | 'garbage';

/** RSA JWS algorithms `signAs` can sign with (RFC 7518 §3.3 and §3.5). */
export type RsaAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512';

export const DEFAULT_AUDIENCE = 'gatehouse-ledger';

async function makeKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk, publicPem: await exportSPKI(publicKey) };
}

/**
 * A test OIDC issuer on loopback: real RSA keys made with jose, a JWKS endpoint at
 * `/.well-known/jwks` (GitHub's path) that counts its fetches and can be made to fail or hang,
 * and a runner-compatible token endpoint: `ACTIONS_ID_TOKEN_REQUEST_URL` + `&audience=…`
 * answered with `{"value": <jwt>}` when called with `ACTIONS_ID_TOKEN_REQUEST_TOKEN`.
 */
export class TestIssuer {
  jwksFetches = 0;
  mode: IssuerMode = 'ok';
  /** Claims the runner token endpoint puts in the tokens it hands out. */
  runnerClaims: Partial<GithubClaims> = {};
  readonly runnerRequestToken = randomBytes(24).toString('hex');
  runnerTokenRequests = 0;
  /** The last token the runner endpoint handed out (to check that it never leaks). */
  lastRunnerToken: string | undefined;

  private constructor(
    private readonly listening: Listening,
    private readonly keys: SigningKey[],
  ) {}

  static async start(): Promise<TestIssuer> {
    const keys = [await makeKey()];
    let issuer: TestIssuer | undefined;
    const listening = await listen((req, res) => void issuer!.handle(req, res));
    issuer = new TestIssuer(listening, keys);
    return issuer;
  }

  get url(): string {
    return this.listening.url;
  }

  get jwksUrl(): string {
    return `${this.url}/.well-known/jwks`;
  }

  /** What a runner's `ACTIONS_ID_TOKEN_REQUEST_URL` looks like (it already has a query). */
  get runnerTokenUrl(): string {
    return `${this.url}/_runner/id-token?api-version=2.0`;
  }

  get kid(): string {
    return this.keys[0]!.kid;
  }

  get publicPem(): string {
    return this.keys[0]!.publicPem;
  }

  jwks(): JSONWebKeySet {
    return { keys: this.keys.map((k) => k.publicJwk) };
  }

  /**
   * Adds a key (a rotation); new tokens are signed with it. Returns its `kid`. A key made
   * beforehand (`TestIssuer.strayKey()`) makes the rotation instant, for tests that time it.
   */
  async rotate(prepared?: SigningKey): Promise<string> {
    const key = prepared ?? (await makeKey());
    this.keys.unshift(key);
    return key.kid;
  }

  /** A key this issuer does not publish (to sign tokens its JWKS cannot verify). */
  static async strayKey(): Promise<SigningKey> {
    return makeKey();
  }

  claims(overrides: Partial<Record<keyof GithubClaims, unknown>> = {}, nowMs = Date.now()): Record<string, unknown> {
    const now = Math.floor(nowMs / 1000);
    const base: GithubClaims = {
      iss: this.url,
      aud: DEFAULT_AUDIENCE,
      sub: 'repo:octo-org/octo-repo:environment:production',
      repository: 'octo-org/octo-repo',
      repository_id: '123456789',
      repository_owner: 'octo-org',
      repository_owner_id: '987654',
      ref: 'refs/heads/main',
      sha: 'a'.repeat(40),
      run_id: '1111111111',
      run_attempt: '1',
      actor: 'octocat',
      job_workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main',
      iat: now,
      nbf: now,
      exp: now + 300,
      jti: randomUUID(),
    };
    return { ...base, ...overrides };
  }

  /**
   * Signs a GitHub-shaped token. `omit` drops claims; `kid`/`header` shape the header;
   * `signWith` uses another key (for example a stray one).
   */
  async mint(
    overrides: Partial<Record<keyof GithubClaims, unknown>> = {},
    options: { omit?: (keyof GithubClaims)[]; kid?: string; header?: Record<string, unknown>; signWith?: SigningKey; nowMs?: number } = {},
  ): Promise<string> {
    const key = options.signWith ?? this.keys[0]!;
    const claims = this.claims(overrides, options.nowMs);
    for (const name of options.omit ?? []) delete claims[name];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: options.kid ?? key.kid, ...options.header })
      .sign(key.privateKey);
  }

  /**
   * Signs any header and payload with this issuer's current key material under any RSA
   * algorithm (the key is re-imported for it), bypassing jose's checks on the header: so a
   * token can carry `crit`, an `alg` that does not name the signing algorithm, or a payload no JWT
   * builder would accept, and still verify cryptographically against the published key. `alg`
   * picks the signing algorithm and is the header's `alg` unless `header` says otherwise.
   */
  async signAs(alg: RsaAlgorithm, payload: Record<string, unknown> | string, header: Record<string, unknown> = {}): Promise<string> {
    const key = this.keys[0]!;
    const pss = alg.startsWith('PS');
    const hash = `SHA-${alg.slice(2)}`;
    const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key.privateKey as unknown as webcrypto.CryptoKey);
    const material = await webcrypto.subtle.importKey('pkcs8', pkcs8, { name: pss ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5', hash }, false, ['sign']);
    const encode = (value: Record<string, unknown> | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const input = `${encode({ alg, typ: 'JWT', kid: key.kid, ...header })}.${encode(payload)}`;
    const signature = await webcrypto.subtle.sign(
      pss ? { name: 'RSA-PSS', saltLength: Number(alg.slice(2)) / 8 } : { name: 'RSASSA-PKCS1-v1_5' },
      material,
      new TextEncoder().encode(input),
    );
    return `${input}.${Buffer.from(signature).toString('base64url')}`;
  }

  close(): Promise<void> {
    return this.listening.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname === '/.well-known/jwks') {
      this.jwksFetches++;
      if (this.mode === 'hang') return; // never answers; the client's timeout must end it
      if (this.mode === 'stall-body') return stallBody(res); // headers, then the body stalls
      if (this.mode === 'down') return json(res, 503, { message: 'unavailable' });
      if (this.mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys": [');
        return;
      }
      return json(res, 200, this.jwks());
    }
    if (url.pathname === '/_runner/id-token') {
      this.runnerTokenRequests++;
      if (req.headers.authorization !== `Bearer ${this.runnerRequestToken}`) return json(res, 401, { message: 'bad request token' });
      const audience = url.searchParams.get('audience') ?? this.url;
      this.lastRunnerToken = await this.mint({ ...this.runnerClaims, aud: audience });
      return json(res, 200, { count: 1, value: this.lastRunnerToken });
    }
    json(res, 404, { message: 'Not Found' });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
