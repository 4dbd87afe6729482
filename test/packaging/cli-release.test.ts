import assert from 'node:assert/strict';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI_ASSET, cliPackageName } from '../../scripts/release-cli.js';
import { REPO_ROOT, runToEnd } from '../support/processes.js';
import { listen, type Listening } from '../support/servers.js';

// A release names the CLIs' package after the repository's owner and attaches it to the GitHub
// release (scripts/release-cli.js, run by release.yml); docs/cli.md leads with installing it by
// the asset's address. Here the script runs as the workflow runs it (with npm's dry run for the
// publish), and the documented commands run against a loopback stand-in for github.com that
// answers the asset the way GitHub does (a redirect to the file). npm never reaches a registry:
// its registry is a loopback server that knows no package.

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
const SCRIPT = join(REPO_ROOT, 'scripts', 'release-cli.js');

/** The first fenced block of `language` under the `## heading` of docs/cli.md, as command lines. */
function documentedCommands(heading: string, language: string): string[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
  const section = doc.slice(doc.indexOf(`## ${heading}\n`)).split(/\n## /)[0]!;
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  assert.ok(block, `no ${language} block under "## ${heading}"`);
  return block[1]!.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

function tarballManifest(tarball: string): Record<string, unknown> {
  return JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
}

describe("the CLIs' release package (scripts/release-cli.js)", function () {
  // Staging, packing and installing are whole npm runs.
  this.timeout(180_000);

  let work: string;
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'gatehouse-cli-release-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const release = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runToEnd('node', [SCRIPT, ...args], { env: { ...process.env, npm_config_update_notifier: 'false', ...env }, timeoutMs: 120_000 });

  it("names the package after the owner, in npm's lower case; refuses what is not a GitHub login", () => {
    assert.equal(cliPackageName('Octo-Org'), '@octo-org/gatehouse-cli');
    assert.equal(cliPackageName('a'), '@a/gatehouse-cli');
    for (const bad of ['', '-org', 'org-', 'o--rg', 'org/name', '@org', 'x'.repeat(40), 'org name']) {
      assert.throws(() => cliPackageName(bad), /--owner must be a GitHub user or organisation login/, bad);
    }
  });

  it('--publish --dry-run: stages @<owner>/gatehouse-cli, packs gatehouse-cli.tgz and runs npm publish as a dry run; packages/cli is left as committed', async () => {
    const committed = readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8');
    const out = join(work, 'dry-run');
    const githubOutput = join(work, 'github-output');
    writeFileSync(githubOutput, '');
    const run = await release(
      ['--owner', 'Octo-Org', '--tag', `v${VERSION}`, '--out', out, '--repository-url', 'https://github.com/Octo-Org/gatehouse', '--publish', '--dry-run'],
      { GITHUB_OUTPUT: githubOutput },
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as Record<string, string>;
    assert.deepEqual(result, { name: '@octo-org/gatehouse-cli', version: VERSION, tarball: join(out, CLI_ASSET), published: 'dry-run' });
    // npm's own account of the dry run: the scoped name, the latest dist-tag, public access.
    assert.match(run.stderr, new RegExp(`\\+ @octo-org/gatehouse-cli@${VERSION.replaceAll('.', '\\.')}`));
    assert.match(run.stderr, /with tag latest and public access \(dry-run\)/);
    assert.equal(readFileSync(githubOutput, 'utf8'), `name=@octo-org/gatehouse-cli\ntarball=${join(out, CLI_ASSET)}\n`);

    const manifest = tarballManifest(result.tarball!);
    assert.equal(manifest.name, '@octo-org/gatehouse-cli');
    assert.equal(manifest.version, VERSION);
    assert.deepEqual(manifest.repository, { type: 'git', url: 'git+https://github.com/Octo-Org/gatehouse.git', directory: 'packages/cli' });
    assert.equal(manifest.scripts, undefined, 'the staged copy is filled already: no prepack reaching outside the package');
    const readme = execFileSync('tar', ['-xOzf', result.tarball!, 'package/README.md'], { encoding: 'utf8' });
    assert.match(readme, /^# @octo-org\/gatehouse-cli\n/);
    assert.doesNotMatch(readme, /your-org/);
    assert.equal(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8'), committed);
  });

  it('a pre-release is published to the next dist-tag', async () => {
    const run = await release(['--owner', 'octo-org', '--tag', `v${VERSION}`, '--out', join(work, 'pre'), '--prerelease', '--publish', '--dry-run']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /with tag next and public access \(dry-run\)/);
  });

  it('stops, having published nothing, when the tag is not the package version, the owner is not a login, or --dry-run comes without --publish', async () => {
    const cases: [string[], RegExp][] = [
      [['--owner', 'octo-org', '--tag', 'v999.0.0', '--publish', '--dry-run'], new RegExp(`^release-cli: packages/cli/package.json is ${VERSION.replaceAll('.', '\\.')}, the tag is v999\\.0\\.0\\n$`)],
      [['--owner', 'octo-org', '--publish', '--dry-run'], /the tag is \(none\)/],
      [['--owner', 'octo/org', '--tag', `v${VERSION}`], /--owner must be a GitHub user or organisation login, got "octo\/org"/],
      [['--owner', 'octo-org', '--tag', `v${VERSION}`, '--dry-run'], /--dry-run is a dry run of --publish: give both/],
    ];
    for (const [args, message] of cases) {
      const out = join(work, 'refused');
      const run = await release([...args, '--out', out]);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
      assert.doesNotMatch(run.stderr, /Publishing to/);
    }
  });

  describe("docs/cli.md's commands, against the release asset served as GitHub serves it", () => {
    let github: Listening;
    let registry: Listening;
    let tarball: string;
    const requests: string[] = [];
    let env: NodeJS.ProcessEnv;

    before(async () => {
      const made = await release(['--owner', 'your-org', '--tag', `v${VERSION}`, '--out', join(work, 'asset')]);
      assert.equal(made.code, 0, made.stderr);
      tarball = (JSON.parse(made.stdout) as { tarball: string }).tarball;
      github = await listen((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        // github.com answers a release asset with a redirect to its storage.
        if (req.url === `/your-org/gatehouse/releases/download/v${VERSION}/${CLI_ASSET}`) {
          res.writeHead(302, { location: `/storage/assets/${CLI_ASSET}` }).end();
        } else if (req.url === `/storage/assets/${CLI_ASSET}`) {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          createReadStream(tarball).pipe(res);
        } else {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        }
      });
      registry = await listen((req, res) => {
        requests.push(`registry ${req.method} ${req.url}`);
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      });
      const prefix = join(work, 'global');
      env = {
        ...process.env,
        PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
        npm_config_registry: `${registry.url}/`,
        npm_config_cache: join(work, 'npm-cache'),
        npm_config_prefix: prefix,
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      };
    });
    after(async () => {
      await github?.close();
      await registry?.close();
    });

    const runDocumented = async (line: string, cwd: string) => {
      const command = line.replaceAll('https://github.com', github.url).replaceAll('/tmp/gatehouse-cli', join(work, 'from-clone'));
      const run = await runToEnd('bash', ['-c', command], { cwd, env, timeoutMs: 120_000 });
      assert.equal(run.code, 0, `${command}\n${run.stdout}\n${run.stderr}`);
      return run;
    };

    it('"Install and run outside a clone": each command works, and the version commands print the release version', async () => {
      const commands = documentedCommands('Install and run outside a clone', 'sh');
      assert.ok(commands.some((c) => c.startsWith('npm install --save-dev https://github.com/')), 'the docs lead with installing the release asset');
      const project = join(work, 'project');
      mkdirSync(project, { recursive: true });
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
      for (const line of commands) {
        assert.match(line, new RegExp(`releases/download/v${VERSION.replaceAll('.', '\\.')}/|^(npx )?gate(house-sync)? `), `a documented install names this release: ${line}`);
        const run = await runDocumented(line, project);
        if (/ --version$/.test(line)) assert.equal(run.stdout, `${VERSION}\n`, line);
        if (/ gate ci --help$/.test(line)) assert.match(run.stdout, /^Usage: gate ci \[options\]/);
      }
      const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
      assert.deepEqual(Object.keys(pkg.devDependencies), ['@your-org/gatehouse-cli']);
      assert.ok(requests.includes(`GET /storage/assets/${CLI_ASSET}`));
    });

    it('"From a clone": making the package as a release does, then installing the file, works offline', async () => {
      const commands = documentedCommands('From a clone', 'sh');
      const project = join(work, 'clone-project');
      mkdirSync(project, { recursive: true });
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
      for (const line of commands) await runDocumented(line.replace(/^node scripts\//, `node ${REPO_ROOT}scripts/`), project);
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', '@your-org', 'gatehouse-cli', 'package.json'), 'utf8')) as { version: string };
      assert.equal(installed.version, VERSION);
      const version = await runToEnd(join(project, 'node_modules', '.bin', 'gatehouse-sync'), ['--version']);
      assert.equal(version.stdout, `${VERSION}\n`);
    });
  });
});
