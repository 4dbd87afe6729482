/**
 * `create` (a collection's indexes) run once and shared by every caller; a failure is not kept,
 * so the next caller tries again (MongoDB may be back by then).
 */
export function createdOnce(create: () => Promise<unknown>): () => Promise<void> {
  let created: Promise<void> | undefined;
  return () => {
    created ??= create().then(
      () => undefined,
      (err: unknown) => {
        created = undefined;
        throw err;
      },
    );
    return created;
  };
}
