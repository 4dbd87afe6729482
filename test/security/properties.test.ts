import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { GateError } from '../../actions/gate/errors.js';
import { parseCommand } from '../../actions/gate/args.js';
import { recordFromInputs } from '../../actions/record-deployment/record.js';
import type { ActionsCore } from '../../actions/shared/core.js';
import { InputError } from '../../actions/shared/inputs.js';
import { OidcTokenRejected } from '../../server/auth/errors.js';
import { jwksUrlOf } from '../../server/auth/issuers.js';
import { KeySetRegistry } from '../../server/auth/key-sets.js';
import { OidcVerifier, type VerificationPolicy } from '../../server/auth/verifier.js';
import { parseTokenRequest } from '../../server/broker/issue-token.js';
import { parseBrokerSettings } from '../../server/broker/settings.js';
import { parseSignRequest } from '../../server/broker/sign-commit.js';
import { signatureValid } from '../../server/broker/webhook.js';
import { ConfigError, type Env } from '../../server/config-error.js';
import { AppError } from '../../server/http/errors.js';
import { validate } from '../../server/http/validation.js';
import { deploymentRequest, historyQuery, STATUSES, TARGETS } from '../../server/ledger/schema.js';
import { checkLedgerSettings, type LedgerSettings } from '../../server/ledger/settings.js';
import { createMinimalApp } from '../../server/minimal/app.js';
import { Refusal } from '../../server/minimal/outcomes.js';
import { configurationProblems, parseRequest } from '../../server/minimal/token.js';
import { parseSyncArgs, UsageError } from '../../server/sync/args.js';
import { KEYS as SYNC_KEYS, loadSyncConfig, SyncConfigError } from '../../server/sync/config.js';
import { hubSignature, REPO, startBroker, type BrokerHarness } from '../support/broker.js';
import { NO_EVENT, type EventContext } from '../../actions/shared/event.js';
import { capturedLogger } from '../support/log-capture.js';
import { listen, type Listening } from '../support/servers.js';
import { send, startSyncSurface, SYNC_TRIGGER, type SyncSurface } from './raw-http.js';
import { PROPERTY_SUITE_TIMEOUT_MS } from '../support/properties.js';

/** The ledger's settings, or the first problem thrown (what a request meets as 500 misconfigured). */
function parseLedgerSettings(env: Env): LedgerSettings {
  const checked = checkLedgerSettings(env);
  if (!checked.ok) throw checked.problems[0]!;
  return checked.value;
}

// Properties of every request validator and settings parser: whatever the input, they answer
// with their own refusal type (never another exception), the HTTP routes never answer 5xx, and
// inputs the spec refuses are refused. HTTP properties run against the real servers on loopback
// with a bounded number of runs; the unit ones run more.

const UNIT_RUNS = 300;
const HTTP_RUNS = 120;

/** What a validator did with one input. */
function attempt<T>(run: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

function refusedWith(result: { ok: boolean; error?: unknown }, type: abstract new (...args: never[]) => Error, label: string): void {
  assert.equal(result.ok, false, `${label}: accepted`);
  assert.ok(result.error instanceof type, `${label}: threw ${String(result.error)} instead of ${type.name}`);
}

/** What the server refuses as a control character: Unicode Cc (C0, DEL, C1) and U+2028, U+2029. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

// ---- generators -------------------------------------------------------------------------------

/** Strings an attacker likes: any code unit, traversal, prototype keys, huge, empty, padded. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', '..', '../..', '/etc/passwd', '\u0000', '%00', '%2e%2e', '\\', 'a\nb', '\u202e', 'null', '{}', 'x'.repeat(5000)),
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const anyBytes = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b));

const text = (min: number, max: number) =>
  fc.string({ unit: 'grapheme', minLength: min, maxLength: max }).filter((s) => s.length >= min && s.length <= max && !CONTROL.test(s));
const httpUrl = fc.tuple(fc.constantFrom('http', 'https', 'HTTPS'), fc.domain(), fc.webPath()).map(([scheme, host, path]) => `${scheme}://${host}${path}`);

/** A body the ledger spec accepts (the decisions of the README included). */
const validDeployment = fc.record(
  {
    delivery_id: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.length >= 1 && s.length <= 200),
    environment: text(1, 100),
    status: fc.constantFrom(...STATUSES),
    target: fc.constantFrom(...TARGETS),
    mode: fc.stringMatching(/^[a-z][a-z0-9-]{0,31}$/),
    version: text(1, 200),
    url: httpUrl,
    commit: fc.stringMatching(/^[0-9a-f]{40}$/),
    run_url: httpUrl,
    actor: text(1, 100),
    verified: fc.boolean(),
    duration_ms: fc.nat(),
  },
  { requiredKeys: ['delivery_id', 'environment', 'status'] },
);

const LEDGER_FIELDS = ['delivery_id', 'environment', 'status', 'target', 'mode', 'version', 'url', 'commit', 'run_url', 'actor', 'verified', 'duration_ms'];
const notALink = fc.oneof(
  fc.constantFrom('javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'ftp://example.com/x', 'https://user:pw@example.com/', 'https://token@example.com/', '//example.com/x', 'https://exa mple.com', ''),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/), fc.domain()).filter(([s]) => s !== 'http' && s !== 'https').map(([s, d]) => `${s}://${d}/`),
  fc.tuple(fc.domain(), fc.webSegment()).map(([d, user]) => `https://${user || 'u'}:secret@${d}/`),
);

/** One thing the ledger spec (or its README decisions) refuses, applied to a valid body. */
const ledgerDefect: fc.Arbitrary<[string, (body: Record<string, unknown>) => void]> = fc.oneof(
  fc.tuple(fc.oneof(fc.constant('repository'), fc.string({ minLength: 1 }).filter((k) => !LEDGER_FIELDS.includes(k))), anyJson).map(
    ([key, value]): [string, (b: Record<string, unknown>) => void] => [`unknown field ${JSON.stringify(key)}`, (b) => Object.defineProperty(b, key, { value, enumerable: true, configurable: true, writable: true })],
  ),
  fc.string().filter((s) => !(STATUSES as readonly string[]).includes(s)).map((s): [string, (b: Record<string, unknown>) => void] => [`status ${JSON.stringify(s)}`, (b) => void (b.status = s)]),
  fc.string().filter((s) => !(TARGETS as readonly string[]).includes(s)).map((s): [string, (b: Record<string, unknown>) => void] => [`target ${JSON.stringify(s)}`, (b) => void (b.target = s)]),
  fc.tuple(fc.constantFrom('url', 'run_url'), notALink).map(([f, u]): [string, (b: Record<string, unknown>) => void] => [`${f} ${JSON.stringify(u)}`, (b) => void (b[f] = u)]),
  fc.oneof(fc.constant(''), fc.string({ minLength: 201, maxLength: 400 }).filter((s) => s.length > 200)).map((s): [string, (b: Record<string, unknown>) => void] => [`delivery_id of ${s.length}`, (b) => void (b.delivery_id = s)]),
  fc.tuple(fc.constantFrom('environment', 'version', 'commit', 'actor'), text(0, 40), fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029)), text(0, 50)).map(([f, s, c, t]): [string, (b: Record<string, unknown>) => void] => [`${f} with U+${c.toString(16)}`, (b) => void (b[f] = `${s}${String.fromCharCode(c)}${t}`)]),
  fc.string().filter((s) => !/^[a-z][a-z0-9-]{0,31}$/.test(s)).map((s): [string, (b: Record<string, unknown>) => void] => [`mode ${JSON.stringify(s)}`, (b) => void (b.mode = s)]),
  fc.oneof(fc.integer({ max: -1 }), fc.double({ noNaN: true }).filter((d) => !Number.isInteger(d)), fc.string()).map((d): [string, (b: Record<string, unknown>) => void] => [`duration_ms ${String(d)}`, (b) => void (b.duration_ms = d)]),
  anyJson.filter((v) => typeof v !== 'boolean').map((v): [string, (b: Record<string, unknown>) => void] => [`verified ${JSON.stringify(v)}`, (b) => void (b.verified = v)]),
);

/** Mostly the valid value, sometimes a hostile one: so that both sides of every check are reached. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<U>) => fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: hostile, weight: 1 });

/** A body shaped like a request of one route, each field valid or hostile. */
const tokenLike = fc.record(
  {
    oidcToken: mostly(fc.string({ minLength: 1 }), fc.oneof(hostileString, anyJson)),
    owner: mostly(fc.constantFrom('octo-org', 'Octo-Org', 'a-b'), fc.oneof(hostileString, anyJson)),
    repo: mostly(fc.constantFrom('octo-repo', 'a.b_c-d', '...'), fc.oneof(hostileString, anyJson)),
    ref: anyJson,
    runId: anyJson,
    sha: anyJson,
  },
  { requiredKeys: ['oidcToken', 'owner', 'repo'] },
);

const safePart = fc.constantFrom('a', 'b.txt', '.github', 'ü', 'x y', '%2e%2e', '...', 'C:');
const dangerousPart = fc.constantFrom('.', '..', '', '\\', '..\\x', '\u0000', 'a\nb', 'a\u0085b', '\u009b', '\u2028');
const pathLike = mostly(fc.array(mostly(safePart, dangerousPart), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')), fc.oneof(hostileString, anyJson));

/**
 * A `/sign` body, each field valid or hostile. `expected_head_oid` may be the placeholder `HEAD`
 * (swapped for a real commit id before use); a repository or branch is either the real one or
 * one no platform would have, so a body that passes validation never names another repository.
 */
const signLike = fc.record(
  {
    repo: mostly(fc.constant(REPO), fc.oneof(hostileString.filter((s) => !/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(s)), anyJson.filter((v) => typeof v !== 'string'))),
    branch: mostly(fc.constant('main'), fc.oneof(fc.constantFrom('main..x', 'a b', '-x', 'x.lock', 'refs/heads/@{1}', 'a~1', '/main'), hostileString.map((s) => `${s}..`))),
    expected_head_oid: mostly(fc.constant('HEAD'), hostileString),
    message: mostly(fc.record({ headline: mostly(fc.constant('chore: x'), fc.oneof(hostileString, anyJson)), body: mostly(fc.string(), anyJson) }, { requiredKeys: ['headline'] }), anyJson),
    additions: mostly(fc.array(fc.record({ path: pathLike, contents: mostly(fc.base64String({ maxLength: 40 }), hostileString) }), { maxLength: 3 }), anyJson),
    deletions: mostly(fc.array(fc.record({ path: pathLike }), { maxLength: 3 }), anyJson),
  },
  { requiredKeys: ['repo', 'branch', 'expected_head_oid', 'message'] },
);
const withHead = (body: Record<string, unknown>, head: string) => (body.expected_head_oid === 'HEAD' ? { ...body, expected_head_oid: head } : body);

/** A JWT-shaped string: random JSON header and payload (often plausible ones), random signature. */
const jwtLike = (issuer: string) =>
  fc
    .tuple(
      fc.oneof(anyJson, fc.record({ alg: fc.constantFrom('RS256', 'none', 'HS256', 'rs256', 'ES256'), kid: fc.string(), jku: fc.webUrl() }, { requiredKeys: ['alg'] })),
      fc.oneof(anyJson, fc.record({ iss: fc.oneof(fc.constant(issuer), fc.webUrl()), aud: fc.oneof(fc.constant('gatehouse-ledger'), fc.array(fc.string())), exp: fc.oneof(fc.integer(), fc.string()), repository: fc.string(), repository_id: fc.string(), repository_owner: fc.string() })),
      fc.oneof(fc.base64String({ maxLength: 400 }), fc.string()),
    )
    .map(([h, p, s]) => `${Buffer.from(JSON.stringify(h)).toString('base64url')}.${Buffer.from(JSON.stringify(p)).toString('base64url')}.${s}`);

// ---- unit properties --------------------------------------------------------------------------

describe('attack suite: properties of validators and settings parsers', function () {
  this.timeout(PROPERTY_SUITE_TIMEOUT_MS);
  describe('request validators', () => {
    it('ledger deployment body: any input is accepted or refused with 422 validation_failed, nothing else', () => {
      fc.assert(
        fc.property(fc.oneof(anyJson, validDeployment, fc.dictionary(fc.oneof(fc.constantFrom(...LEDGER_FIELDS), hostileString), fc.oneof(anyJson, hostileString))), (input) => {
          const result = attempt(() => validate(deploymentRequest, input));
          if (!result.ok) {
            assert.ok(result.error instanceof AppError, String(result.error));
            assert.deepEqual([result.error.status, result.error.code], [422, 'validation_failed']);
          }
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('ledger deployment body: every valid body is accepted, and every body with one defect the spec refuses is refused', () => {
      fc.assert(
        fc.property(validDeployment, ledgerDefect, (body, [label, defect]) => {
          assert.ok(attempt(() => validate(deploymentRequest, body)).ok, 'a valid body was refused');
          const broken: Record<string, unknown> = { ...body };
          defect(broken);
          const result = attempt(() => validate(deploymentRequest, broken));
          refusedWith(result, AppError, label);
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('ledger list query: any query is accepted or 422; a limit outside 1–100 or an unknown parameter is refused', () => {
      const queryValue = fc.oneof(hostileString, fc.array(fc.string(), { maxLength: 3 }));
      fc.assert(
        fc.property(fc.dictionary(fc.oneof(fc.constantFrom('environment', 'limit', 'repository', '__proto__'), hostileString), queryValue), (query) => {
          const result = attempt(() => validate(historyQuery, query));
          if (!result.ok) assert.ok(result.error instanceof AppError && result.error.status === 422, String(result.error));
        }),
        { numRuns: UNIT_RUNS },
      );
      const badLimit = fc.oneof(fc.integer({ max: 0 }).map(String), fc.integer({ min: 101 }).map(String), fc.constantFrom('1.5', ' 5', '5 ', '1e1', '0x10', '+5', '-0', '', 'ten', '100000'));
      fc.assert(
        fc.property(badLimit, (limit) => refusedWith(attempt(() => validate(historyQuery, { limit })), AppError, `limit ${JSON.stringify(limit)}`)),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(fc.oneof(fc.constant('repository'), fc.string({ minLength: 1 }).filter((k) => k !== 'environment' && k !== 'limit')), fc.string(), (key, value) => {
          refusedWith(attempt(() => validate(historyQuery, Object.fromEntries([[key, value]]))), AppError, `parameter ${JSON.stringify(key)}`);
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('broker /token body: 400 invalid_request or missing_required_fields, or exactly the three strings it was given', () => {
      fc.assert(
        fc.property(fc.oneof(anyJson, tokenLike), (body) => {
          const result = attempt(() => parseTokenRequest(body));
          if (!result.ok) {
            assert.ok(result.error instanceof AppError, String(result.error));
            assert.equal(result.error.status, 400);
            assert.ok(['invalid_request', 'missing_required_fields'].includes(result.error.code), result.error.code);
            return;
          }
          const given = body as Record<string, unknown>;
          for (const field of ['oidcToken', 'owner', 'repo'] as const) {
            assert.equal(typeof given[field], 'string');
            assert.notEqual(given[field], '', `${field} empty but accepted`);
            assert.equal(result.value[field], given[field]);
          }
          for (const v of Object.values(result.value.context)) assert.ok(typeof v === 'string' && v.length <= 200, 'logged context is bounded');
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('minimal /token body: refused in its own vocabulary, and only plain identifiers ever reach an API path', () => {
      fc.assert(
        fc.property(fc.oneof(anyJson, tokenLike), (body) => {
          const result = attempt(() => parseRequest(body));
          if (!result.ok) {
            assert.ok(result.error instanceof Refusal, String(result.error));
            assert.ok(['invalid_json', 'missing_fields', 'invalid_repository'].includes(result.error.outcome));
            return;
          }
          const { owner, repo } = result.value;
          assert.equal(encodeURIComponent(owner), owner, `owner ${JSON.stringify(owner)} reaches a URL`);
          assert.equal(encodeURIComponent(repo), repo, `repo ${JSON.stringify(repo)} reaches a URL`);
          assert.ok(repo !== '.' && repo !== '..' && !owner.includes('.'));
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('/sign body: refused with a spec code, and an accepted commit only ever touches relative paths inside the repository', () => {
      const codes = ['invalid_request', 'missing_required_fields', 'invalid_repo', 'no_file_changes'];
      fc.assert(
        fc.property(fc.oneof({ arbitrary: anyJson, weight: 1 }, { arbitrary: signLike.map((b) => withHead(b, 'a'.repeat(40))), weight: 4 }), (body) => {
          const result = attempt(() => parseSignRequest(body));
          if (!result.ok) {
            assert.ok(result.error instanceof AppError, String(result.error));
            assert.ok(result.error.status === 400 && codes.includes(result.error.code), result.error.code);
            return;
          }
          const commit = result.value;
          for (const { path } of [...commit.additions, ...commit.deletions]) {
            assert.ok(!path.startsWith('/') && !path.includes('\\') && !CONTROL.test(path), `unsafe path ${JSON.stringify(path)}`);
            assert.ok(path.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), `unsafe path ${JSON.stringify(path)}`);
          }
          assert.ok(!commit.branchName.includes('..') && !CONTROL.test(commit.branchName));
          assert.match(commit.expectedHeadOid, /^[0-9a-f]{40}([0-9a-f]{24})?$/);
          assert.ok(commit.additions.length + commit.deletions.length > 0);
        }),
        { numRuns: UNIT_RUNS },
      );
      // Aimed at the paths: everything else valid, one path with a `..` segment or absolute.
      const escaping = fc.oneof(
        fc.tuple(fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }), fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 })).map(([x, y]) => [...x, '..', ...y].join('/')),
        fc.webPath().map((p) => `/${p.replace(/^\/+/, '')}`),
      );
      fc.assert(
        fc.property(escaping, fc.boolean(), (path, asAddition) => {
          const body = {
            repo: REPO,
            branch: 'main',
            expected_head_oid: 'a'.repeat(40),
            message: { headline: 'x' },
            ...(asAddition ? { additions: [{ path, contents: 'eA==' }] } : { deletions: [{ path }] }),
          };
          const result = attempt(() => parseSignRequest(body));
          refusedWith(result, AppError, `path ${JSON.stringify(path)}`);
          assert.equal((result as { error: AppError }).error.code, 'invalid_request');
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('webhook signature check: never throws, and only the HMAC of the exact bytes passes', () => {
      const secret = 'webhook-secret-for-properties';
      fc.assert(
        fc.property(anyBytes, fc.oneof(fc.string({ unit: 'binary' }), fc.stringMatching(/^sha256=[0-9a-fA-F]{64}$/)), (raw, header) => {
          const right = hubSignature(secret, raw);
          assert.equal(signatureValid(secret, raw, right), true);
          if (header.toLowerCase() !== right) assert.equal(signatureValid(secret, raw, header), false, header);
          assert.equal(signatureValid(secret, Buffer.concat([raw, Buffer.from(' ')]), right), false, 'one more byte');
        }),
        { numRuns: UNIT_RUNS },
      );
    });
  });

  describe('settings parsers', () => {
    let pem: string;
    before(() => {
      pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    });

    /** A value a setting might hold: plausible ones, their near misses, and noise. */
    const settingValue = () =>
      fc.oneof(
        hostileString,
        fc.constantFrom('https://token.actions.githubusercontent.com', 'http://127.0.0.1:8080', 'http://example.com', 'https://example.com/', 'https://a.example/?q=1', 'https://u:p@example.com', '0', '90', '36501', '-1', '1e3', 'true', 'on', 'yes', ' 7 '),
        fc.webUrl(),
        fc.integer().map(String),
        fc.constant('__PEM__'),
      );
    /** Secret settings get values of their own, so a message can only contain one by echoing it. */
    const secretValue = () =>
      fc.oneof(
        fc.uuid().map((u) => `sek-${u}`),
        fc.uuid().map((u) => `  sek-${u}\n`),
        fc.uuid().map((u) => `-----BEGIN PRIVATE KEY-----\\n${u}\\n-----END PRIVATE KEY-----`),
        fc.constant('__PEM__'),
      );
    const envOver = (keys: readonly string[], secrets: readonly string[] = []) =>
      fc
        .tuple(fc.dictionary(fc.constantFrom(...keys.filter((k) => !secrets.includes(k))), settingValue(), { maxKeys: keys.length }), fc.dictionary(fc.constantFrom(...(secrets.length ? secrets : ['-'])), secretValue()))
        .map(([plain, secret]) => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries({ ...plain, ...(secrets.length ? secret : {}) })) out[k] = v === '__PEM__' ? pem : v;
          return out;
        });

    const LEDGER_KEYS = ['OIDC_ISSUER', 'LEDGER_AUDIENCE', 'LEDGER_ALLOWED_OWNERS', 'LEDGER_JWKS_DOCUMENT', 'LEDGER_RETENTION_DAYS', 'LEDGER_CHAT_WEBHOOK_URL'];
    const BROKER_SECRETS = ['FORGE_APP_PRIVATE_KEY', 'ENTERPRISE_APP_PRIVATE_KEY', 'PROCESS_TRIGGER_SECRET', 'FORGE_WEBHOOK_SECRET'];
    const BROKER_KEYS = [
      'OIDC_ISSUER', 'OIDC_AUDIENCE', 'FORGE_API_BASE', 'FORGE_APP_ID', 'FORGE_APP_PRIVATE_KEY', 'ALLOWED_REPOSITORIES', 'TOKEN_PERMISSIONS', 'PROCESS_TRIGGER_SECRET',
      'FORGE_WEBHOOK_SECRET', 'AUTO_UPDATE_BRANCHES', 'ENTERPRISE_OIDC_ISSUER', 'ENTERPRISE_API_BASE', 'ENTERPRISE_APP_ID', 'ENTERPRISE_APP_PRIVATE_KEY', 'ENTERPRISE_APP_INSTALLATION_ID', 'RELEASES_MAX_REPOS', 'BROKER_POLICY',
    ];

    it('ledger settings: parse or a ConfigError naming a ledger setting, never anything else', () => {
      fc.assert(
        fc.property(envOver(LEDGER_KEYS), (env) => {
          const result = attempt(() => parseLedgerSettings(env));
          if (!result.ok) {
            assert.ok(result.error instanceof ConfigError, String(result.error));
            assert.ok(LEDGER_KEYS.includes(result.error.setting), result.error.setting);
          } else {
            assert.ok([...result.value.allowedOwners].every((o) => o === o.toLowerCase() && o.trim() === o && o !== ''));
          }
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('ledger settings: what the README refuses is refused', () => {
      const refusals = fc.oneof(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 36_501 })).map((d) => ({ LEDGER_RETENTION_DAYS: String(d) })),
        fc.domain().filter((d) => d !== 'localhost').map((d) => ({ OIDC_ISSUER: `http://${d}` })),
        fc.domain().filter((d) => d !== 'localhost').map((d) => ({ LEDGER_CHAT_WEBHOOK_URL: `http://${d}/hook` })),
        fc.constantFrom('{"keys":[{"kty":"EC","crv":"P-256","x":"x","y":"y"}]}', '{"keys":[{"kty":"RSA","n":"n","e":"AQAB","d":"secret"}]}', '{"keys":[]}', '[]', 'not json').map((doc) => ({ LEDGER_JWKS_DOCUMENT: doc })),
      );
      fc.assert(
        fc.property(refusals, (env) => refusedWith(attempt(() => parseLedgerSettings(env)), ConfigError, JSON.stringify(env).slice(0, 80))),
        { numRuns: UNIT_RUNS },
      );
    });

    it('broker and minimal broker settings: never throw, and unusable parts never echo a secret value', () => {
      fc.assert(
        fc.property(envOver(BROKER_KEYS, BROKER_SECRETS), (env) => {
          const result = attempt(() => parseBrokerSettings(env));
          assert.ok(result.ok, `parseBrokerSettings threw ${String((result as { error: unknown }).error)}`);
          const settings = result.value;
          const problems = attempt(() => configurationProblems(settings));
          assert.ok(problems.ok, 'the minimal broker could not judge its configuration');
          for (const part of [settings.platforms, settings.primary, settings.tokenPermissions, settings.releasesMaxRepos]) {
            if (!part.ok) assert.ok(part.error instanceof ConfigError);
          }
          assert.ok(settings.audiences.length > 0 && settings.audiences.every((a) => a !== '' && a.trim() === a));
          const secrets = BROKER_SECRETS.map((k) => env[k]?.trim())
            .filter((v): v is string => v !== undefined && v.length >= 6);
          for (const message of problems.value) for (const secret of secrets) assert.ok(!message.includes(secret), 'a secret in a configuration problem');
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('broker settings: what the spec refuses is refused', () => {
      const notAccess = fc.string().filter((s) => s.trim() !== 'read' && s.trim() !== 'write' && !/[,=:]/.test(s));
      fc.assert(
        fc.property(
          fc.oneof(
            notAccess.map((v) => ({ TOKEN_PERMISSIONS: `contents=${v}` })),
            anyJson.filter((v) => v !== 'read' && v !== 'write').map((v) => ({ TOKEN_PERMISSIONS: JSON.stringify({ contents: v }) })),
            fc.stringMatching(/^[A-Z][a-z_]{0,10}$/).map((k) => ({ TOKEN_PERMISSIONS: `${k}=read` })),
          ),
          (env) => assert.equal(parseBrokerSettings(env).tokenPermissions.ok, false, env.TOKEN_PERMISSIONS),
        ),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 100_001 })).map(String), (n) => assert.equal(parseBrokerSettings({ RELEASES_MAX_REPOS: n }).releasesMaxRepos.ok, false, n)),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(hostileString, (flag) => {
          const on = ['1', 'true', 'yes', 'on'].includes(flag.trim().toLowerCase());
          assert.equal(parseBrokerSettings({ AUTO_UPDATE_BRANCHES: flag }).autoUpdateBranches, on, JSON.stringify(flag));
        }),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(fc.oneof(hostileString, fc.integer().map(String)), (id) => {
          const platforms = parseBrokerSettings({ ENTERPRISE_OIDC_ISSUER: 'https://ghe.example.com/_services/token', ENTERPRISE_APP_INSTALLATION_ID: id }).platforms;
          assert.ok(platforms.ok);
          const installationId = platforms.value.get('https://ghe.example.com/_services/token')?.installationId;
          if (installationId !== undefined) assert.ok(Number.isSafeInteger(installationId) && installationId > 0, String(installationId));
        }),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(fc.constantFrom('', '/', '//', '///'), fc.constantFrom('', ' ', '  '), (slashes, pad) => {
          const env = { OIDC_ISSUER: 'https://token.actions.githubusercontent.com', ENTERPRISE_OIDC_ISSUER: `${pad}https://token.actions.githubusercontent.com${slashes}${pad}` };
          assert.equal(parseBrokerSettings(env).platforms.ok, false, 'the enterprise issuer must differ from the primary one');
        }),
      );
    });

    it('minimal broker settings: without a usable app id and key it is never ready', () => {
      fc.assert(
        fc.property(fc.oneof(fc.constant(undefined), hostileString.filter((s) => !/^\s*[0-9]{1,20}\s*$/.test(s))), fc.oneof(fc.constant(undefined), hostileString), (appId, key) => {
          const env: Record<string, string> = {};
          if (appId !== undefined) env.FORGE_APP_ID = appId;
          if (key !== undefined) env.FORGE_APP_PRIVATE_KEY = key;
          assert.notDeepEqual(configurationProblems(parseBrokerSettings(env)), []);
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    const SYNC_SECRETS = ['DEFECTDOJO_TOKEN', 'DEPENDENCY_TRACK_API_KEY', 'SONARQUBE_TOKEN'];
    const SYNC_ENV = SYNC_KEYS.map((k) => k.env);
    const targetsLike = fc.oneof(
      anyJson.map((v) => JSON.stringify(v)),
      fc.array(fc.record({ server: fc.oneof(fc.webUrl(), hostileString), owners: fc.oneof(fc.array(hostileString), anyJson), token: fc.oneof(hostileString, anyJson) }, { requiredKeys: [] })).map((v) => JSON.stringify(v)),
    );

    it('sync configuration (environment): loads or lists its problems, never echoing a secret', () => {
      fc.assert(
        fc.property(envOver(SYNC_ENV, SYNC_SECRETS), fc.option(targetsLike, { nil: undefined }), (env, targets) => {
          if (targets !== undefined) env.GITHUB_TARGETS = targets;
          const result = attempt(() => loadSyncConfig({ env }));
          if (result.ok) return;
          assert.ok(result.error instanceof SyncConfigError, String(result.error));
          const secrets = SYNC_SECRETS.map((k) => env[k]?.trim()).filter((v): v is string => v !== undefined && v.length >= 8);
          for (const secret of secrets) assert.ok(!result.error.message.includes(secret), 'a secret in a configuration problem');
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('sync configuration (environment): what the spec refuses is refused', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 1001, max: 999_999_999 })).map((n) => ({ SYNC_GITHUB_MAX_ISSUES_PER_RUN: String(n) })),
            fc.tuple(fc.constantFrom('SYNC_DEFECTDOJO_URL', 'SYNC_DEPENDENCYTRACK_URL', 'SYNC_SONARQUBE_URL'), fc.domain()).map(([k, d]) => ({ [k]: `https://svc:pw@${d}/` })),
            fc.domain().filter((d) => d !== 'localhost').map((d) => ({ GITHUB_TARGETS: JSON.stringify([{ server: `http://${d}`, owners: ['acme'], token: 't0ken' }]) })),
            hostileString.filter((s) => !['deployment', 'cronjob'].includes(s.trim().toLowerCase()) && s.trim() !== '').map((m) => ({ SYNC_MODE: m })),
          ),
          (env) => refusedWith(attempt(() => loadSyncConfig({ env })), SyncConfigError, JSON.stringify(env).slice(0, 80)),
        ),
        { numRuns: UNIT_RUNS },
      );
    });

    it('sync configuration (file): any file loads or lists its problems; a secret in the file is always refused', () => {
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-attack-'));
      try {
        const fileText = fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.dictionary(fc.oneof(fc.constantFrom('mode', 'schedule', 'sources', 'defectdojo', 'github'), fc.string()), anyJson).map((tree) => toYaml(tree)),
          fc.constantFrom('a: [', '- 1\n- 2', '&a [*a]', '!!js/function "x"', 'mode: !!binary aGk=', `x: ${'['.repeat(500)}`),
        );
        let n = 0;
        fc.assert(
          fc.property(fileText, (contents) => {
            const file = join(dir, `c${n++}.yaml`);
            writeFileSync(file, contents);
            const result = attempt(() => loadSyncConfig({ file, env: {} }));
            if (!result.ok) assert.ok(result.error instanceof SyncConfigError, String(result.error));
          }),
          { numRuns: 100 },
        );
        fc.assert(
          fc.property(fc.constantFrom('token', 'apiKey', 'password', 'defectdojo.token', 'sources.dependencytrack.apiKey', 'github.targets'), fc.uuid().map((u) => `s3cr3t-${u}`), (path, secret) => {
            const file = join(dir, `s${n++}.yaml`);
            const tree: Record<string, unknown> = {};
            let node = tree;
            const parts = path.split('.');
            for (const part of parts.slice(0, -1)) node = (node[part] = {}) as Record<string, unknown>;
            node[parts[parts.length - 1]!] = secret;
            writeFileSync(file, toYaml(tree));
            const result = attempt(() => loadSyncConfig({ file, env: {} }));
            refusedWith(result, SyncConfigError, path);
            assert.ok(!(result as { error: Error }).error.message.includes(secret), 'the secret is echoed');
          }),
          { numRuns: 60 },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    const argv = (options: readonly string[]) =>
      fc.array(fc.oneof(fc.constantFrom(...options), hostileString, fc.integer().map(String)), { maxLength: 8 });

    it('gate arguments: a command or a GateError (exit 2), and --fail-on outside its list is refused', () => {
      const options = ['ci', '--sarif', '--base', '--head', '--repo', '--fail-on', '--strict', '--filtered-out', '--counts-json', '--linters', '--help', '-h', '--base=main', '--fail-on=HIGH', '--', '-x'];
      fc.assert(
        fc.property(argv(options), fc.constantFrom<EventContext>(NO_EVENT, { eventName: 'pull_request', payload: { pull_request: { base: { sha: 'abc' } } } }, { eventName: 'pull_request', payload: { pull_request: 'not an object' } }), (args, event) => {
          const result = attempt(() => parseCommand(args, '/tmp', 'flag', event));
          if (!result.ok) assert.ok(result.error instanceof GateError, String(result.error));
        }),
        { numRuns: UNIT_RUNS },
      );
      fc.assert(
        fc.property(hostileString.filter((s) => !['critical', 'high', 'medium', 'low', 'any', 'none'].includes(s.toLowerCase()) && !s.startsWith('-')), (level) => {
          refusedWith(attempt(() => parseCommand(['ci', '--base', 'main', '--fail-on', level], '/tmp')), GateError, level);
        }),
        { numRuns: UNIT_RUNS },
      );
    });

    it('sync arguments: parsed, help, version, or a UsageError (exit 2); numbers outside their ranges are refused', () => {
      const options = ['sync', 'sync-github', 'sync-sonarqube', 'serve', '--config', '--json', '--concurrency', '--timeout', '--upload-timeout', '--retries', '--help', '-h', '--version', '--retries=3', '--'];
      fc.assert(
        fc.property(argv(options), fc.constantFrom({}, { SYNC_CONFIG: ' ' }, { SYNC_CONFIG: 'x.yaml' }), (args, env) => {
          const result = attempt(() => parseSyncArgs(args, env));
          if (!result.ok) assert.ok(result.error instanceof UsageError, String(result.error));
        }),
        { numRuns: UNIT_RUNS },
      );
      const outOfRange = fc.oneof(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 33 })).map((n) => ['--concurrency', String(n)]),
        fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 11 })).map((n) => ['--retries', String(n)]),
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 3601 })).map((n) => ['--timeout', String(n)]),
        fc.constantFrom(['--retries', '1.5'], ['--concurrency', '0x4'], ['--timeout', ' 5'], ['--retries', '']),
      );
      fc.assert(
        fc.property(outOfRange, (option) => refusedWith(attempt(() => parseSyncArgs(['sync', ...option], {})), UsageError, option.join(' '))),
        { numRuns: UNIT_RUNS },
      );
    });

    it('record-deployment inputs: a record or an InputError, never another failure', () => {
      const inputNames = ['environment', 'status', 'delivery-id', 'target', 'mode', 'version', 'url', 'commit', 'run-url', 'actor', 'verified', 'duration-ms'];
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...inputNames), hostileString), fc.dictionary(fc.constantFrom('GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT', 'GITHUB_JOB', 'GITHUB_SHA', 'GITHUB_SERVER_URL', 'GITHUB_REPOSITORY'), hostileString), (inputs, env) => {
          const core = { getInput: (name: string) => inputs[name] ?? '' } as unknown as ActionsCore;
          const result = attempt(() => recordFromInputs(core, env));
          if (!result.ok) assert.ok(result.error instanceof InputError, String(result.error));
          else assert.ok(typeof result.value.environment === 'string' && result.value.delivery_id.length > 0);
        }),
        { numRuns: UNIT_RUNS },
      );
    });
  });

  describe('the OIDC verifier', () => {
    let world: BrokerHarness;
    before(async () => {
      world = await startBroker();
    });
    after(() => world.close());

    it('any string, or any JWT-shaped input, is refused with a verdict: never accepted, never another exception', async () => {
      // Pinned keys: the property runs offline and fast, and a key fetch could not hide a bug.
      const policy: VerificationPolicy = {
        issuers: new Map([[world.issuer.url, { issuer: world.issuer.url, jwksUrl: jwksUrlOf(world.issuer.url), pinnedJwks: world.issuer.jwks() }]]),
        audiences: ['gatehouse-ledger'],
      };
      const verifier = new OidcVerifier(new KeySetRegistry());
      assert.equal((await verifier.verify(await world.issuer.mint(), policy)).repository, REPO, 'the control token is accepted');
      await fc.assert(
        fc.asyncProperty(fc.oneof(hostileString, jwtLike(world.issuer.url), anyJson), async (token) => {
          const error = await verifier.verify(token, policy).then(
            () => assert.fail(`accepted ${JSON.stringify(token).slice(0, 120)}`),
            (e: unknown) => e,
          );
          assert.ok(error instanceof OidcTokenRejected, String(error));
        }),
        { numRuns: UNIT_RUNS },
      );
    });
  });

  // ---- HTTP properties ------------------------------------------------------------------------

  describe('over HTTP (real servers on loopback)', () => {
    let h: BrokerHarness;
    let minimal: Listening;
    let sync: SyncSurface;
    let ledgerToken: string;
    let brokerToken: string;

    before(async () => {
      h = await startBroker();
      minimal = await listen(createMinimalApp({ env: () => h.backend.env, logger: capturedLogger().logger, version: 'properties' }));
      sync = await startSyncSurface();
      ledgerToken = await h.issuer.mint();
      brokerToken = await h.oidc();
    });
    after(async () => {
      await sync?.close();
      await minimal?.close();
      await h?.close();
    });

    const bodyOf = fc.oneof(
      anyBytes,
      anyJson.map((v) => Buffer.from(JSON.stringify(v))),
      fc.string({ unit: 'binary', maxLength: 100 }).map((s) => Buffer.from(s)),
    );
    const notServerError = (status: number, text: string) => assert.ok(status < 500, `answered ${status}: ${text.slice(0, 200)}`);

    it('ledger POST: any body is 2xx or a documented 4xx; one the spec refuses is 422; the repository always comes from the token', async () => {
      const allowed = new Set(['invalid_json', 'validation_failed']);
      await fc.assert(
        fc.asyncProperty(fc.oneof(bodyOf, validDeployment.map((b) => Buffer.from(JSON.stringify(b)))), async (raw) => {
          const res = await send(`${h.backend.url}/v1/deployments`, { headers: { authorization: `Bearer ${ledgerToken}` }, body: raw });
          notServerError(res.status, res.text);
          if (res.status === 200 || res.status === 201) assert.equal(res.body?.repository, REPO);
          else assert.ok(allowed.has(res.body?.error as string) && [400, 422].includes(res.status), res.text.slice(0, 200));
        }),
        { numRuns: HTTP_RUNS },
      );
      await fc.assert(
        fc.asyncProperty(validDeployment, ledgerDefect, async (body, [label, defect]) => {
          const broken: Record<string, unknown> = { ...body };
          defect(broken);
          const res = await send(`${h.backend.url}/v1/deployments`, { headers: { authorization: `Bearer ${ledgerToken}` }, body: JSON.stringify(broken) });
          assert.deepEqual([res.status, res.body?.error], [422, 'validation_failed'], label);
        }),
        { numRuns: HTTP_RUNS },
      );
    });

    it('ledger GET: any query string is 200 or 422, never 5xx', async () => {
      const pair = fc.tuple(fc.oneof(fc.constantFrom('environment', 'limit', 'repository', '__proto__', 'limit[]', 'environment[a]'), hostileString), hostileString);
      const rawEscape = fc.constantFrom('%', '%E0%A4%A', '%zz', '%00', '%FF%FE', '+', '&&', '=', '==');
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(pair.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), rawEscape), { maxLength: 4 }), async (parts) => {
          const res = await send(`${h.backend.url}/v1/deployments?${parts.join('&')}`, { method: 'GET', headers: { authorization: `Bearer ${ledgerToken}` } });
          notServerError(res.status, res.text);
          assert.ok(res.status === 200 || (res.status === 422 && res.body?.error === 'validation_failed') || res.status === 400, `${res.status} ${res.text.slice(0, 200)}`);
        }),
        { numRuns: HTTP_RUNS },
      );
    });

    it('broker /token and minimal /token: any body is answered from their own tables, never 5xx', async () => {
      const mainCodes = new Set(['invalid_json', 'invalid_request', 'missing_required_fields', 'invalid_oidc_token', 'repo_mismatch']);
      const minimalCodes = new Set(['invalid_json', 'missing_fields', 'invalid_repository', 'invalid_oidc', 'repo_mismatch']);
      const body = fc.oneof(
        bodyOf,
        tokenLike.map((b) => Buffer.from(JSON.stringify(b))),
        fc.record({ owner: fc.oneof(fc.constant('octo-org'), hostileString), repo: fc.oneof(fc.constant('octo-repo'), hostileString), real: fc.boolean(), jwt: jwtLike(h.issuer.url) }).map((b) =>
          Buffer.from(JSON.stringify({ oidcToken: b.real ? brokerToken : b.jwt, owner: b.owner, repo: b.repo })),
        ),
      );
      await fc.assert(
        fc.asyncProperty(body, async (raw) => {
          for (const [url, codes] of [[`${h.backend.url}/token`, mainCodes], [`${minimal.url}/token`, minimalCodes]] as const) {
            const res = await send(url, { body: raw });
            // A token naming a key id the issuer's set lacks gets no verdict while no refetch can be
            // made (at most one a second): the retryable 503, never a 401 that could be wrong.
            const noVerdict = res.status === 503 && ['oidc_key_fetch_failed', 'jwks_unavailable'].includes(res.body?.error as string) && res.headers['retry-after'] === '1';
            if (noVerdict) continue;
            notServerError(res.status, res.text);
            if (res.status === 200) assert.equal(res.body?.repository, REPO);
            else assert.ok(codes.has(res.body?.error as string), `${url}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }),
        { numRuns: HTTP_RUNS },
      );
    });

    it('/sign: any body is refused with 400 or signed (200), never 5xx; no refused body reaches the platform', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(bodyOf, signLike), async (input) => {
          // The branch moves with every commit, so the real head is read at send time.
          const raw = Buffer.isBuffer(input) ? input : Buffer.from(JSON.stringify(withHead(input, h.github.repos.get(REPO)!.branches.get('main')!)));
          const calls = h.github.calls.length;
          const res = await send(`${h.backend.url}/sign`, { headers: { authorization: `Bearer ${h.triggerSecret}` }, body: raw });
          notServerError(res.status, res.text);
          if (res.status === 400) assert.equal(h.github.calls.length, calls, 'a refused body caused a platform call');
          else assert.equal(res.status, 200, res.text.slice(0, 200));
        }),
        { numRuns: HTTP_RUNS },
      );
    });

    it('/webhook: a signed body is 200 or 400, anything unsigned or mis-signed is 401; never 5xx, never an update', async () => {
      const signature = fc.constantFrom('right', 'wrong', 'missing');
      const headerValue = fc.oneof(fc.constantFrom('push', 'ping', 'pull_request', randomUUID()), fc.string({ unit: 'grapheme-ascii', maxLength: 120 }));
      await fc.assert(
        fc.asyncProperty(bodyOf, signature, fc.option(headerValue, { nil: undefined }), fc.option(headerValue, { nil: undefined }), async (raw, mode, event, id) => {
          const headers: Record<string, string> = {};
          if (event !== undefined && event !== '') headers['x-github-event'] = event;
          if (id !== undefined && id !== '') headers['x-github-delivery'] = id;
          if (mode !== 'missing') headers['x-hub-signature-256'] = hubSignature(mode === 'right' ? h.webhookSecret : 'wrong-secret', raw);
          const res = await send(`${h.backend.url}/webhook`, { headers, body: raw });
          notServerError(res.status, res.text);
          if (mode !== 'right') assert.deepEqual([res.status, res.body], [401, { error: 'invalid_signature' }]);
          else assert.ok(res.status === 200 || (res.status === 400 && ['invalid_json', 'invalid_request'].includes(res.body?.error as string)), res.text.slice(0, 200));
        }),
        { numRuns: HTTP_RUNS },
      );
      assert.equal(h.github.count('update_branch'), 0, 'AUTO_UPDATE_BRANCHES is off: nothing is ever updated');
    });

    it('sync trigger: any source and credential is 401, 404 or 400, never 5xx, and never starts a run', async () => {
      const credential = fc.oneof(fc.constant(`Bearer ${SYNC_TRIGGER}`), fc.constant(undefined), hostileString.map((s) => `Bearer ${s}`), hostileString);
      const segment = fc.oneof(
        fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
        fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
        fc.constantFrom('%E0%A4%A', '%zz', '%2e%2e', '..%2F..', '__proto__', 'constructor', 'toString', 'DependencyTrack', 'dependencytrack%00', 'github', 'sonarqube'),
      );
      await fc.assert(
        fc.asyncProperty(segment, credential, async (source, authorization) => {
          const headers: Record<string, string> = {};
          // node:http refuses header values with control characters itself: such a header never leaves the client.
          if (authorization !== undefined && !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(authorization) && !/[^\u0000-\u00ff]/.test(authorization)) headers.authorization = authorization;
          const res = await send(`${sync.url}/sync/${source}`, { headers });
          notServerError(res.status, res.text);
          assert.ok([400, 401, 404].includes(res.status), `${source}: ${res.status} ${res.text}`);
          if (headers.authorization !== `Bearer ${SYNC_TRIGGER}` && res.status !== 400) assert.deepEqual(res.body, { error: 'unauthorized' });
        }),
        { numRuns: HTTP_RUNS },
      );
      assert.deepEqual(sync.upstream.requests, [], 'no run started, no probe made');
    });
  });
});
