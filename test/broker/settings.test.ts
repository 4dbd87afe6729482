import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  brokerSettings,
  DEFAULT_AUDIENCES,
  DEFAULT_PERMISSIONS,
  parseBrokerSettings,
  parseFlag,
  parseInstallationId,
  parseTokenPermissions,
  type BrokerSettings,
  type PlatformSettings,
  type Setting,
} from '../../server/broker/settings.js';
import { brokerNotices } from '../../server/broker/status.js';
import { ConfigError } from '../../server/config-error.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const PKCS1 = rsa.export({ type: 'pkcs1', format: 'pem' }).toString();
const PKCS8 = rsa.export({ type: 'pkcs8', format: 'pem' }).toString();
const EC = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The PEM armour around only the first lines of the key: a cut-off copy-paste. */
const truncated = (pem: string): string => {
  const lines = pem.trim().split('\n');
  return [...lines.slice(0, 4), lines.at(-1)].join('\n');
};

function value<T>(setting: Setting<T>): T {
  assert.ok(setting.ok, setting.ok ? '' : setting.error.message);
  return setting.value;
}

function error<T>(setting: Setting<T>): ConfigError {
  assert.ok(!setting.ok, 'expected a misconfiguration');
  return setting.error;
}

const platforms = (s: BrokerSettings): ReadonlyMap<string, PlatformSettings> => value(s.platforms);

describe('broker settings', () => {
  describe('OIDC_AUDIENCE', () => {
    const table: [string | undefined, readonly string[]][] = [
      [undefined, DEFAULT_AUDIENCES],
      ['', DEFAULT_AUDIENCES],
      ['   ', DEFAULT_AUDIENCES],
      [' , ,', DEFAULT_AUDIENCES],
      ['a', ['a']],
      [' a , b ,, c ', ['a', 'b', 'c']],
    ];
    for (const [raw, expected] of table) {
      it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
        assert.deepEqual(parseBrokerSettings({ OIDC_AUDIENCE: raw }).audiences, expected);
      });
    }
    it('the default pair is the current and the legacy audience', () => {
      assert.deepEqual(DEFAULT_AUDIENCES, ['gatehouse-broker', 'forge-token-broker']);
    });
  });

  describe('ALLOWED_REPOSITORIES', () => {
    const table: [string | undefined, string[] | null][] = [
      [undefined, null],
      ['', null],
      [' , ', null],
      ['octo/a', ['octo/a']],
      [' octo/a ,octo/b , ', ['octo/a', 'octo/b']],
      ['octo/*', ['octo/*']],
    ];
    for (const [raw, expected] of table) {
      it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
        const set = parseBrokerSettings({ ALLOWED_REPOSITORIES: raw }).allowedRepositories;
        assert.deepEqual(set ? [...set] : null, expected);
      });
    }
  });

  describe('TOKEN_PERMISSIONS', () => {
    const good: [string | undefined, Record<string, string>][] = [
      [undefined, DEFAULT_PERMISSIONS],
      ['', DEFAULT_PERMISSIONS],
      ['  ', DEFAULT_PERMISSIONS],
      ['contents=read', { contents: 'read' }],
      ['contents:write', { contents: 'write' }],
      [' contents = read , pull_requests: write ,', { contents: 'read', pull_requests: 'write' }],
      ['{"issues":"write","contents":"read"}', { issues: 'write', contents: 'read' }],
      ['  {"actions": "read"}  ', { actions: 'read' }],
      ['security_events=read', { security_events: 'read' }],
      ['workflows=write,contents=write', { workflows: 'write', contents: 'write' }],
      ['{"metadata":"read","repository_projects":"write"}', { metadata: 'read', repository_projects: 'write' }],
    ];
    for (const [raw, expected] of good) {
      it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
        assert.deepEqual(parseTokenPermissions(raw), expected);
        assert.deepEqual(value(parseBrokerSettings({ TOKEN_PERMISSIONS: raw }).tokenPermissions), expected);
      });
    }
    const bad = [
      'contents=admin',
      'contents=Write',
      'contents=',
      'contents',
      'Contents=read',
      'pull-requests=read',
      '_contents=read',
      ',,',
      ' , ',
      '{}',
      '[]',
      '["contents"]',
      '{"contents":"admin"}',
      '{"contents":1}',
      '{"contents":',
      'null',
      'contents=read,contents=write',
      'repository_projects=admin',
    ];
    for (const raw of bad) {
      it(`${JSON.stringify(raw)} is unusable`, () => {
        assert.equal(error(parseBrokerSettings({ TOKEN_PERMISSIONS: raw }).tokenPermissions).setting, 'TOKEN_PERMISSIONS');
      });
    }

    // GitHub's vocabulary (server/platform/permission-vocabulary.ts): each refusal names the permission.
    const refused: [string, string, RegExp][] = [
      ['an unknown name', 'contents=write,pull_request=write', /^TOKEN_PERMISSIONS names pull_request, which is not a GitHub App permission$/],
      ['a value GitHub does not accept for the name', 'workflows=read', /^TOKEN_PERMISSIONS sets workflows to read, which GitHub does not accept \(workflows takes write\)$/],
      ['an organization permission', 'contents:write, members:read', /^TOKEN_PERMISSIONS names members, an organization, account or enterprise permission/],
      ['an organization permission (JSON)', '{"organization_administration":"write"}', /names organization_administration, an organization/],
      ['an account permission', 'gpg_keys=read', /names gpg_keys, an organization, account or enterprise permission/],
      ['an enterprise permission', 'enterprise_administration=read', /names enterprise_administration, an organization/],
      ['an unknown name, quoted only so far', `${'a'.repeat(300)}=read`, /names a{64}…, which is not a GitHub App permission$/],
    ];
    for (const [what, raw, message] of refused) {
      it(`${what} is unusable, and the problem names it: ${JSON.stringify(raw.slice(0, 60))}`, () => {
        assert.match(error(parseBrokerSettings({ TOKEN_PERMISSIONS: raw }).tokenPermissions).message, message);
      });
    }
  });

  describe('AUTO_UPDATE_BRANCHES', () => {
    const on = ['1', 'true', 'TRUE', ' yes ', 'On', 'oN\n'];
    const off = [undefined, '', '0', 'false', 'no', 'off', 'enabled', 'y', '2', 'truee'];
    for (const raw of on) it(`${JSON.stringify(raw)} is on`, () => assert.equal(parseFlag(raw), true));
    for (const raw of off) it(`${JSON.stringify(raw)} is off`, () => assert.equal(parseFlag(raw), false));
  });

  describe('FORGE_APP_ID and FORGE_APP_PRIVATE_KEY', () => {
    const primary = (env: Record<string, string | undefined>) => value(parseBrokerSettings(env).primary);

    it('accepts a real multi-line PEM (PKCS#1 as GitHub issues it, or PKCS#8)', () => {
      for (const pem of [PKCS1, PKCS8, `\n  ${PKCS1}  \n`]) {
        const app = value(primary({ FORGE_APP_ID: '123', FORGE_APP_PRIVATE_KEY: pem }).app);
        assert.equal(app.appId, '123');
        assert.ok(app.privateKey.equals(rsa));
      }
    });

    // Every form people paste is in test/platform/private-key.test.ts; these go through the settings.
    it('accepts one line with literal \\n escapes, with or without the trailing \\n of a JSON-encoded .pem', () => {
      for (const oneLine of [PKCS1.trim().replace(/\n/g, '\\n'), JSON.stringify(PKCS1), JSON.stringify(PKCS8).slice(1, -1)]) {
        assert.ok(!oneLine.includes('\n'));
        assert.ok(value(primary({ FORGE_APP_ID: '123', FORGE_APP_PRIVATE_KEY: oneLine }).app).privateKey.equals(rsa));
      }
    });

    it('accepts Windows line ends', () => {
      const app = value(primary({ FORGE_APP_ID: '123', FORGE_APP_PRIVATE_KEY: PKCS1.replace(/\n/g, '\r\n') }).app);
      assert.ok(app.privateKey.equals(rsa));
    });

    const bad: [string, Record<string, string | undefined>, string][] = [
      ['no app id', { FORGE_APP_PRIVATE_KEY: PKCS1 }, 'FORGE_APP_ID'],
      ['a non-numeric app id', { FORGE_APP_ID: 'Iv1.abc', FORGE_APP_PRIVATE_KEY: PKCS1 }, 'FORGE_APP_ID'],
      ['no key', { FORGE_APP_ID: '1' }, 'FORGE_APP_PRIVATE_KEY'],
      ['a blank key', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: '  ' }, 'FORGE_APP_PRIVATE_KEY'],
      ['text that is not a PEM', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: 'secret' }, 'FORGE_APP_PRIVATE_KEY'],
      ['a damaged PEM', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: truncated(PKCS1) }, 'FORGE_APP_PRIVATE_KEY'],
      ['a non-RSA key', { FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: EC }, 'FORGE_APP_PRIVATE_KEY'],
    ];
    for (const [name, env, setting] of bad) {
      it(`${name}: the app is unconfigured, naming ${setting} but never the key`, () => {
        const err = error(primary(env).app);
        assert.equal(err.setting, setting);
        assert.ok(!err.message.includes('MII'), 'no key material in the message');
      });
    }

    it('the enterprise key is read by the same parser, with the same refusals', () => {
      const enterprise = (key: string) =>
        value(parseBrokerSettings({ ENTERPRISE_OIDC_ISSUER: 'https://ghe.example/_services/token', ENTERPRISE_APP_ID: '7', ENTERPRISE_APP_PRIVATE_KEY: key }).platforms).get(
          'https://ghe.example/_services/token',
        )!.app;
      assert.ok(value(enterprise(JSON.stringify(PKCS1.replace(/\n/g, '\r\n')))).privateKey.equals(rsa));
      const err = error(enterprise(EC));
      assert.equal(err.setting, 'ENTERPRISE_APP_PRIVATE_KEY');
      assert.match(err.message, /type EC, not RSA/);
    });
  });

  describe('issuers and API bases', () => {
    it('defaults: the GitHub Actions issuer and api.github.com', () => {
      const s = parseBrokerSettings({});
      assert.deepEqual([...platforms(s).keys()], ['https://token.actions.githubusercontent.com']);
      assert.equal(value(value(s.primary).apiBase), 'https://api.github.com');
      assert.equal(value(s.primary).issuer.jwksUrl, 'https://token.actions.githubusercontent.com/.well-known/jwks');
    });

    it('FORGE_API_BASE: trailing slashes dropped; plain http only on loopback', () => {
      assert.equal(value(value(parseBrokerSettings({ FORGE_API_BASE: 'https://ghe.example/api/v3/ ' }).primary).apiBase), 'https://ghe.example/api/v3');
      assert.equal(error(value(parseBrokerSettings({ FORGE_API_BASE: 'http://ghe.example' }).primary).apiBase).setting, 'FORGE_API_BASE');
    });
  });

  describe('ENTERPRISE_*', () => {
    const full = {
      ENTERPRISE_OIDC_ISSUER: ' https://token.actions.ghe.example/tenant// ',
      ENTERPRISE_API_BASE: 'https://api.ghe.example/',
      ENTERPRISE_APP_ID: '77',
      ENTERPRISE_APP_PRIVATE_KEY: PKCS1,
    };

    it('unset: enterprise support is off (one trusted issuer)', () => {
      assert.equal(platforms(parseBrokerSettings({ ENTERPRISE_API_BASE: 'https://x.example' })).size, 1);
    });

    it('set: two issuers, the enterprise one with trailing slashes and whitespace stripped, its own app and API base', () => {
      const map = platforms(parseBrokerSettings(full));
      assert.equal(map.size, 2);
      const enterprise = map.get('https://token.actions.ghe.example/tenant');
      assert.ok(enterprise);
      assert.equal(enterprise.name, 'enterprise');
      assert.equal(enterprise.issuer.jwksUrl, 'https://token.actions.ghe.example/tenant/.well-known/jwks');
      assert.equal(value(enterprise.apiBase), 'https://api.ghe.example');
      assert.equal(value(enterprise.app).appId, '77');
      assert.equal(enterprise.installationId, undefined);
    });

    it('an enterprise issuer without its app settings still verifies, but its app is unconfigured', () => {
      const enterprise = platforms(parseBrokerSettings({ ENTERPRISE_OIDC_ISSUER: full.ENTERPRISE_OIDC_ISSUER })).get(
        'https://token.actions.ghe.example/tenant',
      );
      assert.equal(error(enterprise!.apiBase).setting, 'ENTERPRISE_API_BASE');
      assert.equal(error(enterprise!.app).setting, 'ENTERPRISE_APP_ID');
    });

    it('an unusable issuer trusts no issuer at all (and says which setting)', () => {
      assert.equal(error(parseBrokerSettings({ ENTERPRISE_OIDC_ISSUER: 'not a url' }).platforms).setting, 'ENTERPRISE_OIDC_ISSUER');
      assert.equal(error(parseBrokerSettings({ ENTERPRISE_OIDC_ISSUER: 'https://token.actions.githubusercontent.com/' }).platforms).setting, 'ENTERPRISE_OIDC_ISSUER');
      assert.equal(error(parseBrokerSettings({ OIDC_ISSUER: 'http://issuer.example' }).platforms).setting, 'OIDC_ISSUER');
    });

    const ids: [string | undefined, number | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['12', 12],
      [' 12 ', 12],
      ['0', undefined],
      ['-3', undefined],
      ['1.5', undefined],
      ['12abc', undefined],
      ['1e3', undefined],
      ['99999999999999999999', undefined],
    ];
    for (const [raw, expected] of ids) {
      it(`ENTERPRISE_APP_INSTALLATION_ID ${JSON.stringify(raw)} → ${String(expected)}`, () => {
        assert.equal(parseInstallationId(raw), expected);
        const enterprise = platforms(parseBrokerSettings({ ...full, ENTERPRISE_APP_INSTALLATION_ID: raw })).get(
          'https://token.actions.ghe.example/tenant',
        );
        assert.equal(enterprise!.installationId, expected);
      });
    }
  });

  describe('secrets and RELEASES_MAX_REPOS', () => {
    it('blank secrets disable their routes', () => {
      const s = parseBrokerSettings({ PROCESS_TRIGGER_SECRET: '  ', FORGE_WEBHOOK_SECRET: '' });
      assert.equal(s.triggerSecret, undefined);
      assert.equal(s.webhookSecret, undefined);
    });

    for (const [raw, expected] of [
      [undefined, 1000],
      ['50', 50],
      ['0', null],
      ['abc', null],
      ['100001', null],
    ] as const) {
      it(`RELEASES_MAX_REPOS ${JSON.stringify(raw)} → ${String(expected)}`, () => {
        const setting = parseBrokerSettings({ RELEASES_MAX_REPOS: raw }).releasesMaxRepos;
        if (expected === null) assert.equal(error(setting).setting, 'RELEASES_MAX_REPOS');
        else assert.equal(value(setting), expected);
      });
    }
  });

  it('the source re-parses only when a broker variable changed', () => {
    const env: Record<string, string | undefined> = { OIDC_AUDIENCE: 'a' };
    const source = () => brokerSettings(env);
    const first = source();
    assert.equal(source(), first);
    env.UNRELATED = 'x';
    assert.equal(source(), first);
    env.OIDC_AUDIENCE = 'b';
    assert.deepEqual(source().audiences, ['b']);
  });
});

describe('broker start-up notices', () => {
  it('name each unusable setting and the answer clients will get, never a secret', () => {
    const notices = brokerNotices(parseBrokerSettings({ FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: 'hunter2', TOKEN_PERMISSIONS: 'x=admin' }));
    const text = notices.map((n) => n.message).join('\n');
    assert.match(text, /FORGE_APP_PRIVATE_KEY has no PEM header.*; \/token, \/sign and \/releases answer 503 app_unconfigured/);
    assert.match(text, /TOKEN_PERMISSIONS .*400 invalid_token_permissions/);
    assert.match(text, /PROCESS_TRIGGER_SECRET is not set; \/sign and \/releases are disabled/);
    assert.match(text, /FORGE_WEBHOOK_SECRET is not set; \/webhook is disabled/);
    assert.ok(!text.includes('hunter2'));
  });

  it('an unusable TOKEN_PERMISSIONS: the notice names the setting and the offending permission', () => {
    for (const [raw, name] of [
      ['members=read', 'members'],
      ['workflows=read', 'workflows'],
      ['contents=write,issue=write', 'issue'],
    ]) {
      const text = brokerNotices(parseBrokerSettings({ FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: PKCS1, TOKEN_PERMISSIONS: raw }))
        .filter((n) => n.level === 'warn')
        .map((n) => n.message);
      assert.equal(text.length, 1, text.join('\n'));
      assert.match(text[0]!, new RegExp(`^broker: TOKEN_PERMISSIONS (names|sets) ${name}\\b.*; /token answers 400 invalid_token_permissions$`));
    }
  });

  it('a complete configuration has nothing to say', () => {
    const notices = brokerNotices(
      parseBrokerSettings({ FORGE_APP_ID: '1', FORGE_APP_PRIVATE_KEY: PKCS1, PROCESS_TRIGGER_SECRET: 's', FORGE_WEBHOOK_SECRET: 'w' }),
    );
    assert.deepEqual(notices, []);
  });
});
