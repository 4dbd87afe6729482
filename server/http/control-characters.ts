/**
 * The server's one "no control character" rule (`/sign` paths and branch, ledger text and links).
 *
 * Refused: Unicode general category Cc, which is C0 (U+0000–U+001F), DEL (U+007F) and C1
 * (U+0080–U+009F: NEL U+0085 breaks lines, CSI U+009B starts terminal escape sequences); and the
 * line and paragraph separators, categories Zl and Zp (U+2028, U+2029), which break a line like
 * `\n` does (Unicode line breaking and JavaScript both treat them as line terminators). A line
 * break inside one field of a chat message or log line is what this rule exists to prevent.
 *
 * Allowed: format characters (Cf: bidi controls, zero-width joiners, soft hyphen). Ordinary text
 * needs them (emoji sequences, Persian and Indic names, mixed-direction text) and they break no
 * line; refusing them would be a different rule about how text displays.
 */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const CONTROL_RUNS = new RegExp(`${CONTROL.source}+`, 'gu');

/** Whether `s` holds a control character in the sense above. One class, no quantifier: linear. */
export const hasControlCharacter = (s: string): boolean => CONTROL.test(s);

/** `s` with each run of control characters in the sense above made one space: text for one line. */
export const spaceControlCharacters = (s: string): string => s.replace(CONTROL_RUNS, ' ');
