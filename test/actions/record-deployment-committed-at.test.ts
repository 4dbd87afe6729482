import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { committedAt, isoInstant } from '../../actions/record-deployment/committed-at.js';
import { InputError } from '../../actions/shared/inputs.js';
import { GitRepo } from '../support/git-repo.js';
import { RecordingCore } from '../support/runner.js';

describe('record-deployment: committed_at', () => {
  let repo: GitRepo;
  let sha: string;

  before(() => {
    repo = GitRepo.create();
    repo.write('a.txt', 'a\n');
    // A committer date apart from the author date: committed_at is the committer's.
    repo.git('add', '--all');
    execGit(repo, ['commit', '--quiet', '-m', 'first'], { GIT_AUTHOR_DATE: '2026-01-01T00:00:00+00:00', GIT_COMMITTER_DATE: '2026-11-20T10:30:05+02:00' });
    sha = repo.git('rev-parse', 'HEAD');
  });
  after(() => repo.cleanup());

  // The push event as @actions/github's context gives it.
  const pushEvent = (headCommit: unknown, eventName = 'push') => ({ eventName, payload: { ref: 'refs/heads/main', head_commit: headCommit } });

  it('takes the committer date of the commit from the checkout', async () => {
    const core = new RecordingCore({});
    assert.equal(await committedAt(core, { GITHUB_WORKSPACE: repo.dir }, sha), '2026-11-20T08:30:05.000Z');
  });

  it('the input overrides the checkout', async () => {
    const core = new RecordingCore({ 'committed-at': '2026-11-19T23:00:00Z' });
    assert.equal(await committedAt(core, { GITHUB_WORKSPACE: repo.dir }, sha), '2026-11-19T23:00:00.000Z');
  });

  it('falls back to the push event’s head commit timestamp when the checkout lacks the commit', async () => {
    const missing = 'a'.repeat(40);
    const event = pushEvent({ id: missing, timestamp: '2026-11-18T09:00:00-05:00' });
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_WORKSPACE: repo.dir }, missing, event), '2026-11-18T14:00:00.000Z');
  });

  it('never takes the event’s time for another commit, a non-push event or an unreadable payload', async () => {
    const other = 'b'.repeat(40);
    const head = { id: 'c'.repeat(40), timestamp: '2026-11-18T09:00:00Z' };
    assert.equal(await committedAt(new RecordingCore({}), {}, other, pushEvent(head)), undefined);
    assert.equal(await committedAt(new RecordingCore({}), {}, head.id, pushEvent(head, 'workflow_dispatch')), undefined);
    // An event file the runner did not write: @actions/github's context has an empty payload.
    assert.equal(await committedAt(new RecordingCore({}), {}, head.id, { eventName: 'push', payload: {} }), undefined);
    assert.equal(await committedAt(new RecordingCore({}), {}, head.id, pushEvent({ ...head, timestamp: 'yesterday' })), undefined);
  });

  it('looks up only object ids: a commit input that is a revision or an option reaches no git', async () => {
    for (const commit of ['HEAD', '--output=/tmp/x', 'main~1']) {
      assert.equal(await committedAt(new RecordingCore({}), { GITHUB_WORKSPACE: repo.dir }, commit), undefined, commit);
    }
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_WORKSPACE: repo.dir }, undefined), undefined);
  });

  it('a committed-at input that is not a date-time with an offset fails as an input error', async () => {
    for (const value of ['2026-11-20', '2026-11-20T10:30:00', '2026-02-30T10:30:00Z', 'yesterday', '2026-11-20T10:30Z']) {
      await assert.rejects(committedAt(new RecordingCore({ 'committed-at': value }), {}, sha), (err: unknown) => err instanceof InputError && /committed-at/.test(err.message), value);
    }
  });

  it('a git that hangs is stopped at the 10 s bound, and committed_at is left out', async function () {
    this.timeout(40_000);
    // A child process with a `git` on its PATH that never ends: the bound is the lookup's own.
    const bin = join(repo.dir, '.hanging-git');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexec sleep 60\n');
    chmodSync(join(bin, 'git'), 0o755);
    const module = fileURLToPath(new URL('../../actions/record-deployment/committed-at.ts', import.meta.url));
    const script = `const { committedAt } = await import(${JSON.stringify(module)});
const started = Date.now();
const value = await committedAt({ getInput: () => '', debug: () => {} }, { GITHUB_WORKSPACE: ${JSON.stringify(repo.dir)} }, ${JSON.stringify(sha)});
console.log(JSON.stringify({ value: value ?? null, ms: Date.now() - started }));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 35_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    const { value, ms } = JSON.parse(out.trim().split('\n').pop()!) as { value: string | null; ms: number };
    assert.equal(value, null);
    assert.ok(ms >= 9_000 && ms < 15_000, `${ms} ms`);
  });

  it('isoInstant: offsets and fractions normalised to UTC; impossible times refused', () => {
    assert.equal(isoInstant('2026-11-20T10:30:00.123456+02:00'), '2026-11-20T08:30:00.123Z');
    assert.equal(isoInstant('2024-02-29T00:00:00Z'), '2024-02-29T00:00:00.000Z');
    assert.equal(isoInstant('2025-02-29T00:00:00Z'), undefined);
    assert.equal(isoInstant('2026-11-20T24:00:00Z'), undefined);
    assert.equal(isoInstant('2026-11-20T10:60:00Z'), undefined);
  });
});

function execGit(repo: GitRepo, args: string[], env: Record<string, string>): void {
  execFileSync('git', ['-C', repo.dir, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
}
