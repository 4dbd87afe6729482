import type { ActionHttp } from '../../shared/http.js';
import type { BrokerToken } from '../broker-client.js';
import { obtain } from '../obtain.js';
import { revokeToken } from '../revoke-token.js';
import type { HeldToken, RefreshStore } from './store.js';

/** A token handed out has at least this long left, so a push or a `gh` call started now can finish. */
export const MIN_LIFETIME_MS = 10 * 60_000;
/** When a broker does not say when its token expires: installation tokens live an hour. */
const ASSUMED_LIFETIME_MS = 60 * 60_000;

export function heldToken(token: BrokerToken, nowMs: number): HeldToken {
  const at = Date.parse(token.expiresAt);
  return { token: token.token, expiresAtMs: Number.isFinite(at) ? at : nowMs + ASSUMED_LIFETIME_MS };
}

export interface RefreshDeps {
  readonly http: ActionHttp;
  /** The later step's variables: only the runner's OIDC endpoint is read from them. */
  readonly env: NodeJS.ProcessEnv;
  /** Masks a new secret before it is printed anywhere (an `::add-mask::` line on stderr). */
  readonly mask: (secret: string) => void;
  readonly now?: () => number;
}

/**
 * A token with at least `MIN_LIFETIME_MS` left: the newest the job holds, or a new one minted with
 * a fresh OIDC token, with the step's request and for the job's own repository. Throws
 * `TokenUnavailable` with the reason when none can be had, `refresh ended` once the post step
 * has begun. `warn` takes a line for the job's log (a minted token that could not be revoked).
 */
export async function currentToken(store: RefreshStore, deps: RefreshDeps, warn: (line: string) => void): Promise<string> {
  const now = deps.now ?? Date.now;
  const usable = (): string | undefined => {
    const newest = store.tokens().at(-1);
    return newest && newest.expiresAtMs - now() >= MIN_LIFETIME_MS ? newest.token : undefined;
  };
  store.assertOpen();
  const held = usable();
  if (held) return held;
  return store.locked(async () => {
    // The post step may have begun, or another process minted one, while this one waited for the lock.
    store.assertOpen();
    const minted = usable();
    if (minted) return minted;
    const settings = store.settings();
    const env = {
      ...settings.job,
      GITHUB_API_URL: settings.apiUrl,
      ACTIONS_ID_TOKEN_REQUEST_URL: deps.env.ACTIONS_ID_TOKEN_REQUEST_URL,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: deps.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
    };
    const token = heldToken(await obtain({ core: { setSecret: deps.mask, info: () => {} }, http: deps.http, env }, settings.request), now());
    try {
      // Recorded before the lock is released: the post step takes the lock before it reads what to revoke.
      store.add(token);
    } catch (err) {
      // The post step began (or the folder went) without waiting for this mint: nobody else will revoke it.
      const outcome = await revokeToken(deps.http, settings.apiUrl, token.token);
      if ('notRevoked' in outcome) warn(`${settings.appName} token minted as the job ended was not revoked (${outcome.notRevoked}); it expires on its own`);
      throw err;
    }
    return token.token;
  });
}
