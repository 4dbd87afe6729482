import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCi, type CiOptions } from '../../actions/gate/ci.js';
import { belowFix, compareVersions } from '../../actions/gate/rules/fixed-versions.js';
import { baseImageLines, isContainerfile } from '../../actions/gate/rules/images.js';
import type { Counts } from '../../actions/gate/outputs/report.js';
import type { SarifLog, SarifResult, SarifRun } from '../../actions/gate/reports/sarif.js';
import { GitRepo, lines } from '../support/git-repo.js';

// Shapes common outside MegaLinter, each of which passed silently before: image findings on a
// Dockerfile, results with many locations, Windows paths, scanners' mount prefixes, a baseline.

const DOCKERFILE = (finalImage: string, builder = 'golang:1.22') => `# syntax=docker/dockerfile:1
ARG BUILDER_IMAGE=${builder}
FROM \${BUILDER_IMAGE} AS build
WORKDIR /src
COPY . .
RUN go build -o /out/app ./cmd/app

FROM ${finalImage}
COPY --from=build /out/app /app
ENTRYPOINT ["/app"]
`;

/** A package of an image, as grype writes it: on the Dockerfile's line 1, the package URL in the message. */
const imageFinding = (pkg: string, version: string, rule = 'CVE-2021-3711', level = 'error'): SarifResult => ({
  ruleId: rule,
  level,
  message: { text: `A ${level === 'error' ? 'critical' : 'medium'} vulnerability in deb package: ${pkg}, version ${version} was found at: /var/lib/dpkg/status (pkg:deb/ubuntu/${pkg}@${version}?distro=ubuntu-20.10)` },
  locations: [{ physicalLocation: { artifactLocation: { uri: 'Dockerfile' }, region: { startLine: 1, endLine: 1 } } }],
});

const grype = (results: SarifResult[]): SarifRun => ({ tool: { driver: { name: 'grype', rules: [] } }, results });

describe('gate ci on other scanners\' reports', () => {
  let repo: GitRepo;
  let out: string;
  let base: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write('Dockerfile', DOCKERFILE('gcr.io/distroless/static:nonroot'));
    repo.write('src/server.js', lines(15));
    repo.write('src/util.js', lines(15, 'util '));
    repo.write('deploy/app.Dockerfile', 'FROM alpine:3.19\nRUN apk add --no-cache curl\n');
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    out = mkdtempSync(join(tmpdir(), 'gatehouse-gate-'));
  });
  afterEach(() => {
    repo.cleanup();
    rmSync(out, { recursive: true, force: true });
  });

  const gate = async (runs: SarifRun[], options: Partial<CiOptions> = {}) => {
    const sarif = join(out, `report-${Math.random()}.sarif`);
    writeFileSync(sarif, JSON.stringify({ version: '2.1.0', runs }));
    const outcome = await runCi({ sarif, base, head: 'HEAD', repo: repo.dir, failOn: 'high', strict: false, filteredOut: join(out, 'filtered.sarif'), countsJson: join(out, 'counts.json'), ...options }, {});
    const counts = JSON.parse(readFileSync(join(out, 'counts.json'), 'utf8')) as Counts;
    const filtered = JSON.parse(readFileSync(join(out, 'filtered.sarif'), 'utf8')) as SarifLog;
    return { outcome, counts, filtered };
  };

  describe('image findings are judged by the image', () => {
    it('a pull request that switches the final stage to another base image brings its packages: net-new, blocked', async () => {
      repo.write('Dockerfile', DOCKERFILE('ubuntu:groovy-20210416')).commit('switch the base image');
      const { outcome, counts } = await gate([grype([imageFinding('openssl', '1.1.1f-1ubuntu4'), imageFinding('libssl1.1', '1.1.1f-1ubuntu4', 'CVE-2021-3712')])]);
      assert.equal(outcome.exitCode, 1);
      assert.equal(counts.net_new_count, 2);
    });

    it('an ARG a FROM reads counts as the FROM; another change of the Dockerfile leaves the image\'s packages pre-existing', async () => {
      repo.write('Dockerfile', DOCKERFILE('gcr.io/distroless/static:nonroot', 'golang:1.23')).commit('new builder');
      assert.equal((await gate([grype([imageFinding('openssl', '1.1.1f')])])).outcome.exitCode, 1);
      repo.git('reset', '--quiet', '--hard', base);
      repo.write('Dockerfile', DOCKERFILE('gcr.io/distroless/static:nonroot').replace('ENTRYPOINT', 'USER 65532\nENTRYPOINT')).commit('non-root');
      const { outcome, counts } = await gate([grype([imageFinding('openssl', '1.1.1f')])]);
      assert.equal(outcome.exitCode, 0);
      assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [0, 1]);
    });

    it('a package an added instruction names is net-new (apk add), one it does not name is not; instruction-level findings (hadolint) keep the line rule', async () => {
      repo.write('deploy/app.Dockerfile', 'FROM alpine:3.19\nRUN apk add --no-cache curl\nRUN apk add --no-cache busybox-extras\n').commit('add busybox-extras');
      const at = (pkg: string): SarifResult => ({ ...imageFinding(pkg, '1.36.1-r15'), locations: [{ physicalLocation: { artifactLocation: { uri: 'deploy/app.Dockerfile' }, region: { startLine: 1 } } }] });
      const hadolint: SarifRun = {
        tool: { driver: { name: 'hadolint', rules: [] } },
        results: [{ ruleId: 'DL3018', level: 'error', message: { text: 'Pin versions in apk add. Instead of `apk add <package>` use `apk add <package>=<version>`' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'deploy/app.Dockerfile' }, region: { startLine: 2 } } }] }],
      };
      const { counts } = await gate([grype([at('busybox-extras'), at('zlib')]), hadolint]);
      assert.deepEqual([counts.net_new_count, counts.pre_existing_count], [1, 2]);
    });

    it('knows Dockerfiles by the names builders take, and their FROM and ARG lines, continuations and the escape directive included', () => {
      for (const name of ['Dockerfile', 'docker/Dockerfile.prod', 'app.Dockerfile', 'Containerfile', 'build/x.dockerfile']) assert.equal(isContainerfile(name), true, name);
      for (const name of ['docs/dockerfile-guide.txt', 'README.md', 'src/dockerfile.go']) assert.equal(isContainerfile(name), false, name);
      const text = '# escape=`\nARG A=1\nARG UNUSED=2\nFROM registry/${A}:latest `\n  AS base\nRUN echo $A\n';
      assert.deepEqual([...baseImageLines(text.split('\n'))].sort(), [2, 4, 5]);
    });

    it('with --baseline-sarif, an image finding is judged by the baseline alone', async () => {
      repo.write('Dockerfile', DOCKERFILE('ubuntu:groovy-20210416')).commit('switch the base image');
      const baselineFile = join(out, 'baseline.sarif');
      writeFileSync(baselineFile, JSON.stringify({ version: '2.1.0', runs: [grype([imageFinding('openssl', '1.1.1f-1ubuntu4')])] }));
      const { outcome, counts } = await gate([grype([imageFinding('openssl', '1.1.1f-1ubuntu4'), imageFinding('libssl1.1', '1.1.1f-1ubuntu4', 'CVE-2021-3712')])], { baselineSarif: baselineFile });
      assert.equal(outcome.exitCode, 1);
      assert.deepEqual([counts.net_new_count, counts.baseline_matched_count], [1, 1]);
    });
  });

  it('orders versions across ecosystems: semver and its pre-releases, PEP 440, Debian epochs and revisions, Alpine -r', () => {
    const ordered = ['0.9', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.2', '1.10', 'v2.0.0', '1:0.1'];
    for (let i = 1; i < ordered.length; i++) assert.ok(compareVersions(ordered[i - 1]!, ordered[i]!) < 0, `${ordered[i - 1]} < ${ordered[i]}`);
    assert.equal(compareVersions('1.1.1f-1ubuntu4', '1.1.1f-1ubuntu4'), 0);
    assert.ok(compareVersions('1.1.1f-1ubuntu4', '1.1.1f-1ubuntu4.3') < 0);
    assert.ok(compareVersions('1.29.5-r0', '1.31.1-r2') < 0);
    assert.equal(belowFix('4.5.12', ['4.5.13', '5.0.3']), true);
    assert.equal(belowFix('4.6.0', ['4.5.13', '5.0.3']), false, 'past the fix of its own release line');
    assert.equal(belowFix('5.0.0', ['4.5.13', '5.0.3']), true);
    assert.equal(belowFix('1.0.0', []), false, 'no fix named: not known to be affected');
  });

  describe('bumps that stay vulnerable are pre-existing', () => {
    const uvLock = (cryptography: string, httpauth: string, extra = '') => `version = 1
requires-python = ">=3.11"

[[package]]
name = "cryptography"
version = "${cryptography}"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "flask-httpauth"
version = "${httpauth}"
source = { registry = "https://pypi.org/simple" }
${extra}`;
    /** Trivy's SARIF: line 1 of the lockfile, package, installed and fixed version in the message. */
    const trivy = (pkg: string, version: string, fixed: string, id: string): SarifResult => ({
      ruleId: id,
      level: 'error',
      message: { text: `Package: ${pkg}\nInstalled Version: ${version}\nVulnerability ${id}\nSeverity: HIGH\nFixed Version: ${fixed}\nLink: [${id}](https://avd.aquasec.com/nvd/${id.toLowerCase()})` },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'uv.lock', uriBaseId: 'ROOTPATH' }, region: { startLine: 1, endLine: 1 } } }],
    });
    const trivyRun = (results: SarifResult[]): SarifRun => ({ tool: { driver: { name: 'Trivy', rules: [] } }, originalUriBaseIds: { ROOTPATH: { uri: 'file:///' } }, results });

    beforeEach(() => {
      repo.git('checkout', '--quiet', 'main');
      repo.write('uv.lock', uvLock('46.0.5', '3.3.0')).commit('lock');
      base = repo.git('rev-parse', 'HEAD');
      repo.git('checkout', '--quiet', '-B', 'pr');
    });

    it('a range that bumps two packages, both still below the fixed versions the report names, brings nothing new (Trivy)', async () => {
      repo.write('uv.lock', uvLock('46.0.6', '4.8.0')).commit('bump');
      const { outcome, counts } = await gate([trivyRun([trivy('cryptography', '46.0.6', '46.0.7', 'CVE-2026-26007'), trivy('flask-httpauth', '4.8.0', '4.8.1', 'CVE-2026-24851')])]);
      assert.equal(outcome.exitCode, 0);
      assert.deepEqual([counts.net_new_count, counts.pre_existing_count, counts.still_affected_count], [0, 2, 2]);
    });

    it('net-new still: a package the merge-base did not have, a base version at or past the fix (a downgrade), a report that names no fix', async () => {
      repo.write('uv.lock', uvLock('46.0.6', '4.8.0', '\n[[package]]\nname = "jinja2"\nversion = "2.11.3"\n')).commit('bump, add');
      const { counts } = await gate([trivyRun([trivy('jinja2', '2.11.3', '2.11.4', 'CVE-2024-22195'), trivy('cryptography', '46.0.6', '46.0.5', 'CVE-2099-1'), trivy('flask-httpauth', '4.8.0', '', 'CVE-2099-2')])]);
      assert.deepEqual([counts.net_new_count, counts.still_affected_count], [3, 0]);
    });

    it('reads the fix as grype (rule help), Snyk (remediation) and osv-scanner (fixed versions table) write it', async () => {
      repo.write('uv.lock', uvLock('46.0.6', '4.8.0')).commit('bump');
      const at = { locations: [{ physicalLocation: { artifactLocation: { uri: 'uv.lock' }, region: { startLine: 1 } } }] };
      const grypeRun: SarifRun = {
        tool: { driver: { name: 'grype', rules: [{ id: 'CVE-2026-26007-cryptography', help: { text: 'Vulnerability CVE-2026-26007\nSeverity: high\nPackage: cryptography\nVersion: 46.0.6\nFix Version: 46.0.7\nType: python\nLocation: /uv.lock' } }] } },
        results: [{ ruleId: 'CVE-2026-26007-cryptography', level: 'error', message: { text: 'A high vulnerability in python package: cryptography, version 46.0.6 was found at: /uv.lock' }, ...at }],
      };
      const snykRun: SarifRun = {
        tool: { driver: { name: 'Snyk Open Source', rules: [{ id: 'SNYK-PYTHON-FLASKHTTPAUTH-1', fullDescription: { text: '(CVE-2026-24851) flask-httpauth@4.8.0' }, help: { text: '', markdown: '## Overview\n…\n# Remediation\nUpgrade `flask-httpauth` to version 4.8.1 or higher.\n' } }] } },
        results: [{ ruleId: 'SNYK-PYTHON-FLASKHTTPAUTH-1', level: 'error', message: { text: 'This file introduces a vulnerable flask-httpauth package with a high severity vulnerability.' }, locations: [{ ...at.locations[0]!, logicalLocations: [{ fullyQualifiedName: 'flask-httpauth@4.8.0' }] } as never] }],
      };
      const osvRun: SarifRun = {
        tool: { driver: { name: 'osv-scanner', rules: [{ id: 'GHSA-x', help: { text: '', markdown: '## Remediation\n\n### Fixed Versions\n\n| Vulnerability ID | Package Name | Fixed Version |\n| --- | --- | --- |\n| GHSA-x | cryptography | 46.0.7 |\n' } }] } },
        results: [{ ruleId: 'GHSA-x', level: 'error', message: { text: "Package 'cryptography@46.0.6' is vulnerable to 'GHSA-x'." }, locations: [{ physicalLocation: { artifactLocation: { uri: 'uv.lock' } } }] }],
      };
      const { counts } = await gate([grypeRun, snykRun, osvRun]);
      assert.deepEqual([counts.net_new_count, counts.still_affected_count], [0, 3]);
    });
  });

  it('every location counts: a result with eleven locations is net-new when two of them are added lines, shown at the first of those', async () => {
    const server = lines(15).split('\n');
    server.splice(8, 0, "const password = 'hunter2';", "const token = 'ghp_0123456789';");
    repo.write('src/server.js', server.join('\n')).commit('hardcode two secrets');
    const located = (path: string, line: number) => ({ physicalLocation: { artifactLocation: { uri: path }, region: { startLine: line, snippet: { text: 'x' } } } });
    const nodejsscan: SarifRun = {
      tool: { driver: { name: 'nodejsscan', rules: [{ id: 'node_secret', properties: { 'security-severity': '7.4' } }] } },
      results: [
        {
          ruleId: 'node_secret',
          level: 'error',
          message: { text: 'A hardcoded secret was identified.' },
          locations: [...[1, 2, 3, 4].map((l) => located('src/util.js', l)), ...[1, 2, 3, 4].map((l) => located('src/server.js', l)), located('src/server.js', 9), located('src/server.js', 10), located('src/util.js', 9)],
        },
      ],
    };
    const { outcome, counts, filtered } = await gate([nodejsscan]);
    assert.equal(outcome.exitCode, 1);
    assert.equal(counts.net_new_count, 1);
    const first = filtered.runs[0]!.results![0]!.locations![0]!.physicalLocation!;
    assert.deepEqual([first.artifactLocation?.uri, first.region?.startLine], ['src/server.js', 9], 'the filtered SARIF leads with the location that made it net-new');
    assert.equal(filtered.runs[0]!.results![0]!.locations!.length, 11, 'no location lost');
  });

  it('Windows paths: backslashes are read as slashes in a path without any slash, or throughout a run written on Windows', async () => {
    const server = lines(15).split('\n');
    server.splice(4, 0, 'eval(input)');
    repo.write('src/server.js', server.join('\n')).commit('eval');
    const gosec = (uri: string, extra: Partial<SarifRun> = {}): SarifRun => ({
      tool: { driver: { name: 'gosec', rules: [{ id: 'G204', properties: { 'security-severity': '8.0' } }] } },
      results: [{ ruleId: 'G204', level: 'error', message: { text: 'Subprocess launched with variable' }, locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: 5 } } }] }],
      ...extra,
    });
    assert.equal((await gate([gosec('src\\server.js')])).outcome.exitCode, 1);
    const windows = { originalUriBaseIds: { '%SRCROOT%': { uri: 'file:///C:/a/repo/' } } };
    assert.equal((await gate([{ ...gosec('src\\server.js'), ...windows, results: [{ ...gosec('src\\server.js').results![0]!, locations: [{ physicalLocation: { artifactLocation: { uri: 'src\\server.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 5 } } }] }] }])).outcome.exitCode, 2, 'an absolute C:/ path is not this checkout');
    const stripped = await gate([{ ...gosec('src\\server.js'), ...windows, results: [{ ...gosec('x').results![0]!, locations: [{ physicalLocation: { artifactLocation: { uri: 'src\\server.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 5 } } }] }] }], { stripPrefixes: ['C:/a/repo/'] });
    assert.equal(stripped.outcome.exitCode, 1);
  });

  it('--strip-prefix maps a scanner\'s mount prefix; without it the exit-2 message names the option and the first unmapped path', async () => {
    const server = lines(15).split('\n');
    server.splice(4, 0, 'eval(input)');
    repo.write('src/server.js', server.join('\n')).commit('eval');
    const kics: SarifRun = {
      tool: { driver: { name: 'KICS', rules: [{ id: 'r', properties: { 'security-severity': '8.0' } }] } },
      results: [{ ruleId: 'r', level: 'error', message: { text: 'x' }, locations: [{ physicalLocation: { artifactLocation: { uri: '../../src/server.js' }, region: { startLine: 5 } } }] }],
    };
    const unmapped = await gate([kics]);
    assert.equal(unmapped.outcome.exitCode, 2);
    assert.match(unmapped.outcome.message, /the first is \.\.\/\.\.\/src\/server\.js\).*--strip-prefix: --strip-prefix \.\.\/\.\.\/ makes \.\.\/\.\.\/src\/server\.js a file of the head$/);
    assert.equal((await gate([kics], { stripPrefixes: ['../../'] })).outcome.exitCode, 1);
    const container = { ...kics, results: [{ ...kics.results![0]!, locations: [{ physicalLocation: { artifactLocation: { uri: '/src/src/server.js' }, region: { startLine: 5 } } }] }] };
    assert.equal((await gate([container], { stripPrefixes: ['/src/'] })).outcome.exitCode, 1);
  });

  it('--baseline-sarif: a result the base commit\'s report holds (same fingerprint; else same path and package) is pre-existing', async () => {
    const server = lines(15).split('\n');
    server.splice(4, 0, 'eval(input)');
    repo.write('src/server.js', server.join('\n')).commit('eval moved in from elsewhere');
    const codeql = (hash: string): SarifRun => ({
      tool: { driver: { name: 'CodeQL', rules: [{ id: 'js/code-injection', properties: { 'security-severity': '9.3' } }] } },
      results: [{ ruleId: 'js/code-injection', message: { text: 'x' }, partialFingerprints: { primaryLocationLineHash: hash }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/server.js' }, region: { startLine: 5 } } }] }],
    });
    const baselineFile = join(out, 'baseline.sarif');
    writeFileSync(baselineFile, JSON.stringify({ version: '2.1.0', runs: [codeql('abc:1')] }));
    const held = await gate([codeql('abc:1')], { baselineSarif: baselineFile });
    assert.deepEqual([held.outcome.exitCode, held.counts.baseline_matched_count], [0, 1]);
    assert.equal((await gate([codeql('def:1')], { baselineSarif: baselineFile })).outcome.exitCode, 1, 'another fingerprint is another finding');
    writeFileSync(baselineFile, '{"runs": ');
    const broken = await gate([codeql('abc:1')], { baselineSarif: baselineFile });
    assert.equal(broken.outcome.exitCode, 2);
    assert.match(broken.outcome.message, /the baseline report cannot be used/);
  });
});
