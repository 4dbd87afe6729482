import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { startBackend, type Backend } from '../support/backend.js';
import { call } from '../support/http.js';
import { TestIssuer } from '../support/oidc-issuer.js';

const record = { delivery_id: 'auth-test', environment: 'production', status: 'success' };

describe('ledger: authentication and access control', () => {
  let backend: Backend;
  let deployments: string;

  before(async () => {
    backend = await startBackend();
    deployments = `${backend.url}/v1/deployments`;
  });
  after(() => backend.close());
  afterEach(() => {
    backend.env.LEDGER_ALLOWED_OWNERS = 'octo-org';
    backend.env.LEDGER_AUDIENCE = 'gatehouse-ledger';
    backend.issuer.mode = 'ok';
  });

  const bothRoutes = async (token: string | undefined, expect: { status: number; body: Record<string, unknown> }) => {
    for (const res of [await call(deployments, { token, json: record }), await call(deployments, { ...(token ? { token } : {}) })]) {
      assert.equal(res.status, expect.status, res.text);
      assert.deepEqual(res.body, expect.body);
    }
  };

  it('no bearer token: 401 invalid_token (missing_token) with a WWW-Authenticate challenge', async () => {
    await bothRoutes(undefined, { status: 401, body: { error: 'invalid_token', reason: 'missing_token' } });
    const res = await call(deployments, {});
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
  });

  it('another scheme, or an empty bearer: 401 missing_token', async () => {
    for (const authorization of ['Basic b2N0bzpwdw==', 'Bearer ', 'Bearer', 'token abc']) {
      const res = await call(deployments, { headers: { authorization } });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'invalid_token', reason: 'missing_token' });
    }
  });

  const rejected: [string, () => Promise<string>, string][] = [
    ['alg none', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(backend.issuer.claims())).toString('base64url')}.`, 'algorithm_not_allowed'],
    [
      'HS256 signed with the public key',
      () => new SignJWT(backend.issuer.claims()).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(backend.issuer.publicPem)),
      'algorithm_not_allowed',
    ],
    ['a stray signing key', async () => backend.issuer.mint({}, { signWith: await TestIssuer.strayKey(), kid: backend.issuer.kid }), 'signature_invalid'],
    ['a wrong issuer', () => backend.issuer.mint({ iss: 'https://token.actions.githubusercontent.com' }), 'issuer_not_trusted'],
    ['a wrong audience', () => backend.issuer.mint({ aud: 'https://github.com/octo-org' }), 'audience_mismatch'],
    ['an expired token', () => backend.issuer.mint({ exp: Math.floor(Date.now() / 1000) - 61 }), 'expired'],
    ['a future nbf', () => backend.issuer.mint({ nbf: Math.floor(Date.now() / 1000) + 120 }), 'not_yet_valid'],
    ['no repository_id', () => backend.issuer.mint({}, { omit: ['repository_id'] }), 'missing_claims'],
    ['garbage', async () => 'not.a.jwt', 'malformed'],
  ];
  for (const [label, token, reason] of rejected) {
    it(`${label}: 401 invalid_token with reason ${reason}`, async () => {
      await bothRoutes(await token(), { status: 401, body: { error: 'invalid_token', reason } });
    });
  }

  it('LEDGER_AUDIENCE unset: every token is refused', async () => {
    backend.env.LEDGER_AUDIENCE = '';
    await bothRoutes(await backend.issuer.mint(), { status: 401, body: { error: 'invalid_token', reason: 'audience_mismatch' } });
  });

  it('owner not in LEDGER_ALLOWED_OWNERS: 403 forbidden owner_not_allowed', async () => {
    const token = await backend.issuer.mint({ repository: 'evil-org/app', repository_owner: 'evil-org' });
    await bothRoutes(token, { status: 403, body: { error: 'forbidden', reason: 'owner_not_allowed' } });
  });

  it('an empty LEDGER_ALLOWED_OWNERS denies every caller', async () => {
    backend.env.LEDGER_ALLOWED_OWNERS = ' , ';
    await bothRoutes(await backend.issuer.mint(), { status: 403, body: { error: 'forbidden', reason: 'owner_not_allowed' } });
    delete backend.env.LEDGER_ALLOWED_OWNERS;
    await bothRoutes(await backend.issuer.mint(), { status: 403, body: { error: 'forbidden', reason: 'owner_not_allowed' } });
  });

  it('repository_owner disagreeing with the repository claim: 403 owner_mismatch', async () => {
    const token = await backend.issuer.mint({ repository: 'evil-org/octo-repo', repository_owner: 'octo-org' });
    await bothRoutes(token, { status: 403, body: { error: 'forbidden', reason: 'owner_mismatch' } });
  });

  it('owner logins compare case-insensitively', async () => {
    backend.env.LEDGER_ALLOWED_OWNERS = 'Octo-Org, other';
    const token = await backend.issuer.mint({ repository: 'OCTO-ORG/octo-repo', repository_owner: 'octo-org' });
    const res = await call(deployments, { token });
    assert.equal(res.status, 200);
  });

  it('key set unreachable: 503 jwks_unavailable, retryable', async () => {
    const fresh = await startBackend({ keySets: { timeoutMs: 300 } });
    try {
      fresh.issuer.mode = 'down';
      const token = await fresh.issuer.mint();
      const res = await call(`${fresh.url}/v1/deployments`, { token, json: record });
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { error: 'jwks_unavailable' });
      assert.equal(res.headers.get('retry-after'), '5');
    } finally {
      await fresh.close();
    }
  });

  it('a pinned key set (LEDGER_JWKS_DOCUMENT) verifies with no call to the issuer', async () => {
    const issuer = await TestIssuer.start();
    const pinned = await startBackend({ issuer, env: { LEDGER_JWKS_DOCUMENT: JSON.stringify(issuer.jwks()) } });
    try {
      issuer.mode = 'down';
      const res = await call(`${pinned.url}/v1/deployments`, { token: await issuer.mint(), json: record });
      assert.equal(res.status, 201);
      assert.equal(issuer.jwksFetches, 0);
    } finally {
      await pinned.close();
      await issuer.close();
    }
  });

  it('an unusable setting answers 500 misconfigured and names the setting only in the log', async () => {
    backend.env.LEDGER_RETENTION_DAYS = 'forever';
    try {
      const res = await call(deployments, { token: await backend.issuer.mint() });
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { error: 'misconfigured' });
      assert.match(backend.logs.text(), /LEDGER_RETENTION_DAYS must be a whole number/);
    } finally {
      delete backend.env.LEDGER_RETENTION_DAYS;
    }
  });

  it('never writes a token to the log; logs its fingerprint and the repository', async () => {
    const token = await backend.issuer.mint();
    await call(deployments, { token, json: { ...record, delivery_id: 'log-check' } });
    const forged = await backend.issuer.mint({ aud: 'nope' });
    await call(deployments, { token: forged });
    const text = backend.logs.text();
    assert.ok(!text.includes(token), 'token in log');
    assert.ok(!text.includes(forged), 'rejected token in log');
    assert.ok(!text.includes(token.split('.')[2]!), 'signature in log');
    assert.ok(backend.logs.lines().some((l) => typeof l.token_sha256 === 'string' && l.repository_id === '123456789'));
  });
});
