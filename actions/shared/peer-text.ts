import { spaceControlCharacters } from '../../server/http/control-characters.js';

/** Format characters (bidi overrides, zero-width): dropped, so they cannot split a credential in two. */
const FORMAT = /\p{Cf}/gu;
/** A run of characters a credential is written with (base64, base64url, hex, JWT dots). */
const CREDENTIAL_RUN = /[A-Za-z0-9+/=_.~-]{16,}/g;

/**
 * Could this run be a credential? Sixteen characters or more with a digit, or with both cases:
 * JWTs, `ghs_…` tokens, hex and base64 keys are; the `snake_case` codes a broker or ledger
 * answers with (`platform_installation_lookup_failed`) are not.
 */
const credentialShaped = (run: string): boolean => /[0-9]/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run));

export const HIDDEN = '[hidden]';

/**
 * Text a peer sent (an error code, a reason) made fit for one log line: control characters become
 * spaces, format characters go, anything that could be a credential (any of `secrets`, or a run shaped
 * like one) becomes `[hidden]`, and the result is cut to `max` characters. Undefined when `value`
 * is not a string or nothing printable is left.
 */
export function peerText(value: unknown, options: { max?: number; secrets?: readonly string[] } = {}): string | undefined {
  if (typeof value !== 'string') return undefined;
  const max = options.max ?? 80;
  // Control characters and the Unicode line separators become spaces (runs of spaces are one below).
  let text = spaceControlCharacters(value).replace(FORMAT, '');
  for (const secret of options.secrets ?? []) if (secret.length >= 8) text = text.split(secret).join(HIDDEN);
  text = text
    .replace(CREDENTIAL_RUN, (run) => (credentialShaped(run) ? HIDDEN : run))
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
