import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { AppJwt } from '../../server/platform/app-jwt.js';

describe('AppJwt', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // AppJwt takes the key as parsed from the settings (server/platform/private-key.ts).
  const spki = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('signs RS256 with iss = app id, backdated 60 s, at most 10 minutes of life', async () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const { jwt } = await new AppJwt('12345', privateKey, () => now).forAuthApp();
    assert.equal(decodeProtectedHeader(jwt).alg, 'RS256');
    const claims = decodeJwt(jwt);
    assert.equal(claims.iss, '12345');
    assert.equal(claims.iat, now / 1000 - 60);
    assert.ok(claims.exp! - claims.iat! <= 600);
    assert.ok(claims.exp! > now / 1000 + 5 * 60, 'still valid when its five minutes of reuse end');
    await jwtVerify(jwt, await importSPKI(spki, 'RS256'), { issuer: '12345', currentDate: new Date(now) });
  });

  it('reuses one JWT for five minutes, then signs a new one', async () => {
    let now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const jwts = new AppJwt('12345', privateKey, () => now);
    const first = (await jwts.forAuthApp()).jwt;
    now += 5 * 60_000 - 1;
    assert.equal((await jwts.forAuthApp()).jwt, first);
    now += 1;
    const second = (await jwts.forAuthApp()).jwt;
    assert.notEqual(second, first);
    assert.equal(decodeJwt(second).iat, now / 1000 - 60);
  });

  it("as auth-app's createJwt: the reused JWT; with a clock skew auth-app measured, a fresh one by the platform's time", async () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const jwts = new AppJwt('12345', privateKey, () => now);
    const reused = (await jwts.forAuthApp()).jwt;
    const given = await jwts.forAuthApp();
    assert.equal(given.jwt, reused);
    assert.equal(given.expiresAt, new Date(now + 9 * 60_000).toISOString());
    const skewed = await jwts.forAuthApp(-120);
    assert.notEqual(skewed.jwt, reused);
    assert.equal(decodeJwt(skewed.jwt).iat, (now - 120_000) / 1000 - 60);
    assert.equal((await jwts.forAuthApp()).jwt, reused, 'the skewed JWT does not replace the reused one');
  });

  it('concurrent callers share the JWT being signed', async () => {
    const jwts = new AppJwt('12345', privateKey);
    const all = await Promise.all(Array.from({ length: 5 }, async () => (await jwts.forAuthApp()).jwt));
    assert.equal(new Set(all).size, 1);
  });
});
