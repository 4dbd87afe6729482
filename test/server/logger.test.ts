import assert from 'node:assert/strict';
import { capturedLogger } from '../support/log-capture.js';

describe('structured logger', () => {
  it('redacts secrets whatever code logs them', () => {
    const { logger, lines, text } = capturedLogger();
    logger.info(
      {
        token: 'ghs_secret1',
        oidcToken: 'eyJ.secret2',
        req: { headers: { authorization: 'Bearer secret3', cookie: 'session=secret4', 'x-hub-signature-256': 'sha256=secret5' } },
        settings: { privateKey: '-----BEGIN secret6', webhookUrl: 'https://hooks/secret7', secret: 'secret8' },
        repository: 'octo-org/octo-repo',
      },
      'event',
    );
    for (let i = 1; i <= 8; i++) assert.ok(!text().includes(`secret${i}`), `secret${i} reached the log`);
    const [line] = lines();
    assert.equal(line!.token, '[redacted]');
    assert.equal(line!.repository, 'octo-org/octo-repo');
    assert.equal(line!.level, 'info');
    assert.equal(line!.service, 'gatehouse');
    assert.match(String(line!.time), /^\d{4}-\d{2}-\d{2}T/);
  });

  it('redacts the names in child-logger bindings and two levels down, and leaves errors whole', () => {
    const { logger, lines, text } = capturedLogger();
    logger.child({ token: 'secret1', req: { headers: { authorization: 'Bearer secret2' } } }).info({ outer: { inner: { password: 'secret3' } } }, 'bound');
    logger.error({ err: new Error('boom') }, 'failed');
    for (let i = 1; i <= 3; i++) assert.ok(!text().includes(`secret${i}`), `secret${i} reached the log`);
    const failed = lines().find((l) => l.msg === 'failed') as { err?: { message?: string; stack?: string } };
    assert.equal(failed.err?.message, 'boom');
    assert.match(String(failed.err?.stack), /^Error: boom/);
  });
});
