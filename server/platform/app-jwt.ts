import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** How long one app JWT is reused before a new one is signed. */
const REUSE_MS = 5 * 60_000;
/** Backdated against clock drift; the platform accepts at most 10 minutes of life in all. */
const BACKDATE_S = 60;
const LIFETIME_S = 9 * 60;

/**
 * The app's JWT (RS256, `iss` = app id) for calls made as the app: installation lookups and
 * mints. The key is imported once and one JWT serves five minutes of calls: a CPU profile of
 * `/token` under load showed importing the key and signing a fresh JWT for every call taking
 * about a third of the broker's time. The key comes parsed from the settings (`private-key.ts`),
 * so no PEM is read here. Secret: never logged.
 */
export class AppJwt {
  private current: { readonly jwt: Promise<string>; readonly until: number; authorization?: string } | undefined;

  constructor(
    private readonly appId: string,
    private readonly key: KeyObject,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<string> {
    const now = this.now();
    if (!this.current || now >= this.current.until) {
      const iat = Math.floor(now / 1000) - BACKDATE_S;
      const jwt = new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
        .setIssuer(this.appId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + BACKDATE_S + LIFETIME_S)
        .sign(this.key);
      const entry: { jwt: Promise<string>; until: number; authorization?: string } = { jwt, until: now + REUSE_MS };
      this.current = entry;
      jwt.then(
        (signed) => {
          entry.authorization = `Bearer ${signed}`;
        },
        // A failed signing is not kept: the next call tries again.
        () => {
          if (this.current === entry) this.current = undefined;
        },
      );
    }
    return this.current.jwt;
  }

  /**
   * `Bearer <jwt>` at once while a signed JWT is in its reuse window, otherwise undefined (then
   * `get()`): a platform call then waits on no promise for it.
   */
  authorization(): string | undefined {
    const current = this.current;
    return current && this.now() < current.until ? current.authorization : undefined;
  }
}
