import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import type { RejectionReason } from '../../server/auth/errors.js';
import { TestIssuer } from '../support/oidc-issuer.js';
import {
  BROKER_AUDIENCE,
  consumers,
  DEFAULT_TARGET,
  ENTERPRISE_REPO,
  LEDGER_AUDIENCE,
  OTHER_REPO,
  startTokenWorld,
  type Consumer,
  type ConsumerId,
  type Target,
  type TokenWorld,
} from './world.js';

// The attack suite's token half: every crafted token goes to every consumer (ledger POST and GET,
// main broker, minimal broker), each pair its own test, and each must get exactly the answer its
// consumer's error table gives. None may be accepted.

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Header and payload as given, no signature: what an `alg: none` token looks like. */
const unsigned = (header: unknown, payload: unknown) => `${b64(header)}.${b64(payload)}.`;

/** The same payload and signature under another header. */
function withHeader(token: string, header: unknown): string {
  const [, payload, signature] = token.split('.');
  return `${b64(header)}.${payload}.${signature}`;
}

interface Ctx {
  readonly world: TokenWorld;
  /** The audience the consumer under attack accepts. */
  readonly aud: string;
  /** The other product's audience (ledger ↔ broker). */
  readonly otherAud: string;
  readonly nowMs: number;
  /** `nowMs` in whole seconds, as the verifier's clock reads it. */
  readonly now: number;
}

type Claims = Record<string, unknown>;

/** A GitHub-shaped claim set of the primary issuer for the consumer's audience. */
const claims = (c: Ctx, overrides: Claims = {}): Claims => ({ ...c.world.primary.claims({ aud: c.aud }, c.nowMs), ...overrides });

const mint = (c: Ctx, overrides: Claims = {}, options: Parameters<TestIssuer['mint']>[1] = {}) =>
  c.world.primary.mint({ aud: c.aud, ...overrides }, { nowMs: c.nowMs, ...options });

const enterpriseClaims = {
  repository: `${ENTERPRISE_REPO.owner}/${ENTERPRISE_REPO.repo}`,
  repository_id: String(ENTERPRISE_REPO.id),
  repository_owner: ENTERPRISE_REPO.owner,
};
const ENTERPRISE_TARGET: Target = { owner: ENTERPRISE_REPO.owner, repo: ENTERPRISE_REPO.repo };

interface Expected {
  readonly status: number;
  readonly body: Record<string, unknown> | undefined;
}

interface Variant {
  readonly name: string;
  build(c: Ctx): Promise<string>;
  /** The verifier's verdict: each consumer answers it in its own vocabulary. */
  readonly reason?: RejectionReason;
  /** The ledger's verdict when it differs (it trusts only the primary issuer). */
  readonly ledgerReason?: RejectionReason;
  /** What the brokers are asked to mint for (default: the primary issuer's repository). */
  readonly target?: Target;
  /** Answers that are not a verification verdict. */
  readonly answers?: Partial<Record<ConsumerId, Expected>>;
  /**
   * The token names a key id the issuer's set lacks. Its key set is refetched for it, at most once
   * a second per issuer: the verdict when a fetch was made for it, the retryable 503 (never a
   * 401) when the interval had none left.
   */
  readonly unknownKid?: true;
}

/** Each consumer's "no verdict" answer: the key set could not be fetched for this token now. */
const NO_VERDICT: Record<ConsumerId, Record<string, unknown>> = {
  'ledger POST': { error: 'jwks_unavailable' },
  'ledger GET': { error: 'jwks_unavailable' },
  broker: { error: 'oidc_key_fetch_failed', reason: 'jwks_unavailable' },
  minimal: { error: 'jwks_unavailable' },
};

const ledgerForbidden = (reason: string): Partial<Record<ConsumerId, Expected>> => ({
  'ledger POST': { status: 403, body: { error: 'forbidden', reason } },
  'ledger GET': { status: 403, body: { error: 'forbidden', reason } },
});
const brokersRefuse = (status: number, error: string): Partial<Record<ConsumerId, Expected>> => ({
  broker: { status, body: { error } },
  minimal: { status, body: { error } },
});
/**
 * Node's HTTP parser refuses an Authorization header past its 16 KB header limit before any route
 * runs; the server's clientError handler still answers in JSON (server/http/client-errors.ts).
 */
const ledgerHeaderTooLarge: Partial<Record<ConsumerId, Expected>> = {
  'ledger POST': { status: 431, body: { error: 'request_headers_too_large' } },
  'ledger GET': { status: 431, body: { error: 'request_headers_too_large' } },
};

function expected(id: ConsumerId, v: Variant): Expected {
  const special = v.answers?.[id];
  if (special) return special;
  const ledger = id === 'ledger POST' || id === 'ledger GET';
  const reason = (ledger ? v.ledgerReason : undefined) ?? v.reason;
  assert.ok(reason, `variant ${v.name} has no verdict for ${id}`);
  if (ledger) return { status: 401, body: { error: 'invalid_token', reason } };
  if (id === 'broker') return { status: 401, body: { error: 'invalid_oidc_token', reason } };
  return { status: 401, body: { error: 'invalid_oidc' } };
}

const variants: Variant[] = [
  // Step 1: only RS256, refused before any key or signature work.
  { name: 'alg none, no signature', reason: 'algorithm_not_allowed', build: async (c) => unsigned({ alg: 'none', typ: 'JWT' }, claims(c)) },
  {
    name: 'alg none over a genuine RS256 signature',
    reason: 'algorithm_not_allowed',
    build: async (c) => withHeader(await mint(c), { alg: 'none', typ: 'JWT', kid: c.world.primary.kid }),
  },
  { name: 'alg "NONE" (a case variant of none)', reason: 'algorithm_not_allowed', build: async (c) => unsigned({ alg: 'NONE', typ: 'JWT' }, claims(c)) },
  {
    name: 'alg "rs256" (a case variant) over a genuine RS256 signature',
    reason: 'algorithm_not_allowed',
    build: (c) => c.world.primary.signAs('RS256', claims(c), { alg: 'rs256' }),
  },
  { name: 'no alg in the header, genuine RS256 signature', reason: 'algorithm_not_allowed', build: (c) => c.world.primary.signAs('RS256', claims(c), { alg: undefined }) },
  {
    name: 'HS256 keyed with the issuer public key (PEM)',
    reason: 'algorithm_not_allowed',
    build: (c) => new SignJWT(claims(c)).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: c.world.primary.kid }).sign(utf8(c.world.primary.publicPem)),
  },
  {
    name: 'HS256 keyed with the issuer public key (JWK)',
    reason: 'algorithm_not_allowed',
    build: (c) =>
      new SignJWT(claims(c)).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: c.world.primary.kid }).sign(utf8(JSON.stringify(c.world.primary.jwks().keys[0]))),
  },
  { name: 'RS384 signed with the issuer key material', reason: 'algorithm_not_allowed', build: (c) => c.world.primary.signAs('RS384', claims(c)) },
  { name: 'PS256 signed with the issuer key material', reason: 'algorithm_not_allowed', build: (c) => c.world.primary.signAs('PS256', claims(c)) },
  {
    name: 'ES256 signed with a fresh P-256 key',
    reason: 'algorithm_not_allowed',
    build: async (c) => {
      const { privateKey } = await generateKeyPair('ES256');
      return new SignJWT(claims(c)).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: c.world.primary.kid }).sign(privateKey);
    },
  },

  // Step 2: the key comes from the pinned issuer's key set, never from the token.
  { name: 'kid pointing nowhere', reason: 'signature_invalid', unknownKid: true, build: (c) => mint(c, {}, { kid: 'no-such-key' }) },
  { name: 'kid containing a path (../../etc/passwd)', reason: 'signature_invalid', unknownKid: true, build: (c) => mint(c, {}, { kid: '../../etc/passwd' }) },
  { name: 'kid containing a URL of the attacker server', reason: 'signature_invalid', unknownKid: true, build: (c) => mint(c, {}, { kid: `${c.world.attacker.url}/keys/1` }) },
  {
    name: 'jku naming the attacker server, signed by the attacker key',
    reason: 'signature_invalid',
    unknownKid: true,
    build: async (c) => {
      const stray = await TestIssuer.strayKey();
      return mint(c, {}, { signWith: stray, header: { jku: `${c.world.attacker.url}/jwks.json` } });
    },
  },
  {
    name: 'x5u naming the attacker server, signed by the attacker key',
    reason: 'signature_invalid',
    unknownKid: true,
    build: async (c) => {
      const stray = await TestIssuer.strayKey();
      return mint(c, {}, { signWith: stray, header: { x5u: `${c.world.attacker.url}/cert.pem` } });
    },
  },
  {
    name: 'embedded jwk of the attacker key that signed it',
    reason: 'signature_invalid',
    unknownKid: true,
    build: async (c) => {
      const stray = await TestIssuer.strayKey();
      return mint(c, {}, { signWith: stray, header: { jwk: stray.publicJwk } });
    },
  },
  {
    name: 'embedded jwk of the attacker key under the issuer kid',
    reason: 'signature_invalid',
    build: async (c) => {
      const stray = await TestIssuer.strayKey();
      return mint(c, {}, { signWith: stray, kid: c.world.primary.kid, header: { jwk: { ...stray.publicJwk, kid: c.world.primary.kid } } });
    },
  },
  { name: 'a stray key under the issuer kid', reason: 'signature_invalid', build: async (c) => mint(c, {}, { signWith: await TestIssuer.strayKey(), kid: c.world.primary.kid }) },
  {
    name: 'a genuine signature over another payload (repository swapped)',
    reason: 'signature_invalid',
    build: async (c) => {
      const [header, , signature] = (await mint(c, { repository: 'octo-org/other', repository_id: '1' })).split('.');
      return `${header}.${b64(claims(c))}.${signature}`;
    },
  },
  {
    name: 'a genuine header and payload with the signature stripped',
    reason: 'signature_invalid',
    build: async (c) => `${(await mint(c)).split('.').slice(0, 2).join('.')}.`,
  },
  {
    name: 'a crit header naming an extension nobody understands',
    reason: 'malformed',
    build: (c) => c.world.primary.signAs('RS256', claims(c), { crit: ['x-gatehouse-trust-me'], 'x-gatehouse-trust-me': true }),
  },

  // The issuer is matched exactly against the static map, before any key set is chosen.
  { name: 'issuer with a trailing slash', reason: 'issuer_not_trusted', build: (c) => mint(c, { iss: `${c.world.primary.url}/` }) },
  { name: 'issuer in different case', reason: 'issuer_not_trusted', build: (c) => mint(c, { iss: c.world.primary.url.toUpperCase() }) },
  {
    name: 'look-alike issuer: localhost for 127.0.0.1 (the same server, keys and all)',
    reason: 'issuer_not_trusted',
    build: (c) => mint(c, { iss: c.world.primary.url.replace('127.0.0.1', 'localhost') }),
  },
  {
    name: "look-alike issuer: GitHub's issuer as a subdomain of another host",
    reason: 'issuer_not_trusted',
    build: (c) => mint(c, { iss: 'https://token.actions.githubusercontent.com.evil.example' }),
  },
  { name: 'issuer absent', reason: 'issuer_not_trusted', build: (c) => mint(c, {}, { omit: ['iss'] }) },
  { name: 'issuer as an array holding the trusted issuer', reason: 'issuer_not_trusted', build: (c) => mint(c, { iss: [c.world.primary.url] }) },
  {
    name: 'enterprise issuer claimed, signed with the primary key (primary kid)',
    reason: 'signature_invalid',
    unknownKid: true,
    ledgerReason: 'issuer_not_trusted',
    target: ENTERPRISE_TARGET,
    build: (c) => mint(c, { iss: c.world.enterprise.url, ...enterpriseClaims }),
  },
  {
    name: 'enterprise issuer claimed, signed with the primary key under the enterprise kid',
    reason: 'signature_invalid',
    ledgerReason: 'issuer_not_trusted',
    target: ENTERPRISE_TARGET,
    build: (c) => mint(c, { iss: c.world.enterprise.url, ...enterpriseClaims }, { kid: c.world.enterprise.kid }),
  },
  {
    name: 'primary issuer claimed, signed with the enterprise key (enterprise kid)',
    reason: 'signature_invalid',
    unknownKid: true,
    build: (c) => c.world.enterprise.mint({ aud: c.aud, iss: c.world.primary.url }, { nowMs: c.nowMs }),
  },
  {
    name: 'primary issuer claimed, signed with the enterprise key under the primary kid',
    reason: 'signature_invalid',
    build: (c) => c.world.enterprise.mint({ aud: c.aud, iss: c.world.primary.url }, { nowMs: c.nowMs, kid: c.world.primary.kid }),
  },

  // Step 3: lifetime with exactly 60 s of skew (the accepted side of each boundary is a control below).
  { name: 'exp exactly at the skew boundary (now - 60 s)', reason: 'expired', build: (c) => mint(c, { exp: c.now - 60, iat: c.now - 400, nbf: c.now - 400 }) },
  { name: 'exp just past the skew boundary (now - 61 s)', reason: 'expired', build: (c) => mint(c, { exp: c.now - 61, iat: c.now - 400, nbf: c.now - 400 }) },
  { name: 'nbf just past the skew boundary (now + 61 s)', reason: 'not_yet_valid', build: (c) => mint(c, { nbf: c.now + 61 }) },
  { name: 'exp absent', reason: 'missing_claims', build: (c) => mint(c, {}, { omit: ['exp'] }) },
  { name: 'exp a string far in the future', reason: 'malformed', build: (c) => mint(c, { exp: String(c.now + 3600) }) },

  // Audience: one string, one of the consumer's own.
  { name: 'aud an array holding the accepted audience', reason: 'audience_mismatch', build: (c) => mint(c, { aud: [c.aud, 'https://github.com/octo-org'] }) },
  { name: 'aud an array of wrong audiences only', reason: 'audience_mismatch', build: (c) => mint(c, { aud: ['https://github.com/octo-org', 'sts.amazonaws.com'] }) },
  { name: "aud of the other product (a ledger token at the broker, and the reverse)", reason: 'audience_mismatch', build: (c) => mint(c, { aud: c.otherAud }) },
  { name: 'aud absent', reason: 'audience_mismatch', build: (c) => mint(c, {}, { omit: ['aud'] }) },

  // Claims every consumer needs to know whose token it is.
  { name: 'repository absent', reason: 'missing_claims', build: (c) => mint(c, {}, { omit: ['repository'] }) },
  { name: 'repository_id absent', reason: 'missing_claims', build: (c) => mint(c, {}, { omit: ['repository_id'] }) },
  { name: 'repository_owner absent', reason: 'missing_claims', build: (c) => mint(c, {}, { omit: ['repository_owner'] }) },
  { name: 'repository_id not numeric', reason: 'missing_claims', build: (c) => mint(c, { repository_id: '123456789 OR 1=1' }) },
  { name: 'repository with an extra path segment', reason: 'missing_claims', build: (c) => mint(c, { repository: 'octo-org/octo-repo/../../evil-org/app' }) },

  // Owner and repository disagreeing: the ledger's step 4; the brokers mint only for a consistent owner.
  {
    name: 'owner and repository disagree: an allowed owner claimed for another owner’s repository',
    target: { owner: OTHER_REPO.owner, repo: OTHER_REPO.repo },
    answers: { ...ledgerForbidden('owner_mismatch'), ...brokersRefuse(403, 'repo_mismatch') },
    build: (c) => mint(c, { repository: `${OTHER_REPO.owner}/${OTHER_REPO.repo}`, repository_id: String(OTHER_REPO.id), repository_owner: 'octo-org' }),
  },
  {
    name: 'owner and repository disagree: another owner claimed for the allowed repository',
    answers: { ...ledgerForbidden('owner_not_allowed'), ...brokersRefuse(403, 'repo_mismatch') },
    build: (c) => mint(c, { repository_owner: OTHER_REPO.owner }),
  },

  // Size: a genuinely signed token is still refused once it is past the limits.
  {
    name: 'huge token past the verifier 16 KB cap, genuinely signed',
    reason: 'malformed',
    answers: ledgerHeaderTooLarge,
    build: (c) => c.world.primary.signAs('RS256', claims(c, { padding: 'x'.repeat(20_000) })),
  },
  {
    name: 'huge token past every body limit (100 KB), genuinely signed',
    answers: { ...ledgerHeaderTooLarge, broker: { status: 413, body: { error: 'payload_too_large' } }, minimal: { status: 400, body: { error: 'invalid_json' } } },
    build: (c) => c.world.primary.signAs('RS256', claims(c, { padding: 'x'.repeat(75_000) })),
  },

  // Not a JWS at all.
  { name: 'five segments (a JWE shape)', reason: 'malformed', build: async (c) => `${await mint(c)}.e30.e30` },
  { name: 'segments that are not base64url JSON', reason: 'malformed', build: async () => 'eyJhbGciOiJSUzI1NiJ9.not-json.c2ln' },
];

describe('attack suite: crafted OIDC tokens against every token consumer', function () {
  let world: TokenWorld;
  const ctxFor = (consumer: Consumer): Ctx => {
    const nowMs = world.clock.now();
    return {
      world,
      aud: consumer.audience,
      otherAud: consumer.audience === LEDGER_AUDIENCE ? BROKER_AUDIENCE : LEDGER_AUDIENCE,
      nowMs,
      now: Math.floor(nowMs / 1000),
    };
  };
  const outcomes = () => world.minimal.logs.lines().filter((l) => 'outcome' in l);

  before(async () => {
    world = await startTokenWorld();
  });
  after(() => world?.close());

  it(`has at least 25 variants (${variants.length})`, () => {
    assert.ok(variants.length >= 25);
    assert.equal(new Set(variants.map((v) => v.name)).size, variants.length, 'names are unique, so a failure names its variant');
  });

  // Controls: without them a consumer that refused everything would pass every attack below.
  describe('controls: genuine tokens, and the accepted side of each skew boundary', () => {
    const accepted: [string, (c: Ctx) => Promise<string>][] = [
      ['a genuine token', (c) => mint(c)],
      ['exp 59 s ago (inside the skew)', (c) => mint(c, { exp: c.now - 59, iat: c.now - 400, nbf: c.now - 400 })],
      ['nbf exactly at the skew boundary (now + 60 s)', (c) => mint(c, { nbf: c.now + 60 })],
    ];
    for (const [name, build] of accepted) {
      for (const id of ['ledger POST', 'ledger GET', 'broker', 'minimal'] as ConsumerId[]) {
        it(`${id} accepts ${name}`, async () => {
          const consumer = consumers(world).find((x) => x.id === id)!;
          const res = await consumer.send(await build(ctxFor(consumer)), DEFAULT_TARGET);
          assert.equal(res.status, id === 'ledger POST' ? 201 : 200, res.text);
          if (id === 'broker' || id === 'minimal') assert.equal(res.body.repository, 'octo-org/octo-repo');
        });
      }
    }

    it('the enterprise issuer is trusted by both brokers (and minted for by its own app), not by the ledger', async () => {
      const [ledgerPost, ledgerGet, broker, minimal] = consumers(world);
      const token = (c: Consumer) => world.enterprise.mint({ aud: c.audience, ...enterpriseClaims }, { nowMs: world.clock.now() });
      for (const c of [broker!, minimal!]) {
        const before = world.ghe.count('access_tokens');
        const res = await c.send(await token(c), ENTERPRISE_TARGET);
        assert.equal(res.status, 200, `${c.id}: ${res.text}`);
        assert.equal(world.ghe.count('access_tokens'), before + 1);
      }
      for (const c of [ledgerPost!, ledgerGet!]) {
        const res = await c.send(await token(c), ENTERPRISE_TARGET);
        assert.deepEqual([res.status, res.body], [401, { error: 'invalid_token', reason: 'issuer_not_trusted' }]);
      }
    });
  });

  for (const variant of variants) {
    describe(variant.name, () => {
      for (const id of ['ledger POST', 'ledger GET', 'broker', 'minimal'] as ConsumerId[]) {
        const want = () => expected(id, variant);
        it(`${id}: refused`, async () => {
          const consumer = consumers(world).find((x) => x.id === id)!;
          const token = await variant.build(ctxFor(consumer));
          const platformCalls = world.platformCalls();
          const outcomeLines = outcomes().length;

          const res = await consumer.send(token, variant.target ?? DEFAULT_TARGET);

          const verdict = want();
          const unverified = variant.unknownKid && verdict.status === 401 && res.status === 503;
          if (unverified) {
            assert.deepEqual(res.body, NO_VERDICT[id]);
            assert.equal(res.headers.get('retry-after'), '1');
          } else {
            assert.deepEqual({ status: res.status, body: res.body }, verdict);
          }
          assert.equal(world.platformCalls(), platformCalls, 'a refused token causes no platform call');
          assert.deepEqual(world.attacker.requests, [], 'nothing named by a token is ever fetched');
          const logs = world.logText();
          assert.ok(!logs.includes(token), 'the token reached a log');
          const signature = token.split('.')[2] ?? '';
          if (signature.length >= 16) assert.ok(!logs.includes(signature), 'the token signature reached a log');
          if (id === 'minimal') {
            const lines = outcomes().slice(outcomeLines);
            assert.deepEqual(lines.map((l) => l.outcome), [(res.body as { error: string }).error], 'one outcome line, the answer’s code');
          }
        });
      }
    });
  }
});
