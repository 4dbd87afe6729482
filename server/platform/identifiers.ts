/** GitHub's rules for an owner login: letters, digits and single hyphens, at most 39 characters. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
/** A repository name: letters, digits, `.`, `_`, `-`, at most 100 characters, never `.` or `..`. */
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** Plain platform identifiers, safe to put in an API path. */
export function isRepositoryPair(owner: unknown, name: unknown): owner is string {
  return typeof owner === 'string' && typeof name === 'string' && OWNER.test(owner) && NAME.test(name) && name !== '.' && name !== '..';
}
