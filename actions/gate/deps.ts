import type { ActionsCore } from '../shared/core.js';
import type { EventContext } from '../shared/event.js';
import type { ActionHttp } from '../shared/http.js';

export type GateCore = ActionsCore & Pick<typeof import('@actions/core'), 'error' | 'notice'>;

export interface GateDeps {
  readonly core: GateCore;
  readonly env: NodeJS.ProcessEnv;
  readonly http: ActionHttp;
  readonly cwd: string;
  /** The run's event (`@actions/github`'s `context`); none when absent. */
  readonly event?: EventContext;
}
