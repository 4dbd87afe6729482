import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi } from '../../actions/gate/ci.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog, SarifResult, SarifRule, SarifRun } from '../../actions/gate/reports/sarif.js';
import { SecretLike, sopsMetadataLines } from '../../actions/gate/rules/secrets.js';
import { GitRepo } from '../support/git-repo.js';
import { fixturesDir } from '../support/fixtures.js';

const SOPS_EXAMPLE = join(fixturesDir('gate'), 'sops-example.yaml');

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/**
 * What `sops updatekeys`/`sops rotate` does to a file, as a diff sees it: every value gets a new
 * data/iv/tag, the MAC and `lastmodified` change, every recipient's data key is encrypted again,
 * and (here) an age recipient is added beside the PGP ones.
 */
function reencrypt(text: string): string {
  const reencrypted = text
    .replace(/ENC\[AES256_GCM,data:([^,]*),iv:[^,]+,tag:[^,]+,type:([a-z]+)\]/g, (_, data: string, type: string) => {
      const size = Math.max(1, Math.floor((data.length * 3) / 4));
      return `ENC[AES256_GCM,data:${b64(size)},iv:${b64(32)},tag:${b64(16)},type:${type}]`;
    })
    .replace(/'2019-12-10T22:45:53Z'/g, "'2026-11-23T23:30:00Z'")
    // The armoured blocks' body and checksum lines (12 spaces deep in the example).
    .replace(/^( {12})([A-Za-z0-9+/]{20,}={0,2})$/gm, (_, indent: string, line: string) => `${indent}${b64((line.length * 3) / 4).slice(0, line.length)}`)
    .replace(/^( {12})=[A-Za-z0-9+/]{4}$/gm, (_, indent: string) => `${indent}=${b64(3)}`);
  const age = [
    '    age:',
    '    -   recipient: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p',
    '        enc: |',
    '            -----BEGIN AGE ENCRYPTED FILE-----',
    `            ${b64(48)}`,
    `            ${b64(48)}`,
    `            ${b64(30)}`,
    '            -----END AGE ENCRYPTED FILE-----',
  ].join('\n');
  return reencrypted.replace(/^ {4}lastmodified:/m, `${age}\n    lastmodified:`);
}

const lineOf = (text: string, pattern: RegExp, nth = 0): number => {
  const found = text.split('\n').flatMap((l, i) => (pattern.test(l) ? [i + 1] : []));
  assert.ok(found.length > nth, `no line matches ${pattern}`);
  return found[nth]!;
};

const at = (uri: string, line: number, extra: Partial<SarifResult> = {}): SarifResult => ({
  level: 'error',
  message: { text: 'secret' },
  locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: line, snippet: { text: 'REDACTED' } } } }],
  ...extra,
});
const toolRun = (name: string, rules: SarifRule[], results: SarifResult[], extra: Partial<SarifRun> = {}): SarifRun => ({ tool: { driver: { name, rules } }, results, ...extra });

/** Runs shaped like the tools' own SARIF (KICS from pkg/report/model/sarif.go, Trivy's tags, checkov's ids). */
function secretRuns(path: string, text: string): SarifRun[] {
  const password = lineOf(text, /^\s+password: ENC\[/);
  const key = lineOf(text, /^\s+key: ENC\[/);
  const user = lineOf(text, /^\s+user: ENC\[/);
  const pgpBody = lineOf(text, /^ {12}[A-Za-z0-9+/]{40,}/);
  const ageBody = lineOf(text, /^ {12}[A-Za-z0-9+/]{40,}/, 14);
  const mac = lineOf(text, /^\s+mac: ENC\[/);
  const recipient = lineOf(text, /recipient: age1/);
  const fp = lineOf(text, /^\s+fp: /);
  const comment = lineOf(text, /^\s+#ENC\[/);
  const arrayItem = lineOf(text, /^- ENC\[/);
  const kicsRule: SarifRule = {
    id: 'a88baa34-e2ad-44ea-ad6f-8cac87bc7c71',
    name: 'Passwords And Secrets - Generic Password',
    shortDescription: { text: 'Passwords And Secrets - Generic Password' },
    fullDescription: { text: 'Query to find passwords and secrets in infrastructure code.' },
    defaultConfiguration: { level: 'error' },
    helpUri: 'https://docs.kics.io/latest/secrets/',
    relationships: [
      { target: { id: 'e7d0e8e3-8a8b-4a4d-a3b0-5b4c8e1c6f2a', index: 13, toolComponent: { guid: '58cdcc6f-fe41-4724-bfb3-131a93df4c3f', name: 'Categories' } } },
      { target: { id: '798', guid: '1ca2c7c0-4f6c-43e7-b2a1-000000000798', toolComponent: { guid: '1489b0c4-d7ce-4d31-af66-6382a01202e3', name: 'CWE' } } },
    ],
  };
  const kicsEntropy: SarifRule = { ...kicsRule, id: 'b9f4c2d5-0000-4c4e-9a1e-1f2e3d4c5b6a', name: 'Passwords And Secrets - Generic Secret', shortDescription: { text: 'Passwords And Secrets - Generic Secret' } };
  const kics = (line: number, ruleIndex: number) =>
    at(path, line, { ruleId: [kicsRule, kicsEntropy][ruleIndex]!.id, ruleIndex, kind: 'fail', message: { text: 'Hardcoded secret key appears in source', properties: { platform: 'Common' } } as SarifResult['message'] });
  return [
    toolRun('gitleaks (MegaLinter REPOSITORY_GITLEAKS)', [{ id: 'generic-api-key', shortDescription: { text: 'Generic API Key' } }], [at(path, password, { ruleId: 'generic-api-key' })], {
      properties: { megalinter: { linterKey: 'REPOSITORY_GITLEAKS' } },
    }),
    toolRun('KICS', [kicsRule, kicsEntropy], [kics(password, 0), kics(key, 1), kics(mac, 1)]),
    toolRun('Checkov', [{ id: 'CKV_SECRET_6', name: 'Base64 High Entropy String', shortDescription: { text: 'Base64 High Entropy String' } }], [
      at(path, pgpBody, { ruleId: 'CKV_SECRET_6', ruleIndex: 0 }),
      at(path, ageBody, { ruleId: 'CKV_SECRET_6', ruleIndex: 0 }),
    ]),
    toolRun('Semgrep OSS', [{ id: 'generic.secrets.security.detected-generic-secret.detected-generic-secret', name: 'generic.secrets.security.detected-generic-secret.detected-generic-secret', properties: { tags: ['CWE-798: Use of Hard-coded Credentials', 'security'] } }], [
      at(path, user, { ruleId: 'generic.secrets.security.detected-generic-secret.detected-generic-secret' }),
    ]),
    // Trivy: nothing in the rule id says "secret"; its tags do.
    toolRun('Trivy', [{ id: 'github-pat', name: 'GitHub Personal Access Token', properties: { tags: ['secret', 'security', 'CRITICAL'], 'security-severity': '9.5' } }], [at(path, recipient, { ruleId: 'github-pat', ruleIndex: 0 })]),
    // A scanner the gate has never heard of, whose rule names only the CWE.
    toolRun('acme-scan', [{ id: 'AC-17', properties: { tags: ['external/cwe/cwe-798'] } }], [at(path, fp, { ruleId: 'AC-17' })]),
    toolRun('secretlint', [{ id: '@secretlint/secretlint-rule-preset-recommend > @secretlint/secretlint-rule-basicauth' }], [at(path, comment, { ruleId: '@secretlint/secretlint-rule-preset-recommend > @secretlint/secretlint-rule-basicauth' })]),
    toolRun('trufflehog', [], [at(path, arrayItem, { ruleId: 'AWS' })]),
    toolRun('ggshield', [], [at(path, key, { ruleId: 'Generic High Entropy Secret' })]),
    toolRun('detect-secrets', [], [at(path, fp, { ruleId: 'HexHighEntropyString' })]),
  ];
}

describe('gate ci: SOPS ciphertext is judged by the file, whatever the scanner', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;
  const path = 'deploy/secrets.enc.yaml';

  before(function () {
  });
  beforeEach(() => {
    repo = GitRepo.create();
    repo.write(path, readFileSync(SOPS_EXAMPLE, 'utf8')).write('README.md', 'readme\n');
    base = repo.commit('base: a SOPS file');
    repo.git('checkout', '--quiet', '-b', 'pr');
    repo.write(path, reencrypt(readFileSync(SOPS_EXAMPLE, 'utf8')));
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-sops-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (runs: SarifRun[]) => {
    const sarif = join(out, `report-${Math.random()}.sarif`);
    writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs } satisfies SarifLog));
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, countsJson: join(out, 'counts.json') }, {});
    return { outcome, counts: JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts };
  };

  it('a re-encryption (every value, the MAC, the data keys, a new age recipient) does not block, whichever tool reports it', async () => {
    repo.commit('pr: re-encrypt');
    const text = readFileSync(join(repo.dir, path), 'utf8');
    const changed = repo.git('diff', '--numstat', base, 'HEAD', '--', path).split('\t');
    assert.ok(Number(changed[0]) > 30, 'the re-encryption changes most of the file');
    const runs = secretRuns(path, text);
    const secretResults = runs.reduce((n, r) => n + r.results!.length, 0);
    // A finding that is not about secrets on a ciphertext line is still judged like any other.
    runs.push(toolRun('yamllint', [{ id: 'line-length' }], [at(path, lineOf(text, /^\s+key: ENC\[/), { ruleId: 'line-length', level: 'warning' })]));
    const { outcome, counts } = await gate(runs);
    assert.equal(counts.sops_ignored_count, secretResults);
    assert.equal(counts.net_new_count, 1, 'only yamllint');
    assert.equal(counts.blocking_count, 0);
    assert.equal(outcome.exitCode, 0, outcome.message);
  });

  it('a plaintext secret added to the same file still blocks, as does plaintext beside a ciphertext or inside the sops block', async () => {
    const text = reencrypt(readFileSync(SOPS_EXAMPLE, 'utf8'))
      .replace(/^somelist_unencrypted:/m, 'db_password_unencrypted: correct-horse-battery-staple-9f8e7d\nsomelist_unencrypted:')
      .replace(/^(\s+user: ENC\[[^\]]+\])$/m, '$1 # was: admin:Sup3rS3cret!')
      .replace(/^sops:$/m, 'sops:\n    backup_password: hunter2-hunter2-hunter2');
    repo.write(path, text);
    repo.commit('pr: re-encrypt, and leak');
    const plain = lineOf(text, /db_password_unencrypted/);
    const beside = lineOf(text, /# was: admin/);
    const inBlock = lineOf(text, /backup_password/);
    const runs = secretRuns(path, text);
    runs[0]!.results!.push(at(path, plain, { ruleId: 'generic-api-key' }), at(path, beside, { ruleId: 'generic-api-key' }));
    runs[1]!.results!.push(at(path, plain, { ruleId: 'a88baa34-e2ad-44ea-ad6f-8cac87bc7c71', ruleIndex: 0 }), at(path, inBlock, { ruleId: 'a88baa34-e2ad-44ea-ad6f-8cac87bc7c71', ruleIndex: 0 }));
    const { outcome, counts } = await gate(runs);
    // Semgrep's finding on the user line is no longer on a line of ciphertext alone either.
    assert.equal(counts.net_new_count, 5);
    assert.equal(counts.blocking_count, 5);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual(
      outcome.classification!.netNew.map((f) => f.startLine!).sort((a, b) => a - b),
      [plain, plain, beside, beside, inBlock].sort((a, b) => a - b),
    );
  });
});

describe('SOPS metadata and secret-like findings (units, from sops\'s own file formats)', () => {
  it('JSON, dotenv and INI metadata: data keys, MAC, fingerprints, recipients, ARNs, timestamps', () => {
    // Shapes of getsops/sops example.json and functional-tests/res/format.enc.env (values shortened).
    const json = [
      '{',
      '    "firstName": "ENC[AES256_GCM,data:Sf9dCw==,iv:OtsxqCFAvsDfiUIu+FmMT+9SZZ+hwFXxWAoA/fFt4n0=,tag:UJpAMAlrLm+TMIAkQCShTg==,type:str]", ',
      '    "sops": {',
      `        "mac": "ENC[AES256_GCM,data:${b64(64)},iv:${b64(32)},tag:${b64(16)},type:str]", `,
      '        "kms": [',
      '            {',
      '                "created_at": 1444233149.795402, ',
      `                "enc": "${b64(120)}", `,
      '                "arn": "arn:aws:kms:us-east-1:656532927350:key/920aff2e-c5f1-4040-943a-047fa387b27e"',
      '            }',
      '        ], ',
      '        "pgp": [',
      '            {',
      '                "fp": "85D77543B3D624B63CEA9E6DBC17301B491B3F21", ',
      `                "enc": "-----BEGIN PGP MESSAGE-----\\nVersion: GnuPG v1\\n\\n${b64(48)}\\n${b64(30)}\\n=uQw0\\n-----END PGP MESSAGE-----\\n"`,
      '            }',
      '        ], ',
      '        "password": "hunter2", ',
      '        "version": 0.8',
      '    }',
      '}',
    ];
    assert.deepEqual([...sopsMetadataLines(json)], [4, 7, 8, 9, 14, 15, 19]);
    const dotenv = [
      `foo =ENC[AES256_GCM,data:XBV7lQ==,iv:${b64(32)},tag:${b64(16)},type:str]`,
      'sops_lastmodified=2026-05-22T20:15:29Z',
      `sops_age__list_0__map_enc=-----BEGIN AGE ENCRYPTED FILE-----\\n${b64(48)}\\n${b64(20)}\\n-----END AGE ENCRYPTED FILE-----\\n`,
      'sops_age__list_0__map_recipient=age1lswzfll4dgp9jdksd8095fdrfevmf39tqe9d80wszkv2tfpzly9qlqmmal',
      'sops_pgp__list_0__map_fp=FBC7B9E2A4F9289AC0C1D4843D16CEE4A27381B4',
      'sops_extra_password=hunter2',
      'API_TOKEN=ghp_notencrypted0123456789',
    ];
    assert.deepEqual([...sopsMetadataLines(dotenv)], [2, 3, 4, 5]);
    const ini = ['[app]', `password = ENC[AES256_GCM,data:${b64(9)},iv:${b64(32)},tag:${b64(16)},type:str]`, '[sops]', `age__list_0__map_enc = ${b64(80)}`, 'fp = hunter2', '[later]', `enc = ${b64(80)}`];
    assert.deepEqual([...sopsMetadataLines(ini)], [4]);
  });

  it('secret-like: tools, rule words, tags, KICS CWE relationships; not a linter that merely runs on the file', () => {
    const judge = (run: SarifRun, result: SarifResult, key?: string) => new SecretLike(run, key).test(result);
    const result = (ruleId: string, extra: Partial<SarifResult> = {}): SarifResult => ({ ruleId, ...extra });
    assert.ok(judge(toolRun('gitleaks', [], []), result('aws-access-token')));
    assert.ok(judge(toolRun('some linter', [], []), result('x'), 'REPOSITORY_SECRETLINT'));
    assert.ok(judge(toolRun('Checkov', [], []), result('CKV_SECRET_2')));
    assert.ok(judge(toolRun('CodeQL', [{ id: 'js/unknown', properties: { tags: ['security', 'external/cwe/cwe-259'] } }], []), result('js/unknown')));
    assert.ok(judge(toolRun('KICS', [{ id: 'u-1', relationships: [{ target: { id: '798', toolComponent: { name: 'CWE' } } }] }], []), result('u-1', { ruleIndex: 0 })));
    assert.ok(judge(toolRun('devskim', [], []), result('DS1', { properties: { tags: ['Secrets.Credential'] } })));
    assert.ok(judge(toolRun('tool', [{ id: 'r', properties: { category: 'Secret Management' } }], []), result('r')));
    assert.ok(!judge(toolRun('yamllint', [{ id: 'line-length' }], []), result('line-length')));
    assert.ok(!judge(toolRun('bandit', [{ id: 'B108', name: 'hardcoded_tmp_directory' }], []), result('B108')));
    assert.ok(!judge(toolRun('KICS', [{ id: 'u-2', name: 'Container Running As Root', relationships: [{ target: { id: '250', toolComponent: { name: 'CWE' } } }] }], []), result('u-2')));
    assert.ok(!judge(toolRun('Trivy', [{ id: 'CVE-2024-0001', properties: { tags: ['vulnerability', 'security', 'HIGH'] } }], []), result('CVE-2024-0001')));
  });
});
