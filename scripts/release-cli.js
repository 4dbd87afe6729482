#!/usr/bin/env node
// Makes the CLIs' npm package for one organisation's release, and publishes it when asked.
//
//   node scripts/release-cli.js --owner <repository owner> --tag vX.Y.Z --out <folder>
//        [--repository-url <url>] [--prerelease] [--publish [--dry-run]]
//
// The package is named after the organisation, @<owner>/gatehouse-cli: an unscoped name would be
// one name shared by every organisation's copy (the first to publish owns it, and everyone else's
// `npm install` would get theirs). It is staged in <folder>/package (packages/cli itself is left
// as committed) and packed to <folder>/gatehouse-cli.tgz, the name the release asset keeps from one
// release to the next (…/releases/download/vX.Y.Z/gatehouse-cli.tgz, …/releases/latest/download/…).
// --publish runs npm publish on that tarball (with provenance inside GitHub Actions); --dry-run
// makes it npm's dry run, which needs neither the registry nor credentials.
// Prints {"name","version","tarball","published"} and, in GitHub Actions, writes name and tarball
// to $GITHUB_OUTPUT.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fillCliPackage } from './cli-package.js';

const root = new URL('..', import.meta.url).pathname;
const source = join(root, 'packages', 'cli');

/** The release asset's file name. */
export const CLI_ASSET = 'gatehouse-cli.tgz';

/** A GitHub login: letters, digits and single inner hyphens, at most 39 characters. */
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/** @<owner>/gatehouse-cli; npm scopes are lower case, GitHub logins are not. */
export function cliPackageName(owner) {
  if (!GITHUB_LOGIN.test(owner ?? '')) throw new Error(`--owner must be a GitHub user or organisation login, got ${JSON.stringify(owner ?? '')}`);
  return `@${owner.toLowerCase()}/gatehouse-cli`;
}

export function releaseCli({ owner, tag, out, repositoryUrl, prerelease = false, publish = false, dryRun = false }) {
  const name = cliPackageName(owner);
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  if (tag !== `v${manifest.version}`) throw new Error(`packages/cli/package.json is ${manifest.version}, the tag is ${tag ?? '(none)'}`);
  if (dryRun && !publish) throw new Error('--dry-run is a dry run of --publish: give both');

  const folder = resolve(out);
  const staged = join(folder, 'package');
  rmSync(staged, { recursive: true, force: true });
  mkdirSync(staged, { recursive: true });
  fillCliPackage(staged);
  // The README names the package as users will install it.
  writeFileSync(join(staged, 'README.md'), readFileSync(join(source, 'README.md'), 'utf8').replaceAll('@your-org/gatehouse-cli', name));
  manifest.name = name;
  // The committed prepack fills packages/cli from dist/; the staged copy is filled already.
  delete manifest.scripts;
  // Provenance requires the package's repository to be the one that builds it.
  if (repositoryUrl) manifest.repository = { type: 'git', url: `git+${repositoryUrl}.git`, directory: 'packages/cli' };
  writeFileSync(join(staged, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const npm = (args) => execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: staged, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', folder]));
  const tarball = join(folder, CLI_ASSET);
  renameSync(join(folder, packed.filename), tarball);

  if (publish) {
    // A pre-release goes to the `next` dist-tag, so a plain install keeps the latest release.
    const args = ['publish', tarball, '--access', 'public', '--tag', prerelease ? 'next' : 'latest'];
    if (dryRun) args.push('--dry-run');
    else if (process.env.GITHUB_ACTIONS === 'true') args.push('--provenance');
    // All of npm's output to stderr (the job log): stdout is this script's JSON answer.
    execFileSync('npm', args, { cwd: folder, stdio: ['ignore', 2, 2] });
  }

  const result = { name, version: manifest.version, tarball, published: publish ? (dryRun ? 'dry-run' : 'yes') : 'no' };
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `name=${name}\ntarball=${tarball}\n`);
  return result;
}

// Run as a script; imported (by its test), it only defines the functions above.
if (process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  try {
    const { values } = parseArgs({
      options: {
        owner: { type: 'string' },
        tag: { type: 'string' },
        out: { type: 'string' },
        'repository-url': { type: 'string' },
        prerelease: { type: 'boolean', default: false },
        publish: { type: 'boolean', default: false },
        'dry-run': { type: 'boolean', default: false },
      },
    });
    if (!values.out) throw new Error('--out <folder> is required');
    const result = releaseCli({ ...values, repositoryUrl: values['repository-url'], dryRun: values['dry-run'] });
    console.log(JSON.stringify(result));
  } catch (error) {
    console.error(`release-cli: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
