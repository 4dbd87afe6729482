import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import { OidcKeySetUnavailable, OidcTokenRejected, type RejectionReason } from '../../server/auth/errors.js';
import { jwksUrlOf, type IssuerMap } from '../../server/auth/issuers.js';
import { KeySetRegistry, type KeySetOptions } from '../../server/auth/key-sets.js';
import { OidcVerifier, type VerificationPolicy } from '../../server/auth/verifier.js';
import { manualClock } from '../support/backend.js';
import { DEFAULT_AUDIENCE, TestIssuer } from '../support/oidc-issuer.js';
import { listen } from '../support/servers.js';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function rejection(promise: Promise<unknown>): Promise<RejectionReason> {
  const err = await promise.then(
    () => assert.fail('token was accepted'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof OidcTokenRejected, `expected a rejection, got ${String(err)}`);
  return err.reason;
}

describe('OIDC verifier', () => {
  let issuer: TestIssuer;
  let clock: ReturnType<typeof manualClock>;
  let policy: VerificationPolicy;

  const verifierWith = (options: KeySetOptions = {}) => new OidcVerifier(new KeySetRegistry({ clock, ...options }), clock);

  before(async () => {
    issuer = await TestIssuer.start();
  });
  after(() => issuer.close());

  beforeEach(() => {
    issuer.mode = 'ok';
    issuer.jwksFetches = 0;
    clock = manualClock();
    const issuers: IssuerMap = new Map([[issuer.url, { issuer: issuer.url, jwksUrl: jwksUrlOf(issuer.url) }]]);
    policy = { issuers, audiences: [DEFAULT_AUDIENCE] };
  });

  it('accepts a GitHub-shaped RS256 token and returns the caller', async () => {
    const caller = await verifierWith().verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
    assert.equal(caller.repository, 'octo-org/octo-repo');
    assert.equal(caller.repositoryId, '123456789');
    assert.equal(caller.repositoryOwner, 'octo-org');
    assert.equal(caller.issuer, issuer.url);
    assert.equal(caller.audience, DEFAULT_AUDIENCE);
    assert.equal(issuer.jwksFetches, 1);
  });

  it('caches the key set: many verifications, one fetch', async () => {
    const verifier = verifierWith();
    for (let i = 0; i < 5; i++) await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
    assert.equal(issuer.jwksFetches, 1);
  });

  describe('step 1: the header algorithm, before any key work', () => {
    it('refuses alg "none"', async () => {
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(issuer.claims({}, clock.now()))}.`;
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'algorithm_not_allowed');
      assert.equal(issuer.jwksFetches, 0);
    });

    it('refuses HS256 signed with the public key as the secret', async () => {
      const token = await new SignJWT(issuer.claims({}, clock.now()))
        .setProtectedHeader({ alg: 'HS256', kid: issuer.kid })
        .sign(new TextEncoder().encode(issuer.publicPem));
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'algorithm_not_allowed');
      assert.equal(issuer.jwksFetches, 0);
    });

    for (const alg of ['RS384', 'PS256', 'ES256'] as const) {
      it(`refuses ${alg}`, async () => {
        const { privateKey } = await generateKeyPair(alg);
        const token = await new SignJWT(issuer.claims({}, clock.now())).setProtectedHeader({ alg, kid: issuer.kid }).sign(privateKey);
        assert.equal(await rejection(verifierWith().verify(token, policy)), 'algorithm_not_allowed');
        assert.equal(issuer.jwksFetches, 0);
      });
    }
  });

  describe('step 2: the signature against the pinned issuer key set', () => {
    it('refuses a token signed by a key the issuer does not publish', async () => {
      const stray = await TestIssuer.strayKey();
      const token = await issuer.mint({}, { signWith: stray, kid: issuer.kid, nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'signature_invalid');
    });

    it('refuses a tampered payload', async () => {
      const [h, , s] = (await issuer.mint({}, { nowMs: clock.now() })).split('.');
      const forged = `${h}.${b64url(issuer.claims({ repository: 'octo-org/other' }, clock.now()))}.${s}`;
      assert.equal(await rejection(verifierWith().verify(forged, policy)), 'signature_invalid');
    });

    it('an unknown kid causes exactly one refetch, then a rejection', async () => {
      const verifier = verifierWith();
      await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
      assert.equal(issuer.jwksFetches, 1);
      clock.advance(1001);
      const stray = await TestIssuer.strayKey();
      const token = await issuer.mint({}, { signWith: stray, nowMs: clock.now() });
      assert.equal(await rejection(verifier.verify(token, policy)), 'signature_invalid');
      assert.equal(issuer.jwksFetches, 2);
    });

    it('a key rotated in one second after a fetch is accepted the next second: one refetch, no 401 in between', async () => {
      const rotating = await TestIssuer.start();
      try {
        const rotatedPolicy: VerificationPolicy = {
          issuers: new Map([[rotating.url, { issuer: rotating.url, jwksUrl: jwksUrlOf(rotating.url) }]]),
          audiences: [DEFAULT_AUDIENCE],
        };
        const verifier = verifierWith();
        await verifier.verify(await rotating.mint({}, { nowMs: clock.now() }), rotatedPolicy);
        await rotating.rotate();
        const rotated = await rotating.mint({}, { nowMs: clock.now() });
        // Within the refetch interval no fetch can be made: no verdict, with the wait named.
        const early = await verifier.verify(rotated, rotatedPolicy).catch((e: unknown) => e);
        assert.ok(early instanceof OidcKeySetUnavailable, String(early));
        assert.equal(early.retryAfterSeconds, 1);
        clock.advance(1001);
        const caller = await verifier.verify(rotated, rotatedPolicy);
        assert.equal(caller.repository, 'octo-org/octo-repo');
        assert.equal(rotating.jwksFetches, 2);
      } finally {
        await rotating.close();
      }
    });

    it('a flood of made-up key ids costs at most one fetch per interval, and is never a 401 while no fetch can be made', async () => {
      const verifier = verifierWith();
      await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
      const stray = await TestIssuer.strayKey();
      const outcomes: string[] = [];
      const outcome = (r: unknown) => (r instanceof OidcTokenRejected ? `401 ${r.reason}` : r instanceof OidcKeySetUnavailable ? `503 ${r.retryAfterSeconds}` : String(r));
      const batch = async (label: string) => {
        const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => issuer.mint({}, { signWith: stray, kid: `made-up-${label}-${i}`, nowMs: clock.now() })));
        return (await Promise.all(tokens.map((t) => verifier.verify(t, policy).catch((e: unknown) => e)))).map(outcome);
      };
      for (let second = 0; second < 3; second++) {
        clock.advance(1001);
        // Arriving together, they share the one fetch the interval allows, and get its verdict.
        outcomes.push(...(await batch(`${second}-a`)));
        // Arriving after it within the same interval, no fetch can be made for them: no verdict.
        const late = await batch(`${second}-b`);
        assert.deepEqual([...new Set(late)], ['503 1']);
      }
      assert.equal(issuer.jwksFetches, 1 + 3, 'one fetch per interval');
      assert.deepEqual([...new Set(outcomes)], ['401 signature_invalid']);
      // The real key still verifies from the cache at once, flood or not.
      await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
      assert.equal(issuer.jwksFetches, 4);
    });

    it('an unknown kid while the key endpoint is down is no verdict (503), never a 401', async () => {
      const verifier = verifierWith();
      await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
      issuer.mode = 'down';
      clock.advance(1001);
      const stray = await TestIssuer.strayKey();
      const err = await verifier.verify(await issuer.mint({}, { signWith: stray, nowMs: clock.now() }), policy).catch((e: unknown) => e);
      assert.ok(err instanceof OidcKeySetUnavailable, String(err));
      assert.equal(issuer.jwksFetches, 2);
    });

    it('ignores jku, x5u and jwk headers: no call to a URL named by the token', async () => {
      let hits = 0;
      const attacker = await listen((_req, res) => {
        hits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      });
      try {
        const stray = await TestIssuer.strayKey();
        const token = await issuer.mint({}, {
          signWith: stray,
          kid: issuer.kid,
          nowMs: clock.now(),
          header: { jku: `${attacker.url}/jwks`, x5u: `${attacker.url}/cert`, jwk: stray.publicJwk },
        });
        assert.equal(await rejection(verifierWith().verify(token, policy)), 'signature_invalid');
        assert.equal(hits, 0);
      } finally {
        await attacker.close();
      }
    });

    it('a pinned key set verifies with no outbound call', async () => {
      const pinned: VerificationPolicy = {
        issuers: new Map([[issuer.url, { issuer: issuer.url, jwksUrl: jwksUrlOf(issuer.url), pinnedJwks: issuer.jwks() }]]),
        audiences: [DEFAULT_AUDIENCE],
      };
      issuer.mode = 'down';
      const caller = await verifierWith().verify(await issuer.mint({}, { nowMs: clock.now() }), pinned);
      assert.equal(caller.repositoryId, '123456789');
      const stray = await TestIssuer.strayKey();
      const bad = await issuer.mint({}, { signWith: stray, kid: issuer.kid, nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(bad, pinned)), 'signature_invalid');
      assert.equal(issuer.jwksFetches, 0);
    });
  });

  describe('key set unreachable is no verdict', () => {
    for (const mode of ['down', 'garbage', 'hang'] as const) {
      it(`issuer key endpoint ${mode} → OidcKeySetUnavailable`, async () => {
        issuer.mode = mode;
        const err = await verifierWith({ timeoutMs: 200 })
          .verify(await issuer.mint({}, { nowMs: clock.now() }), policy)
          .catch((e: unknown) => e);
        assert.ok(err instanceof OidcKeySetUnavailable, String(err));
      });
    }

    it('after a failed fetch, requests fail fast for the back-off period, then try again', async () => {
      issuer.mode = 'down';
      const verifier = verifierWith({ refetchIntervalMs: 1000 });
      const token = await issuer.mint({}, { nowMs: clock.now() });
      for (let i = 0; i < 3; i++) await assert.rejects(verifier.verify(token, policy), OidcKeySetUnavailable);
      assert.equal(issuer.jwksFetches, 1);
      issuer.mode = 'ok';
      clock.advance(1001);
      const caller = await verifier.verify(await issuer.mint({}, { nowMs: clock.now() }), policy);
      assert.equal(caller.repositoryOwner, 'octo-org');
      assert.equal(issuer.jwksFetches, 2);
    });
  });

  describe('step 3: issuer, audience, expiry', () => {
    it('refuses an issuer outside the map without fetching anything', async () => {
      const token = await issuer.mint({ iss: 'https://token.actions.githubusercontent.com.evil.example' }, { nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'issuer_not_trusted');
      assert.equal(issuer.jwksFetches, 0);
    });

    for (const [label, iss] of [
      ['a trailing slash', (u: string) => `${u}/`],
      ['different case', (u: string) => u.toUpperCase()],
      ['no iss at all', () => undefined],
    ] as const) {
      it(`refuses an issuer with ${label}`, async () => {
        const token = await issuer.mint({ iss: iss(issuer.url) }, { nowMs: clock.now() });
        assert.equal(await rejection(verifierWith().verify(token, policy)), 'issuer_not_trusted');
      });
    }

    it('refuses a wrong audience', async () => {
      const token = await issuer.mint({ aud: 'someone-else' }, { nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'audience_mismatch');
    });

    it('refuses an audience array, even one that contains the right audience', async () => {
      const token = await issuer.mint({ aud: [DEFAULT_AUDIENCE, 'other'] }, { nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'audience_mismatch');
    });

    it('refuses every token when no audience is configured', async () => {
      const token = await issuer.mint({}, { nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, { ...policy, audiences: [] })), 'audience_mismatch');
    });

    it('accepts any of several configured audiences', async () => {
      const token = await issuer.mint({ aud: 'legacy' }, { nowMs: clock.now() });
      const caller = await verifierWith().verify(token, { ...policy, audiences: [DEFAULT_AUDIENCE, 'legacy'] });
      assert.equal(caller.audience, 'legacy');
    });

    it('expired by 61 s is refused, by 59 s accepted (60 s skew)', async () => {
      const now = Math.floor(clock.now() / 1000);
      const verifier = verifierWith();
      assert.equal(await rejection(verifier.verify(await issuer.mint({ exp: now - 61 }, { nowMs: clock.now() }), policy)), 'expired');
      const caller = await verifier.verify(await issuer.mint({ exp: now - 59 }, { nowMs: clock.now() }), policy);
      assert.equal(caller.repository, 'octo-org/octo-repo');
    });

    it('not-before 61 s in the future is refused, 59 s accepted', async () => {
      const now = Math.floor(clock.now() / 1000);
      const verifier = verifierWith();
      assert.equal(await rejection(verifier.verify(await issuer.mint({ nbf: now + 61 }, { nowMs: clock.now() }), policy)), 'not_yet_valid');
      const caller = await verifier.verify(await issuer.mint({ nbf: now + 59 }, { nowMs: clock.now() }), policy);
      assert.equal(caller.repository, 'octo-org/octo-repo');
    });

    it('refuses a token without exp', async () => {
      const token = await issuer.mint({}, { omit: ['exp'], nowMs: clock.now() });
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'missing_claims');
    });

    for (const claim of ['repository', 'repository_id', 'repository_owner'] as const) {
      it(`refuses a token without ${claim}`, async () => {
        const token = await issuer.mint({}, { omit: [claim], nowMs: clock.now() });
        assert.equal(await rejection(verifierWith().verify(token, policy)), 'missing_claims');
      });
    }

    it('refuses a repository claim that is not owner/name, and a non-numeric repository_id', async () => {
      const verifier = verifierWith();
      assert.equal(await rejection(verifier.verify(await issuer.mint({ repository: 'just-a-name' }, { nowMs: clock.now() }), policy)), 'missing_claims');
      assert.equal(await rejection(verifier.verify(await issuer.mint({ repository_id: 'abc' }, { nowMs: clock.now() }), policy)), 'missing_claims');
    });
  });

  describe('malformed input', () => {
    for (const [label, token] of [
      ['an empty string', ''],
      ['not a JWT', 'hello'],
      ['two segments', 'a.b'],
      ['garbage segments', 'a.b.c'],
      ['a number', 42],
      ['a huge token', `${'a'.repeat(20_000)}.b.c`],
      ['four segments', `${b64url({ alg: 'RS256' })}.${b64url({ iss: 'x' })}.c.d`],
      ['a header that is JSON but not an object', `${b64url(['RS256'])}.${b64url({ iss: 'x' })}.c`],
    ] as const) {
      it(`refuses ${label}`, async () => {
        assert.equal(await rejection(verifierWith().verify(token, policy)), 'malformed');
        assert.equal(issuer.jwksFetches, 0);
      });
    }

    // A character outside base64url makes the token malformed before its (readable) issuer is looked at.
    it('refuses a payload with characters outside base64url, whatever it names', async () => {
      const [h, p, s] = (await issuer.mint({ iss: 'https://untrusted.example' }, { nowMs: clock.now() })).split('.');
      const token = `${h}.${p!.slice(0, 8)}*${p!.slice(8)}.${s}`;
      assert.equal(await rejection(verifierWith().verify(token, policy)), 'malformed');
      assert.equal(issuer.jwksFetches, 0);
    });
  });
});
