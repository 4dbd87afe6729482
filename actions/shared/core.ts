import type * as actionsCore from '@actions/core';

/**
 * The part of `@actions/core` the actions use. Entry files pass the real module; tests pass a
 * recording stand-in, so no test patches globals.
 */
export type ActionsCore = Pick<
  typeof actionsCore,
  'getInput' | 'setOutput' | 'setSecret' | 'setFailed' | 'info' | 'notice' | 'warning' | 'debug'
> & {
  readonly summary: Pick<typeof actionsCore.summary, 'addRaw' | 'write'>;
};

/** `ActionsCore` with the state a step hands its post step (request-token's tokens and refresh folder). */
export type StatefulCore = ActionsCore & Pick<typeof actionsCore, 'saveState' | 'getState'>;
