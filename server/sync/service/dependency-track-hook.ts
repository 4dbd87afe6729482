/**
 * Dependency-Track's outbound webhook notifications (its "Webhook" publisher: a POST of
 * `{"notification": {level, scope, group, timestamp, title, content, subject}}`), read for the
 * projects whose findings they say changed.
 */

/** The groups that change a project's findings: a BOM analysed, a new vulnerability, an analysis decision. */
const SYNCED_GROUPS = ['BOM_PROCESSED', 'NEW_VULNERABILITY', 'PROJECT_AUDIT_CHANGE'] as const;

/** The most projects one notification starts (NEW_VULNERABILITY lists every affected project). */
const MAX_PROJECTS_PER_NOTIFICATION = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type HookReading =
  | { readonly kind: 'projects'; readonly group: string; readonly projects: readonly string[] }
  | { readonly kind: 'ignored'; readonly group: string }
  | { readonly kind: 'invalid'; readonly message: string };

const uuidOf = (value: unknown): string | undefined => {
  const uuid = (value as { uuid?: unknown } | null)?.uuid;
  return typeof uuid === 'string' && UUID.test(uuid) ? uuid.toLowerCase() : undefined;
};

/**
 * The projects a notification names: `subject.project` (BOM_PROCESSED), `subject.affectedProjects`
 * (NEW_VULNERABILITY, PROJECT_AUDIT_CHANGE) and `subject.analysis.project` (a UUID string).
 */
export function readNotification(body: unknown): HookReading {
  const notification = (body as { notification?: unknown } | null)?.notification as Record<string, unknown> | undefined;
  if (!notification || typeof notification !== 'object' || typeof notification.group !== 'string') {
    return { kind: 'invalid', message: 'not a Dependency-Track notification: {"notification": {"group": …, "subject": …}} expected' };
  }
  const group = notification.group;
  if (!(SYNCED_GROUPS as readonly string[]).includes(group)) return { kind: 'ignored', group };
  const subject = (notification.subject ?? {}) as { project?: unknown; affectedProjects?: unknown; analysis?: { project?: unknown } };
  const found = new Set<string>();
  const add = (uuid: string | undefined) => uuid && found.size < MAX_PROJECTS_PER_NOTIFICATION && found.add(uuid);
  add(uuidOf(subject.project));
  if (Array.isArray(subject.affectedProjects)) for (const p of subject.affectedProjects) add(uuidOf(p));
  const analysed = subject.analysis?.project;
  if (typeof analysed === 'string' && UUID.test(analysed)) add(analysed.toLowerCase());
  if (found.size === 0) return { kind: 'invalid', message: `a ${group} notification without a project UUID (subject.project, subject.affectedProjects)` };
  return { kind: 'projects', group, projects: [...found] };
}
