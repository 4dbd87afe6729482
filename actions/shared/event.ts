/**
 * What an action reads of its run (`@actions/github`'s `context`, read once from the runner's
 * event file; the entry passes it in, tests pass their own).
 */
export interface EventContext {
  readonly eventName: string | undefined;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** No event: what a run outside the runner (the command line elsewhere, a test) sees. */
export const NO_EVENT: EventContext = { eventName: undefined, payload: {} };
