/*
 * GitHub's owner and repository names, checked one way at every entry (settings, request bodies,
 * query parameters, DefectDojo tags), so nothing that reaches an API path can be an empty or dot
 * segment: `acme/..` would otherwise become `GET /repos/` once the URL is resolved.
 */

/** An owner login: letters, digits and hyphens, starting with a letter or digit, at most 39 characters. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
/** A repository name: letters, digits, `.`, `_`, `-`, at most 100 characters; GitHub refuses `.` and `..`. */
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export function isOwnerLogin(owner: unknown): owner is string {
  return typeof owner === 'string' && OWNER.test(owner);
}

export function isRepositoryName(name: unknown): name is string {
  return typeof name === 'string' && NAME.test(name) && name !== '.' && name !== '..';
}

/** Plain platform identifiers, safe to put in an API path. */
export function isRepositoryPair(owner: unknown, name: unknown): owner is string {
  return isOwnerLogin(owner) && isRepositoryName(name);
}

/** `owner/name` split into its two parts, or undefined when it is not exactly that. */
export function parseFullName(fullName: string): { readonly owner: string; readonly name: string } | undefined {
  const parts = fullName.split('/');
  if (parts.length !== 2) return undefined;
  const [owner, name] = parts as [string, string];
  return isRepositoryPair(owner, name) ? { owner, name } : undefined;
}

/** Whether two `owner/name` pairs name the same repository (GitHub compares both without case). */
export function sameFullName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
