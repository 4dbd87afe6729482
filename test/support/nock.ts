import assert from 'node:assert/strict';
import { syncBuiltinESMExports } from 'node:module';
import nock from 'nock';

/**
 * Registers mocha hooks that turn nock on for one suite only: no real network except what the
 * suite allows, every expected call must have been made, and interception is removed afterwards
 * so other suites use the untouched network stack.
 */
export function useNock(): void {
  before(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    // nock patches the CommonJS http/https objects; ESM imports of the builtins (as in
    // @actions/http-client) see the patch only once the ESM facades are re-synced.
    syncBuiltinESMExports();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    assert.deepEqual(pending, [], 'expected HTTP calls were not made');
  });
  after(() => {
    nock.enableNetConnect();
    nock.restore();
    syncBuiltinESMExports();
  });
}
