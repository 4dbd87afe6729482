import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/processes.js';

// Static checks of .github/workflows: every action pinned to a commit, and the release workflow
// building the images from Dockerfiles that exist.
const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');

interface Step {
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
}

interface Job {
  readonly uses?: string;
  readonly steps?: readonly Step[];
  readonly strategy?: { readonly matrix?: Record<string, unknown> & { readonly include?: readonly Record<string, unknown>[] } };
}

interface Workflow {
  readonly jobs: Record<string, Job>;
}

const files = () => readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
const text = (file: string) => readFileSync(join(WORKFLOWS, file), 'utf8');
const workflow = (file: string) => parse(text(file)) as Workflow;

/** The values `${{ matrix.<name> }}` takes in a job, or the value itself when it is not one. */
function valuesOf(job: Job, value: unknown): unknown[] {
  const ref = typeof value === 'string' ? /^\$\{\{\s*matrix\.([A-Za-z_][\w-]*)\s*\}\}$/.exec(value) : null;
  if (!ref) return [value];
  const matrix = job.strategy?.matrix ?? {};
  const listed = Array.isArray(matrix[ref[1]!]) ? (matrix[ref[1]!] as unknown[]) : [];
  return [...listed, ...(matrix.include ?? []).map((entry) => entry[ref[1]!]).filter((v) => v !== undefined)];
}

describe('GitHub workflows', () => {
  it('pin every action to a full commit SHA, with its version in a comment', () => {
    const list = files();
    assert.ok(list.includes('release.yml'), `workflows: ${list.join(', ')}`);
    let pinned = 0;
    for (const file of list) {
      const uses = Object.values(workflow(file).jobs).flatMap((job) => [job.uses, ...(job.steps ?? []).map((s) => s.uses)]);
      for (const ref of uses) {
        if (ref === undefined || ref.startsWith('./') || ref.startsWith('docker://')) continue;
        assert.match(ref, /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${file}: ${ref} is not pinned to a commit`);
        pinned += 1;
      }
      // The YAML parser drops comments, so the "# vX.Y.Z" beside each pin is checked on the text.
      for (const line of text(file).split('\n')) {
        if (/^\s*(-\s+)?uses:\s*[\w.-]+\/[^\s]+@/.test(line)) {
          assert.match(line, /@[0-9a-f]{40} # v\d+(\.\d+){0,2}\s*$/, `${file}: "${line.trim()}" has no version comment`);
        }
      }
    }
    assert.ok(pinned >= 10, `only ${pinned} pinned actions found`);
  });

  describe('release.yml', () => {
    const jobs = () => Object.values(workflow('release.yml').jobs);
    const stepsUsing = (action: string) =>
      jobs().flatMap((job) => (job.steps ?? []).filter((s) => s.uses?.startsWith(`${action}@`)).map((step) => ({ job, step })));

    it('builds and pushes an image from each Dockerfile, and each Dockerfile exists', () => {
      const builds = stepsUsing('docker/build-push-action');
      assert.ok(builds.length > 0, 'no docker/build-push-action step');
      const dockerfiles = builds.flatMap(({ job, step }) => valuesOf(job, step.with?.file)).map(String).sort();
      assert.deepEqual(dockerfiles, ['Dockerfile', 'Dockerfile.sync']);
      for (const file of dockerfiles) assert.ok(existsSync(join(REPO_ROOT, file)), `${file} does not exist`);
      for (const { step } of builds) {
        assert.equal(step.with?.push, true);
        assert.equal(step.with?.sbom, true);
        assert.match(String(step.with?.provenance), /^(true|mode=(min|max))$/);
      }
    });

    it("attaches the CLIs' package, named after the repository's owner, to every release; publishes it to npm with provenance only when asked", () => {
      interface RunStep { readonly name?: string; readonly run?: string; readonly if?: string; readonly env?: Record<string, string> }
      interface ReleaseJob { readonly permissions?: Record<string, string>; readonly if?: string; readonly needs?: string; readonly steps?: readonly RunStep[] }
      const release = parse(text('release.yml')) as { jobs: Record<string, ReleaseJob> };
      const packing = Object.values(release.jobs).filter((job) => (job.steps ?? []).some((s) => /scripts\/release-cli\.js/.test(String(s.run))));
      assert.equal(packing.length, 1);
      const job = packing[0]!;
      const steps = job.steps!;
      const pack = steps.findIndex((s) => /scripts\/release-cli\.js/.test(String(s.run)) && !/--publish/.test(String(s.run)));
      const upload = steps.findIndex((s) => /gh release upload "\$TAG" "\$TARBALL" --clobber/.test(String(s.run)));
      const publish = steps.findIndex((s) => /--publish\b/.test(String(s.run)));
      assert.ok(pack >= 0 && upload > pack && publish > upload, 'pack, then attach, then publish');
      for (const step of [steps[pack]!, steps[publish]!]) {
        // The scope is the repository owner's; the tag is checked against the package's version.
        assert.match(String(step.run), /--owner "\$GITHUB_REPOSITORY_OWNER" --tag "\$TAG"/);
        assert.match(String(step.run), /--repository-url "\$\{GITHUB_SERVER_URL\}\/\$\{GITHUB_REPOSITORY\}"/);
        assert.doesNotMatch(String(step.run), /--dry-run/);
      }
      assert.equal(steps[upload]!.env?.TARBALL, '${{ steps.pack.outputs.tarball }}');
      assert.equal(steps[publish]!.if, "vars.PUBLISH_CLI_TO_NPM == 'true'");
      assert.equal(job.permissions?.['id-token'], 'write');
      assert.equal(job.permissions?.contents, 'write');
      assert.equal(job.needs, 'release-please');
      assert.match(String(job.if), /release_created == 'true'/);
      // No other job publishes to npm.
      assert.deepEqual(Object.values(release.jobs).filter((j) => j !== job && (j.steps ?? []).some((s) => /npm publish|release-cli/.test(String(s.run)))), []);
    });

    it('names the images gatehouse and gatehouse-sync on ghcr.io', () => {
      const images = stepsUsing('docker/metadata-action').flatMap(({ job, step }) => {
        const template = String(step.with?.images);
        const name = /\$\{\{\s*matrix\.(\w+)\s*\}\}/.exec(template);
        return name ? valuesOf(job, `\${{ matrix.${name[1]} }}`).map((v) => template.replace(name[0], String(v))) : [template];
      });
      assert.deepEqual(images.sort(), ['ghcr.io/${{ github.repository_owner }}/gatehouse', 'ghcr.io/${{ github.repository_owner }}/gatehouse-sync']);
    });

    it('runs release-please from the config files at the root, whose version is package.json’s', () => {
      const [release] = stepsUsing('googleapis/release-please-action');
      assert.ok(release, 'no release-please step');
      const configFile = String(release.step.with?.['config-file']);
      const manifestFile = String(release.step.with?.['manifest-file']);
      const config = JSON.parse(readFileSync(join(REPO_ROOT, configFile), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, manifestFile), 'utf8')) as Record<string, string>;
      const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
      assert.equal(config.packages['.']?.['release-type'], 'node');
      // Tags stay vX.Y.Z, the only form the major-tag step accepts.
      assert.equal(config.packages['.']?.['include-component-in-tag'], false);
      assert.deepEqual(manifest, { '.': pkg.version });
      for (const extra of (config.packages['.']?.['extra-files'] ?? []) as (string | { type: string; path: string; jsonpath: string })[]) {
        if (typeof extra === 'string') {
          const marked = readFileSync(join(REPO_ROOT, extra), 'utf8');
          assert.match(marked, /x-release-please-(start-)?version/, `${extra} has no version marker`);
          // What release-please will bump is today's version (the first version on each marked line).
          const lines = marked.split('\n');
          let inBlock = false;
          for (const line of lines) {
            if (/x-release-please-start-version/.test(line)) inBlock = true;
            else if (/x-release-please-end/.test(line)) inBlock = false;
            else if ((inBlock || /x-release-please-version/.test(line)) && /\d+\.\d+\.\d+/.test(line)) {
              assert.equal(/\d+\.\d+\.\d+/.exec(line)![0], pkg.version, `${extra}: ${line}`);
            }
          }
        } else {
          // A JSON file has no comment to mark: release-please sets the field the jsonpath names.
          assert.equal(extra.type, 'json');
          assert.equal(extra.jsonpath, '$.version');
          assert.equal((JSON.parse(readFileSync(join(REPO_ROOT, extra.path), 'utf8')) as { version: string }).version, pkg.version, extra.path);
        }
      }
    });
  });
});
