import assert from 'node:assert/strict';
import { manualClock, startBackend } from '../support/backend.js';
import { call } from '../support/http.js';

const DAY = 86_400_000;

describe('ledger: retention', () => {
  it('records and markers expire after LEDGER_RETENTION_DAYS (default 90)', async () => {
    const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
    const backend = await startBackend({ clock });
    const deployments = `${backend.url}/v1/deployments`;
    const token = () => backend.issuer.mint({}, { nowMs: clock.now() });
    const body = { delivery_id: 'kept-90-days', environment: 'production', status: 'success' };
    try {
      const first = await call<{ recorded_at: string }>(deployments, { token: await token(), json: body });
      assert.equal(first.status, 201);
      assert.equal(first.body.recorded_at, '2026-01-01T00:00:00.000Z');

      clock.advance(90 * DAY - 1000);
      assert.equal((await call(deployments, { token: await token(), json: body })).status, 200, 'still a duplicate on day 89');
      let history = await call<{ deployments: unknown[] }>(deployments, { token: await token() });
      assert.equal(history.body.deployments.length, 1);

      clock.advance(2000);
      history = await call<{ deployments: unknown[] }>(deployments, { token: await token() });
      assert.equal(history.body.deployments.length, 0, 'gone after 90 days');
      assert.equal((await call(deployments, { token: await token(), json: body })).status, 201, 'marker gone too');
    } finally {
      await backend.close();
    }
  });

  it('a shorter retention applies to records made after the change', async () => {
    const clock = manualClock(Date.parse('2026-03-01T00:00:00Z'));
    const backend = await startBackend({ clock, env: { LEDGER_RETENTION_DAYS: '7' } });
    const deployments = `${backend.url}/v1/deployments`;
    const token = () => backend.issuer.mint({}, { nowMs: clock.now() });
    try {
      await call(deployments, { token: await token(), json: { delivery_id: 'week', environment: 'e', status: 'success' } });
      clock.advance(8 * DAY);
      const history = await call<{ deployments: unknown[] }>(deployments, { token: await token() });
      assert.equal(history.body.deployments.length, 0);
    } finally {
      await backend.close();
    }
  });
});
