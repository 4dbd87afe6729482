/**
 * GitHub's installation-token permission vocabulary (schema `app-permissions` of GitHub's REST
 * description; test/platform/permission-vocabulary.test.ts fails when this table and the
 * schema disagree). Values are GitHub's own, `admin` included: the broker's narrower rule
 * (read or write only) is applied where permissions are configured.
 */
export type GitHubAccess = 'read' | 'write' | 'admin';

const RW = ['read', 'write'] as const;
const RWA = ['read', 'write', 'admin'] as const;
const R = ['read'] as const;
const W = ['write'] as const;

/** Permissions over one repository's resources: the only ones a single-repository token carries. */
export const REPOSITORY_PERMISSIONS: Readonly<Record<string, readonly GitHubAccess[]>> = {
  actions: RW,
  administration: RW,
  artifact_metadata: RW,
  attestations: RW,
  checks: RW,
  code_quality: RW,
  codespaces: RW,
  contents: RW,
  dependabot_secrets: RW,
  deployments: RW,
  discussions: RW,
  environments: RW,
  issues: RW,
  merge_queues: RW,
  metadata: RW,
  packages: RW,
  pages: RW,
  pull_requests: RW,
  repository_custom_properties: RW,
  repository_hooks: RW,
  repository_projects: RWA,
  secret_scanning_alerts: RW,
  secrets: RW,
  security_events: RW,
  single_file: RW,
  statuses: RW,
  vulnerability_alerts: RW,
  workflows: W,
};

/**
 * Organization, account (user) and enterprise permissions, from GitHub.com's description and
 * the enterprise ones (GHEC, GHES) the broker may mint against. Never on a one-repository token.
 */
export const BEYOND_REPOSITORY_PERMISSIONS: Readonly<Record<string, readonly GitHubAccess[]>> = {
  custom_properties_for_organizations: RW,
  members: RW,
  organization_administration: RW,
  organization_custom_roles: RW,
  organization_custom_org_roles: RW,
  organization_custom_properties: RWA,
  organization_copilot_seat_management: RW,
  organization_copilot_agent_settings: RW,
  organization_announcement_banners: RW,
  organization_events: R,
  organization_hooks: RW,
  organization_personal_access_tokens: RW,
  organization_personal_access_token_requests: RW,
  organization_plan: R,
  organization_projects: RWA,
  organization_packages: RW,
  organization_secrets: RW,
  organization_self_hosted_runners: RW,
  organization_user_blocking: RW,
  email_addresses: RW,
  followers: RW,
  git_ssh_keys: RW,
  gpg_keys: RW,
  interaction_limits: RW,
  profile: W,
  starring: RW,
  enterprise_administration: RW,
  enterprise_custom_properties: RW,
  enterprise_custom_properties_for_organizations: RWA,
  enterprise_organization_installations: RW,
  enterprise_organization_installation_repositories: RW,
};

/** Longest name quoted back in a problem (every GitHub name is shorter). */
const SHOWN_NAME = 64;
const shown = (name: string): string => (name.length > SHOWN_NAME ? `${name.slice(0, SHOWN_NAME)}…` : name);

/**
 * Why a single-repository token must not ask for `name` at `access`, or undefined when it may:
 * the name must be a repository permission GitHub knows, and `access` one GitHub accepts for it.
 * The answer quotes the name (a setting, never a secret) so an operator knows what to fix.
 */
export function repositoryPermissionProblem(name: string, access: string): string | undefined {
  if (Object.hasOwn(BEYOND_REPOSITORY_PERMISSIONS, name)) {
    return `names ${name}, an organization, account or enterprise permission: a single-repository token must not carry it`;
  }
  if (!Object.hasOwn(REPOSITORY_PERMISSIONS, name)) return `names ${shown(name)}, which is not a GitHub App permission`;
  const accepted = REPOSITORY_PERMISSIONS[name]!;
  if (!accepted.includes(access as GitHubAccess)) return `sets ${name} to ${shown(access)}, which GitHub does not accept (${name} takes ${accepted.join(' or ')})`;
  return undefined;
}

/** The first problem of a permission set (see `repositoryPermissionProblem`), or undefined. */
export function permissionsProblem(permissions: Readonly<Record<string, string>>): string | undefined {
  for (const [name, access] of Object.entries(permissions)) {
    const problem = repositoryPermissionProblem(name, access);
    if (problem) return problem;
  }
  return undefined;
}
