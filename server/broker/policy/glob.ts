/**
 * The policy's value patterns: `*` matches any run of characters without `/`, `**` any run of
 * characters at all; every other character stands for itself. A pattern is compiled once (when its
 * policy is parsed) into the cheapest test that decides it: equality without a wildcard, a prefix and
 * suffix check with one, and otherwise a set-of-states walk, whose time is bounded by pattern length
 * times value length (a backtracking regular expression can take exponential time on `*a*a*a*b`).
 */
export type Matcher = (value: string) => boolean;

type Token = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'star' | 'globstar' };

/** `**` is read before `*`, so `***` is `**` then `*` (which together match anything). */
function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '*') {
      text += pattern[i];
      continue;
    }
    if (text) tokens.push({ kind: 'text', text });
    text = '';
    if (pattern[i + 1] === '*') {
      tokens.push({ kind: 'globstar' });
      i++;
    } else {
      tokens.push({ kind: 'star' });
    }
  }
  if (text) tokens.push({ kind: 'text', text });
  return tokens;
}

export function compileGlob(pattern: string): Matcher {
  const tokens = tokenize(pattern);
  const wildcards = tokens.filter((t) => t.kind !== 'text');
  if (wildcards.length === 0) return (value) => value === pattern;
  if (wildcards.length === 1) return oneWildcard(tokens);
  return stateWalk(tokens);
}

/** `prefix*suffix` or `prefix**suffix`: the middle is what the wildcard covers. */
function oneWildcard(tokens: readonly Token[]): Matcher {
  const at = tokens.findIndex((t) => t.kind !== 'text');
  const prefix = at > 0 ? (tokens[0] as { text: string }).text : '';
  const suffix = at < tokens.length - 1 ? (tokens[at + 1] as { text: string }).text : '';
  const crossesSlash = tokens[at]!.kind === 'globstar';
  const fixed = prefix.length + suffix.length;
  return (value) => {
    if (value.length < fixed || !value.startsWith(prefix) || !value.endsWith(suffix)) return false;
    if (crossesSlash) return true;
    const slash = value.indexOf('/', prefix.length);
    return slash === -1 || slash >= value.length - suffix.length;
  };
}

/**
 * An NFA over the pattern's characters: state i means "the first i steps of the pattern are
 * matched". A wildcard state loops on the characters it accepts and may also be skipped.
 */
function stateWalk(tokens: readonly Token[]): Matcher {
  // One step per literal character, one per wildcard.
  const steps: (string | 'star' | 'globstar')[] = [];
  for (const t of tokens) {
    if (t.kind === 'text') for (const ch of t.text) steps.push(ch);
    else steps.push(t.kind);
  }
  // Literal steps hold one UTF-16 unit or one code point; values are walked by code point too.
  const size = steps.length + 1;
  const isWild = steps.map((s) => s === 'star' || s === 'globstar');
  return (value) => {
    let current = new Uint8Array(size);
    let next = new Uint8Array(size);
    const close = (set: Uint8Array): void => {
      // A wildcard may match nothing: reaching it reaches the state after it as well.
      for (let i = 0; i < steps.length; i++) if (set[i] && isWild[i]) set[i + 1] = 1;
    };
    current[0] = 1;
    close(current);
    for (const ch of value) {
      next.fill(0);
      let alive = false;
      for (let i = 0; i < steps.length; i++) {
        if (!current[i]) continue;
        const step = steps[i]!;
        if (step === 'globstar' || (step === 'star' && ch !== '/')) {
          next[i] = 1;
          alive = true;
        } else if (step === ch) {
          next[i + 1] = 1;
          alive = true;
        }
      }
      if (!alive) return false;
      close(next);
      [current, next] = [next, current];
    }
    return current[steps.length] === 1;
  };
}
