import { REPOSITORY_PERMISSIONS, repositoryPermissionProblem } from '../../server/platform/permission-vocabulary.js';
import type { ActionsCore } from '../shared/core.js';
import { InputError, optionalInput } from '../shared/inputs.js';

/** One input per repository permission GitHub knows, as `actions/create-github-app-token` names them. */
export const PERMISSION_INPUTS: readonly string[] = Object.keys(REPOSITORY_PERMISSIONS).map((name) => `permission-${name.replace(/_/g, '-')}`);

/**
 * The `permission-<name>` inputs that are set (`read` or `write`), as the body's `permissions`
 * object; undefined when none is, so the broker's ceiling applies unchanged. A value GitHub does
 * not take for that permission fails the step: retrying never fixes it.
 */
export function requestedPermissions(core: ActionsCore): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of Object.keys(REPOSITORY_PERMISSIONS)) {
    const input = `permission-${name.replace(/_/g, '-')}`;
    const value = optionalInput(core, input)?.toLowerCase();
    if (value === undefined) continue;
    if ((value !== 'read' && value !== 'write') || repositoryPermissionProblem(name, value)) {
      throw new InputError(`input "${input}" must be ${REPOSITORY_PERMISSIONS[name]!.filter((a) => a !== 'admin').join(' or ')}`);
    }
    out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
