import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { ConfigError } from '../../server/config-error.js';
import { createLogger } from '../../server/logger.js';
import { checkMinimalStartup } from '../../server/minimal/startup.js';
import { checkBackendStartup } from '../../server/startup/backend.js';
import { checkListenSettings, listenHost, listenPort, LOG_LEVELS, logLevel, reportStartupProblems } from '../../server/startup/checks.js';
import { hiddenParts, mongoUriProblem, redactedMessage } from '../../server/store/mongo-uri.js';
import { checkServiceProcess } from '../../server/sync/service/process-settings.js';

const PASSWORD = 'Fake-Pa55word-7391';
const HOOK = 'https://hooks.example.com/services/T0/B0/fake-hook-secret';

function refusal(parse: () => unknown): ConfigError {
  try {
    parse();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  assert.fail('expected a ConfigError');
}

describe('start-up checks', () => {
  describe('LOG_LEVEL', () => {
    it('accepts pino’s levels and silent in any case, trimmed; unset is info', () => {
      assert.deepEqual(LOG_LEVELS, ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);
      assert.equal(logLevel({}), 'info');
      assert.equal(logLevel({ LOG_LEVEL: '  ' }), 'info');
      assert.equal(logLevel({ LOG_LEVEL: 'DEBUG' }), 'debug');
      assert.equal(logLevel({ LOG_LEVEL: ' Warn ' }), 'warn');
      assert.equal(logLevel({ LOG_LEVEL: 'silent' }), 'silent');
      // Every accepted name is one pino takes (pino itself throws on an unknown level).
      for (const level of LOG_LEVELS) createLogger({ level: logLevel({ LOG_LEVEL: level.toUpperCase() }) });
    });

    it('refuses anything else, listing the accepted names', () => {
      for (const raw of ['verbose', 'warning', '30', 'info,debug']) {
        const err = refusal(() => logLevel({ LOG_LEVEL: raw }));
        assert.equal(err.setting, 'LOG_LEVEL');
        assert.equal(err.message, 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent');
      }
    });
  });

  describe('PORT and HOST', () => {
    it('PORT: 0 to 65535, default 8080', () => {
      assert.equal(listenPort({}), 8080);
      assert.equal(listenPort({ PORT: ' 0 ' }), 0);
      assert.equal(listenPort({ PORT: '65535' }), 65535);
      for (const raw of ['65536', '-1', '80.0', 'eighty', '0x50']) assert.equal(refusal(() => listenPort({ PORT: raw })).setting, 'PORT');
    });

    it('HOST: an IP address or a host name; unset means every interface', () => {
      assert.equal(listenHost({}), undefined);
      for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.example.com', 'my_service', 'host.']) assert.equal(listenHost({ HOST: ` ${host} ` }), host);
      for (const raw of ['0.0.0.0:8080', 'http://localhost', '[::1]', 'a b', 'host/path', '-bad.example.com']) {
        assert.equal(refusal(() => listenHost({ HOST: raw })).setting, 'HOST', raw);
      }
    });

    it('checkListenSettings collects PORT, HOST and LOG_LEVEL together, judging only its own', () => {
      const problems: ConfigError[] = [];
      assert.equal(checkListenSettings({ PORT: 'x', HOST: 'a:1', LOG_LEVEL: 'loud' }, problems), undefined);
      assert.deepEqual(problems.map((p) => p.setting), ['PORT', 'HOST', 'LOG_LEVEL']);
      // A problem found earlier by another check does not make these fail.
      const earlier = [new ConfigError('OTHER', 'is wrong')];
      assert.deepEqual(checkListenSettings({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'ERROR' }, earlier), { port: 0, host: '127.0.0.1', logLevel: 'error' });
      assert.equal(earlier.length, 1);
    });
  });

  describe('MONGODB_URI', () => {
    it('accepts what the driver accepts, without connecting (an unreachable or unresolvable host is fine)', () => {
      for (const uri of [
        'mongodb://127.0.0.1:1/gatehouse',
        `mongodb://admin:${PASSWORD}@db.invalid:27017/gatehouse?authSource=admin&serverSelectionTimeoutMS=300`,
        `mongodb+srv://admin:${PASSWORD}@cluster0.example.invalid/gatehouse`,
        'mongodb://a,b,c/x?replicaSet=rs0',
      ]) {
        assert.equal(mongoUriProblem(uri, MongoClient, 'gatehouse'), undefined, uri);
      }
    });

    it('refuses what the driver refuses, quoting its message without the URI, the credentials or the hosts', () => {
      const cases: [string, RegExp][] = [
        [`mongo://admin:${PASSWORD}@db.example.com/x`, /Invalid scheme/],
        ['mongodb://', /host list are required/],
        [`mongodb://admin:${PASSWORD}@db.example.com/x?foo=bar`, /option foo is not supported/],
        [`mongodb://admin:${PASSWORD}@db.example.com/x?tls=maybe`, /tls\/ssl must be either "true" or "false"/],
        [`mongodb+srv://admin:${PASSWORD}@db.example.com:27017/x`, /cannot have port number/],
        [`mongodb://admin:${PASSWORD}@db.example.com:99999/x`, /Unable to parse \[redacted\] with URL/],
        // Unescaped characters in the password: however the driver splits it, it is not quoted.
        [`mongodb://admin:${PASSWORD}/x@db.example.com/x`, /Password contains unescaped characters/],
        [`mongodb://admin:${PASSWORD}@@db.example.com:70000/x`, /./],
        [`mongodb://admin:${PASSWORD}?@db.example.com:70000/x`, /./],
        // The driver quotes these as hosts: a password typed where a host goes, or after a stray comma.
        [`mongodb://admin@${PASSWORD}:99999/x`, /Unable to parse \[redacted\] with URL/],
        [`mongodb://admin:secret@db.example.com,${PASSWORD}:1:2/x`, /Unable to parse \[redacted\] with URL/],
        [`mongodb://db.example.com/x?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:${PASSWORD}&w=x&wtimeoutMS=no`, /wtimeoutMS/],
      ];
      for (const [uri, driverSays] of cases) {
        const problem = mongoUriProblem(uri, MongoClient, 'gatehouse');
        assert.ok(problem, `accepted ${uri}`);
        assert.equal(problem.setting, 'MONGODB_URI');
        assert.match(problem.message, /^MONGODB_URI is not a connection string the MongoDB driver accepts: /);
        assert.match(problem.message, driverSays);
        assert.ok(!problem.message.includes(PASSWORD), `the password reached the message: ${problem.message}`);
        assert.ok(!problem.message.includes(uri), 'the URI reached the message');
      }
    });

    it('replaces every credential, host and secret option value, decoded too; a user or password too short to replace withholds the message', () => {
      const uri = `mongodb://admin:${encodeURIComponent(`${PASSWORD}%`)}@db1.example.com,db2.example.com:27018/x?tlsCertificateKeyFilePassword=Key-Pass-42&w=majority`;
      const parts = hiddenParts(uri);
      for (const part of [uri, 'admin', `${PASSWORD}%25`, `${PASSWORD}%`, 'db1.example.com,db2.example.com:27018', 'db2.example.com:27018', 'Key-Pass-42']) assert.ok(parts.includes(part), part);
      assert.ok(!parts.includes('majority') && !parts.includes('w'), 'other option values stay: they say what is wrong');
      assert.equal(redactedMessage(`bad ${PASSWORD}% and Key-Pass-42 for admin`, uri), 'bad [redacted] and [redacted] for [redacted]');
      assert.equal(redactedMessage('Unable to parse db2.example.com:27018 with URL', uri), 'Unable to parse [redacted] with URL');
      assert.equal(redactedMessage('option foo is not supported', 'mongodb://ab:xy@h/?foo=1'), 'option foo is not supported');
      assert.equal(redactedMessage('Unable to parse h:xy with URL', 'mongodb://ab:xy@h/?foo=1'), undefined);
      assert.equal(redactedMessage('authMechanism one of …, got NOPE', 'mongodb://h/?authMechanism=NOPE'), 'authMechanism one of …, got NOPE');
      assert.equal(mongoUriProblem('mongodb://a:b:c@h', MongoClient, 'gatehouse')?.message, "MONGODB_URI is not a connection string the MongoDB driver accepts: the driver's message is withheld because it may quote a credential");
    });
  });

  it('reportStartupProblems writes one fatal line per problem, naming the setting, at any LOG_LEVEL', () => {
    const raw: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        raw.push(chunk.toString());
        done();
      },
    });
    reportStartupProblems([new ConfigError('PORT', 'must be a port number (0-65535)'), new ConfigError('LOG_LEVEL', 'must be one of …')], { destination });
    const lines = raw.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.level, l.setting, l.msg]),
      [
        ['fatal', 'PORT', 'invalid configuration: PORT must be a port number (0-65535)'],
        ['fatal', 'LOG_LEVEL', 'invalid configuration: LOG_LEVEL must be one of …'],
      ],
    );
  });

  describe('per entry', () => {
    const everythingWrong = {
      PORT: 'eighty',
      HOST: 'http://0.0.0.0',
      LOG_LEVEL: 'loud',
      MONGODB_URI: `mongodb://admin:${PASSWORD}@db.example.com/x?foo=bar`,
      OIDC_ISSUER: 'http://issuer.example.com',
      LEDGER_JWKS_DOCUMENT: '{keys',
      LEDGER_RETENTION_DAYS: 'ninety',
      LEDGER_CHAT_WEBHOOK_URL: HOOK.replace('https:', 'http:'),
      SYNC_SHUTDOWN_GRACE_SECONDS: 'soon',
      AUDIT_RETENTION_DAYS: '0',
      AUDIT_WRITE: 'requird',
      // Broker settings never stop a process.
      TOKEN_PERMISSIONS: 'contents=admin',
      FORGE_APP_ID: 'not-a-number',
    };

    it('backend: every problem at once, broker settings excluded', () => {
      const checked = checkBackendStartup(everythingWrong);
      assert.equal(checked.ok, false);
      if (checked.ok) return;
      assert.deepEqual(
        checked.problems.map((p) => p.setting),
        ['PORT', 'HOST', 'LOG_LEVEL', 'MONGODB_URI', 'OIDC_ISSUER', 'LEDGER_JWKS_DOCUMENT', 'LEDGER_RETENTION_DAYS', 'LEDGER_CHAT_WEBHOOK_URL', 'AUDIT_RETENTION_DAYS', 'AUDIT_WRITE'],
      );
      const text = checked.problems.map((p) => p.message).join('\n');
      assert.ok(!text.includes(PASSWORD) && !text.includes('fake-hook-secret'));
    });

    it('backend: usable settings give the listen settings and the notices (ledger warnings, broker lines)', () => {
      const checked = checkBackendStartup({ PORT: '0', LOG_LEVEL: 'Debug', MONGODB_URI: 'mongodb://127.0.0.1:1/x', LEDGER_CHAT_WEBHOOK_URL: HOOK, TOKEN_PERMISSIONS: 'contents=admin' });
      assert.ok(checked.ok);
      assert.equal(checked.value.port, 0);
      assert.equal(checked.value.logLevel, 'debug');
      const messages = checked.value.notices.map((n) => `${n.level} ${n.message}`);
      assert.ok(messages.includes('warn LEDGER_AUDIENCE is not set: the ledger refuses every token'));
      assert.ok(messages.includes('warn METRICS_TOKEN is not set: GET /metrics answers anyone who can reach the port'));
      assert.ok(messages.includes('info AUDIT_TOKEN is not set: GET /v1/audit/tokens is off (404); the token audit is still written'));
      const withToken = checkBackendStartup({ METRICS_TOKEN: 'scrape-secret' });
      assert.ok(withToken.ok);
      assert.ok(!withToken.value.notices.some((n) => n.message.startsWith('METRICS_TOKEN')));
      assert.ok(messages.includes('warn broker: TOKEN_PERMISSIONS has a value other than read or write; /token answers 400 invalid_token_permissions'));
      assert.ok(!messages.join('\n').includes('fake-hook-secret'));
    });

    it('minimal broker: PORT, HOST and LOG_LEVEL; its broker settings only give a notice', () => {
      const checked = checkMinimalStartup(everythingWrong);
      assert.ok(!checked.ok);
      assert.deepEqual(checked.problems.map((p) => p.setting), ['PORT', 'HOST', 'LOG_LEVEL']);
      const usable = checkMinimalStartup({ TOKEN_PERMISSIONS: 'contents=admin' });
      assert.ok(usable.ok);
      assert.deepEqual(usable.value.notices.map((n) => n.fields), [{ problems: ['TOKEN_PERMISSIONS has a value other than read or write', 'FORGE_APP_ID is not set'] }]);
    });

    it('sync service: its process settings at once; the driver is loaded only for a MONGODB_URI', async () => {
      let loads = 0;
      const loadDriver = async () => {
        loads++;
        return { MongoClient };
      };
      const checked = await checkServiceProcess(everythingWrong, loadDriver);
      assert.ok(!checked.ok);
      assert.deepEqual(checked.problems.map((p) => p.setting), ['PORT', 'HOST', 'LOG_LEVEL', 'SYNC_SHUTDOWN_GRACE_SECONDS', 'MONGODB_URI']);
      assert.equal(loads, 1);
      const usable = await checkServiceProcess({ PORT: '0', SYNC_SHUTDOWN_GRACE_SECONDS: '5' }, loadDriver);
      assert.deepEqual(usable, { ok: true, value: { port: 0, logLevel: 'info', graceMs: 5000 } });
      assert.equal(loads, 1, 'no MONGODB_URI: the driver is not loaded');
    });
  });
});
