/** What one reimport changed, from the `statistics` DefectDojo answers with. */
export interface ReimportCounts {
  readonly created: number;
  readonly closed: number;
  readonly reactivated: number;
  readonly untouched: number;
}

function total(node: unknown): number | undefined {
  const value = (node as { total?: { total?: unknown } } | undefined)?.total?.total;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The counts of one reimport: the `statistics.delta` totals (untouched findings under
 * `untouched`, or `left untouched` before DefectDojo 2.46.0); or, when the reimport created its
 * test, the `statistics.after` total as created. DefectDojo then runs an import, whose answer has
 * `after` alone (no `before`, no `delta`), and every finding in the test is one it created.
 * Undefined when the answer says neither (an answer with `before` but no `delta`, as some versions
 * and configurations give, says nothing about what changed).
 */
export function reimportCounts(body: unknown): ReimportCounts | undefined {
  const statistics = (body as { statistics?: Record<string, unknown> } | undefined)?.statistics;
  if (!statistics || typeof statistics !== 'object') return undefined;
  const delta = statistics.delta as Record<string, unknown> | undefined;
  if (delta && typeof delta === 'object') {
    const created = total(delta.created);
    const closed = total(delta.closed);
    const reactivated = total(delta.reactivated);
    // `left untouched` until DefectDojo 2.45.x (its IMPORT_ACTIONS label; renamed in 2.46.0).
    const untouched = total(delta.untouched ?? delta['left untouched']);
    if (created === undefined || closed === undefined || reactivated === undefined || untouched === undefined) return undefined;
    return { created, closed, reactivated, untouched };
  }
  if (!('before' in statistics)) {
    const created = total(statistics.after);
    if (created !== undefined) return { created, closed: 0, reactivated: 0, untouched: 0 };
  }
  return undefined;
}
