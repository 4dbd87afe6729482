import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { auditSettings } from '../../server/audit/settings.js';
import { brokerSettings, type BrokerSettings, type PlatformSettings } from '../../server/broker/settings.js';
import { memoOnEnv, type Env } from '../../server/config-error.js';
import { consoleSettings } from '../../server/console/settings.js';
import { ledgerSettings } from '../../server/ledger/settings.js';
import { AppClients } from '../../server/platform/clients.js';
import type { AppCredentials } from '../../server/platform/credentials.js';
import { checkBackendStartup } from '../../server/startup/backend.js';
import { checkMinimalStartup } from '../../server/minimal/startup.js';

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

describe('settings: one parse per set of values (memoOnEnv)', () => {
  it('parses once while the values it read are unchanged, whichever object holds them; again when one of them changes', () => {
    const parsed: Env[] = [];
    const read = memoOnEnv((env) => {
      parsed.push(env);
      return { audience: env.AUDIENCE, mode: env.MODE };
    });
    const env: Record<string, string | undefined> = { AUDIENCE: 'a', MODE: 'x', OTHER: '1' };
    const first = read(env);
    assert.equal(read(env), first);
    // A copy with the same values: what a request sees of the environment the start-up check read.
    assert.equal(read({ ...env }), first);
    env.OTHER = '2';
    assert.equal(read(env), first, 'a variable it never read changes nothing');
    env.MODE = 'y';
    const second = read(env);
    assert.notEqual(second, first);
    assert.deepEqual(second, { audience: 'a', mode: 'y' });
    assert.equal(parsed.length, 2);
  });

  it('a variable read only on one branch counts once that branch is taken', () => {
    let parses = 0;
    const read = memoOnEnv((env) => {
      parses++;
      return env.ON === 'yes' ? `on:${env.DETAIL}` : 'off';
    });
    const env: Record<string, string | undefined> = { ON: 'no', DETAIL: 'a' };
    assert.equal(read(env), 'off');
    env.DETAIL = 'b';
    assert.equal(read(env), 'off');
    assert.equal(parses, 1, 'DETAIL was not read: no parse');
    env.ON = 'yes';
    assert.equal(read(env), 'on:b');
    env.DETAIL = 'c';
    assert.equal(read(env), 'on:c');
    assert.equal(parses, 3);
  });

  it('keeps the last four environments: going back to one of them is not parsed again', () => {
    let parses = 0;
    const read = memoOnEnv((env) => ({ n: ++parses, value: env.V }));
    const one = read({ V: '1' });
    for (const v of ['2', '3', '4']) read({ V: v });
    assert.equal(read({ V: '1' }), one);
    read({ V: '5' });
    assert.notEqual(read({ V: '1' }), one, 'the oldest was dropped');
  });

  it('the broker: enterprise settings are read once enterprise support is on', () => {
    const env: Record<string, string | undefined> = { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: PEM, ENTERPRISE_APP_ID: '7' };
    const first = brokerSettings(env);
    env.ENTERPRISE_APP_ID = '8';
    assert.equal(brokerSettings(env), first, 'enterprise support is off: its app id is not read');
    env.ENTERPRISE_OIDC_ISSUER = 'https://ghe.example.com/_services/token';
    const on = brokerSettings(env);
    assert.notEqual(on, first);
    env.ENTERPRISE_APP_ID = '9';
    const changed = brokerSettings(env);
    assert.notEqual(changed, on);
    const enterprise = [...(changed.platforms as { value: ReadonlyMap<string, PlatformSettings> }).value.values()].find((p) => p.name === 'enterprise')!;
    assert.equal((enterprise.app as { ok: false; error: Error }).ok, false);
  });

  it('the start-up checks and the requests read the same parse of every part', () => {
    const env: Env = { PORT: '0', FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: PEM, LEDGER_AUDIENCE: 'ledger', AUDIT_WRITE: 'required' };
    assert.ok(checkBackendStartup(env).ok);
    assert.ok(checkMinimalStartup(env).ok);
    const atStart = { broker: brokerSettings(env), ledger: ledgerSettings(env), console: consoleSettings(env), audit: auditSettings(env) };
    // Each request reads the environment afresh (a new object, new strings): the same objects come back.
    const request = { ...env };
    assert.equal(brokerSettings(request), atStart.broker);
    assert.equal(ledgerSettings(request), atStart.ledger);
    assert.equal(consoleSettings(request), atStart.console);
    assert.equal(auditSettings(request), atStart.audit);
  });
});

describe('clients built from settings: one per parsed settings object', () => {
  const clients = new AppClients({ userAgent: 'gatehouse/test' });
  const primaryApp = (settings: BrokerSettings): { apiBase: string; app: AppCredentials } => {
    const primary = (settings.primary as { value: PlatformSettings }).value;
    return { apiBase: (primary.apiBase as { value: string }).value, app: (primary.app as { value: AppCredentials }).value };
  };

  it('unchanged settings keep their App client (and its app JWT); a changed key or API base gets a new one', () => {
    const env: Record<string, string | undefined> = { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: PEM, FORGE_API_BASE: 'https://ghe.example.com/api/v3' };
    const a = primaryApp(brokerSettings(env));
    const client = clients.for(a.apiBase, a.app);
    const again = primaryApp(brokerSettings({ ...env }));
    assert.equal(clients.for(again.apiBase, again.app), client);
    env.FORGE_APP_PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rekeyed = primaryApp(brokerSettings(env));
    assert.notEqual(clients.for(rekeyed.apiBase, rekeyed.app), client);
    assert.notEqual(clients.for('https://other.example.com/api/v3', a.app), client);
  });
});
