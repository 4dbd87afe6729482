/** What one reimport changed, from the `statistics.delta` DefectDojo answers with. */
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
 * The delta totals, or undefined when the answer has no `statistics.delta` (DefectDojo leaves it
 * out in some versions and configurations; `after` alone says nothing about what changed).
 */
export function reimportCounts(body: unknown): ReimportCounts | undefined {
  const delta = (body as { statistics?: { delta?: Record<string, unknown> } } | undefined)?.statistics?.delta;
  if (!delta || typeof delta !== 'object') return undefined;
  const created = total(delta.created);
  const closed = total(delta.closed);
  const reactivated = total(delta.reactivated);
  const untouched = total(delta.untouched);
  if (created === undefined || closed === undefined || reactivated === undefined || untouched === undefined) return undefined;
  return { created, closed, reactivated, untouched };
}
