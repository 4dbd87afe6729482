import assert from 'node:assert/strict';
import { ConfigError, type Env } from '../../server/config-error.js';
import { checkLedgerSettings, type LedgerSettings } from '../../server/ledger/settings.js';

/** The settings, or the first problem thrown (what a request meets as 500 misconfigured). */
function parseLedgerSettings(env: Env): LedgerSettings {
  const checked = checkLedgerSettings(env);
  if (!checked.ok) throw checked.problems[0]!;
  return checked.value;
}

const jwks = JSON.stringify({ keys: [{ kty: 'RSA', n: 'sXch', e: 'AQAB', kid: 'k1' }] });

describe('ledger settings', () => {
  it('defaults: GitHub issuer and key-set path, no audience, no owners, 90 days, no chat', () => {
    const s = parseLedgerSettings({});
    assert.deepEqual([...s.issuers.keys()], ['https://token.actions.githubusercontent.com']);
    assert.equal(s.issuers.get('https://token.actions.githubusercontent.com')?.jwksUrl, 'https://token.actions.githubusercontent.com/.well-known/jwks');
    assert.deepEqual(s.audiences, []);
    assert.equal(s.allowedOwners.size, 0);
    assert.equal(s.retentionDays, 90);
    assert.equal(s.chatWebhookUrl, undefined);
  });

  const accepted: [string, Record<string, string>, (s: ReturnType<typeof parseLedgerSettings>) => void][] = [
    ['OIDC_ISSUER trailing slashes and spaces stripped', { OIDC_ISSUER: ' https://issuer.example.com// ' }, (s) => assert.ok(s.issuers.has('https://issuer.example.com'))],
    ['OIDC_ISSUER http on loopback', { OIDC_ISSUER: 'http://127.0.0.1:9000' }, (s) => assert.ok(s.issuers.has('http://127.0.0.1:9000'))],
    ['OIDC_ISSUER blank falls back to GitHub', { OIDC_ISSUER: '  ' }, (s) => assert.ok(s.issuers.has('https://token.actions.githubusercontent.com'))],
    ['LEDGER_AUDIENCE comma list trimmed, empties dropped', { LEDGER_AUDIENCE: ' a, ,b ,' }, (s) => assert.deepEqual(s.audiences, ['a', 'b'])],
    ['LEDGER_ALLOWED_OWNERS lowercased and trimmed', { LEDGER_ALLOWED_OWNERS: 'Octo-Org , other,' }, (s) => assert.deepEqual([...s.allowedOwners], ['octo-org', 'other'])],
    ['LEDGER_RETENTION_DAYS', { LEDGER_RETENTION_DAYS: ' 30 ' }, (s) => assert.equal(s.retentionDays, 30)],
    ['LEDGER_JWKS_DOCUMENT pins the keys', { LEDGER_JWKS_DOCUMENT: jwks }, (s) => assert.ok([...s.issuers.values()][0]?.pinnedJwks)],
    ['LEDGER_CHAT_WEBHOOK_URL https', { LEDGER_CHAT_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x' }, (s) => assert.equal(s.chatWebhookUrl, 'https://hooks.slack.com/services/T/B/x')],
    ['LEDGER_CHAT_WEBHOOK_URL blank means no sink', { LEDGER_CHAT_WEBHOOK_URL: ' ' }, (s) => assert.equal(s.chatWebhookUrl, undefined)],
  ];
  for (const [label, env, check] of accepted) {
    it(`accepts ${label}`, () => check(parseLedgerSettings(env)));
  }

  const refused: [string, Record<string, string>, string][] = [
    ['a non-URL issuer', { OIDC_ISSUER: 'token.actions' }, 'OIDC_ISSUER'],
    ['a plain-http remote issuer', { OIDC_ISSUER: 'http://issuer.example.com' }, 'OIDC_ISSUER'],
    ['an issuer with a query', { OIDC_ISSUER: 'https://issuer.example.com/?x=1' }, 'OIDC_ISSUER'],
    ['a JWKS that is not JSON', { LEDGER_JWKS_DOCUMENT: '{keys' }, 'LEDGER_JWKS_DOCUMENT'],
    ['a JWKS without keys', { LEDGER_JWKS_DOCUMENT: '{"keys":[]}' }, 'LEDGER_JWKS_DOCUMENT'],
    ['a JWKS with an EC key', { LEDGER_JWKS_DOCUMENT: '{"keys":[{"kty":"EC"}]}' }, 'LEDGER_JWKS_DOCUMENT'],
    ['a JWKS with a private key', { LEDGER_JWKS_DOCUMENT: '{"keys":[{"kty":"RSA","d":"x"}]}' }, 'LEDGER_JWKS_DOCUMENT'],
    ['retention of zero days', { LEDGER_RETENTION_DAYS: '0' }, 'LEDGER_RETENTION_DAYS'],
    ['retention that is not a number', { LEDGER_RETENTION_DAYS: '90d' }, 'LEDGER_RETENTION_DAYS'],
    ['a fractional retention', { LEDGER_RETENTION_DAYS: '1.5' }, 'LEDGER_RETENTION_DAYS'],
    ['a plain-http remote chat webhook', { LEDGER_CHAT_WEBHOOK_URL: 'http://hooks.example.com/x' }, 'LEDGER_CHAT_WEBHOOK_URL'],
    ['a chat webhook that is not a URL', { LEDGER_CHAT_WEBHOOK_URL: 'hooks' }, 'LEDGER_CHAT_WEBHOOK_URL'],
  ];
  for (const [label, env, setting] of refused) {
    it(`refuses ${label}, naming ${setting} and not its value`, () => {
      const err = (() => {
        try {
          parseLedgerSettings(env);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      assert.ok(err instanceof ConfigError, 'expected a ConfigError');
      assert.equal(err.setting, setting);
      if (setting === 'LEDGER_CHAT_WEBHOOK_URL') assert.ok(!err.message.includes(env[setting]!));
    });
  }

  it('checkLedgerSettings lists every unusable setting at once (the issuer and the pinned key set both), never a value', () => {
    const hook = 'http://hooks.example.com/services/T0/B0/fake-hook-secret';
    const checked = checkLedgerSettings({
      OIDC_ISSUER: 'http://issuer.example.com',
      LEDGER_JWKS_DOCUMENT: '{keys',
      LEDGER_RETENTION_DAYS: '0',
      LEDGER_CHAT_WEBHOOK_URL: hook,
    });
    assert.equal(checked.ok, false);
    if (checked.ok) return;
    assert.deepEqual(
      checked.problems.map((p) => p.setting),
      ['OIDC_ISSUER', 'LEDGER_JWKS_DOCUMENT', 'LEDGER_RETENTION_DAYS', 'LEDGER_CHAT_WEBHOOK_URL'],
    );
    assert.ok(checked.problems.every((p) => p instanceof ConfigError && !p.message.includes('fake-hook-secret')));
    assert.equal(checkLedgerSettings({ LEDGER_RETENTION_DAYS: '7' }).ok, true);
  });
});
