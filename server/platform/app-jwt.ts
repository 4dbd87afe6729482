import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** How long one app JWT is reused before a new one is signed. */
const REUSE_MS = 5 * 60_000;
/** Backdated against clock drift; the platform accepts at most 10 minutes of life in all. */
const BACKDATE_S = 60;
const LIFETIME_S = 9 * 60;

/**
 * The app's JWT (RS256, `iss` = app id) for calls made as the app: installation lookups and
 * mints, handed to `@octokit/auth-app` as its `createJwt`. Signed here rather than by auth-app,
 * which imports the PEM and signs a new JWT for every call: one JWT serves five minutes of calls,
 * from the key the settings parsed once (`private-key.ts`; docs/development.md). Secret: never logged.
 */
export class AppJwt {
  private current: { readonly jwt: Promise<string>; readonly until: number; readonly expiresAt: string } | undefined;

  constructor(
    private readonly appId: string,
    private readonly key: KeyObject,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * auth-app's `createJwt`: the reused JWT, or, when the platform's clock differs from ours by
   * `skewSeconds` (auth-app measured it from a refusal), one signed by the platform's time.
   */
  async forAuthApp(skewSeconds?: number): Promise<{ jwt: string; expiresAt: string }> {
    const entry = skewSeconds ? this.signed(this.now() + skewSeconds * 1000) : this.reused();
    return { jwt: await entry.jwt, expiresAt: entry.expiresAt };
  }

  private reused(): { readonly jwt: Promise<string>; readonly expiresAt: string } {
    const now = this.now();
    if (!this.current || now >= this.current.until) {
      const entry = { ...this.signed(now), until: now + REUSE_MS };
      this.current = entry;
      // A failed signing is not kept: the next call tries again.
      entry.jwt.catch(() => {
        if (this.current === entry) this.current = undefined;
      });
    }
    return this.current;
  }

  private signed(now: number): { readonly jwt: Promise<string>; readonly expiresAt: string } {
    const iat = Math.floor(now / 1000) - BACKDATE_S;
    const exp = iat + BACKDATE_S + LIFETIME_S;
    const jwt = new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.appId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.key);
    return { jwt, expiresAt: new Date(exp * 1000).toISOString() };
  }
}
