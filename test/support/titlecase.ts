/*
 * What DefectDojo does to a finding's title on every save (`Finding.save`, dojo/finding/models.py:
 * `self.title = titlecase(self.title[:511])`), for the fake: the rules of the Python `titlecase`
 * package 2.4.1 as it runs there, without the optional `regex` module (DefectDojo does not install
 * it, so the package falls back to `re` and its `\w`-based patterns). Written from those rules, and
 * checked against DefectDojo 3.2.0's own answers (`test/sync/titlecase.test.ts` holds the titles and
 * what the real server stored).
 */

const SMALL = String.raw`a|an|and|as|at|but|by|en|for|if|in|of|on|or|the|to|v\.?|via|vs\.?`;
/** The package's punctuation class, escaped for a character class of a unicode-mode pattern. */
const PUNCT = '!"“#$%&\'‘()*+,\\-–‒—―./:;?@\\[\\\\\\]_`{|}~';
/** Python's `\w` on a str pattern: any Unicode letter or digit, and the underscore. */
const W = String.raw`[\p{L}\p{N}_]`;

const SMALL_WORD = new RegExp(`^(?:${SMALL})$`, 'iu');
const SMALL_FIRST = new RegExp(`^([${PUNCT}]*)(${SMALL})(?!${W})`, 'iu');
const SMALL_LAST = new RegExp(`(?<!${W})(${SMALL})[${PUNCT}]?$`, 'iu');
const SUBPHRASE = new RegExp(`([:.;?!\\-–‒—―] )(${SMALL})`, 'gu');
const MAC_MC = new RegExp(`^([Mm]c|MC)(${W}.+)`, 'u');
const MR_MRS_MS_DR = /^(?:m(?:rs?|s)|dr)$/i;
const INLINE_PERIOD = new RegExp(`${W}[.]${W}`, 'iu');
const UC_ELSEWHERE = new RegExp(`^[${PUNCT}]*?[a-zA-Z]+[A-Z]+?`, 'u');
const CAPFIRST = new RegExp(`^[${PUNCT}]*?(${W})`, 'u');
const APOS_SECOND = new RegExp(`^[dol]['‘]${W}+(?:['s]{2})?$`, 'iu');
const UC_INITIALS = /^(?:[A-Z]\.|[A-Z]\.[A-Z])+$/;
const ALL_CONSONANTS = /^[bcdfghjklmnpqrstvwxz]+$/i;

/** Python's `str.capitalize()`: the first character upper case, the rest lower. */
const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

function word(text: string, allCaps: boolean): string {
  if (allCaps && UC_INITIALS.test(text)) return text;
  if (APOS_SECOND.test(text)) {
    const first = 'aeiouAEIOU'.includes(text[0]!) ? text[0]!.toUpperCase() : text[0]!.toLowerCase();
    return first + text[1]! + text[2]!.toUpperCase() + text.slice(3);
  }
  const mac = MAC_MC.exec(text);
  if (mac) return capitalize(mac[1]!) + titlecase(mac[2]!, true);
  if (MR_MRS_MS_DR.test(text)) return text.charAt(0).toUpperCase() + text.slice(1);
  if (INLINE_PERIOD.test(text) || (!allCaps && UC_ELSEWHERE.test(text))) return text;
  if (SMALL_WORD.test(text)) return text.toLowerCase();
  if (text.includes('/') && !text.includes('//')) return text.split('/').map((part) => titlecase(part, false)).join('/');
  if (text.includes('-')) return text.split('-').map((part) => titlecase(part, false)).join('-');
  const lowered = allCaps ? text.toLowerCase() : text;
  if (lowered.length > 2 && ALL_CONSONANTS.test(lowered)) return lowered.toUpperCase();
  return lowered.replace(CAPFIRST, (m) => m.toUpperCase());
}

/** `titlecase(text)`: lines split on runs of line breaks, words on single spaces or tabs. */
export function titlecase(text: string, smallFirstLast = true): string {
  return text
    .split(/[\r\n]+/)
    .map((line) => {
      const allCaps = line.toUpperCase() === line;
      const words = line.split(/[\t ]/).map((w) => word(w, allCaps));
      if (smallFirstLast && words.length > 0) {
        words[0] = words[0]!.replace(SMALL_FIRST, (_m, punct: string, small: string) => punct + capitalize(small));
        words[words.length - 1] = words.at(-1)!.replace(SMALL_LAST, (m) => capitalize(m));
      }
      return words.join(' ').replace(SUBPHRASE, (_m, lead: string, small: string) => lead + capitalize(small));
    })
    .join('\n');
}
