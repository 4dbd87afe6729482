import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { inspect } from 'node:util';
import { ConfigError } from '../../server/config-error.js';
import { parseAppCredentials } from '../../server/platform/credentials.js';
import { parsePrivateKey } from '../../server/platform/private-key.js';
import { appKeyCases, keyFragments, leakedFragment, type AppKeyCases } from '../support/app-keys.js';

describe('app private key settings (parsePrivateKey)', () => {
  let cases: AppKeyCases;
  before(() => {
    cases = appKeyCases();
  });

  /** The refusal of `value`, checked to be a ConfigError naming `setting`. */
  function refusal(setting: string, value: string): ConfigError {
    try {
      parsePrivateKey(setting, value);
    } catch (err) {
      assert.ok(err instanceof ConfigError, String(err));
      assert.equal(err.setting, setting);
      assert.ok(err.message.startsWith(`${setting} `));
      return err;
    }
    assert.fail('the value was accepted');
  }

  it('accepts the key in every form people paste it, as the same RSA key', () => {
    assert.ok(cases.accepted.length >= 10);
    for (const [name, value] of cases.accepted) {
      const key = parsePrivateKey('FORGE_APP_PRIVATE_KEY', value);
      assert.equal(key.asymmetricKeyType, 'rsa', name);
      assert.ok(key.equals(cases.rsa), name);
    }
  });

  it('the forms with escapes really are one line', () => {
    const escaped = cases.accepted.filter(([name]) => name.includes('\\n escapes') || name.includes('JSON'));
    assert.ok(escaped.length >= 6);
    for (const [name, value] of escaped) assert.ok(!value.trim().includes('\n'), name);
  });

  it('refuses each unusable value with the problem it has', () => {
    for (const refused of cases.refused) {
      assert.match(refusal('FORGE_APP_PRIVATE_KEY', refused.value).problem, refused.problem, refused.name);
    }
  });

  it('each kind of problem has its own message', () => {
    const byKind = new Map<string, Set<string>>();
    for (const refused of cases.refused) {
      const kind = String(refused.problem);
      const problems = byKind.get(kind) ?? new Set();
      problems.add(refusal('FORGE_APP_PRIVATE_KEY', refused.value).problem.replace(/type \S+,|a \d+-bit|PEM (public key|certificate)/, ''));
      byKind.set(kind, problems);
    }
    const messages = [...byKind.values()].map((set) => [...set]);
    assert.ok(messages.every((m) => m.length === 1), 'one message per kind');
    assert.equal(new Set(messages.flat()).size, byKind.size, 'no two kinds share a message');
  });

  it('the damaged PEM that loads is refused by the signing check, not by OpenSSL', () => {
    const loads = cases.refused.find((r) => r.name === 'a PEM that loads but does not sign right')!;
    assert.doesNotThrow(() => createPrivateKey(loads.value), 'the case would not test the signing check');
  });

  it('names the setting it read (ENTERPRISE_APP_PRIVATE_KEY too)', () => {
    for (const refused of cases.refused) {
      assert.match(refusal('ENTERPRISE_APP_PRIVATE_KEY', refused.value).message, /^ENTERPRISE_APP_PRIVATE_KEY /);
    }
  });

  it('no refusal contains any part of the key', () => {
    for (const refused of cases.refused) {
      const fragments = keyFragments(refused);
      assert.equal(leakedFragment(refusal('FORGE_APP_PRIVATE_KEY', refused.value).message, fragments), -1, refused.name);
    }
  });

  it('the parsed key prints nothing of itself (JSON, inspection, string)', () => {
    const credentials = parseAppCredentials({ FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: cases.pkcs1 }, { appId: 'FORGE_APP_ID', privateKey: 'FORGE_APP_PRIVATE_KEY' });
    const printed = [JSON.stringify(credentials), inspect(credentials, { depth: 5, showHidden: true }), String(credentials.privateKey)].join('\n');
    const fragments = keyFragments({ name: 'key', value: cases.pkcs1, problem: /./, material: [cases.pkcs8] });
    assert.equal(leakedFragment(printed, fragments), -1);
  });
});
