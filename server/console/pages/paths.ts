import type { SessionRepository } from '../../store/types.js';

/** Where a repository's pages are: built from GitHub's names, each part percent-encoded. */
export const repositoryPath = (r: SessionRepository): string => `/console/repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.name)}`;
export const auditPath = (r: SessionRepository): string => `${repositoryPath(r)}/audit`;
export const auditCsvPath = (r: SessionRepository): string => `${repositoryPath(r)}/audit.csv`;

/** A path with these parameters as its query (empty ones left out), in the order given. */
export function withQuery(path: string, parameters: Readonly<Record<string, string | undefined>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
