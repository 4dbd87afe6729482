import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { committedAt, isoInstant } from '../../actions/record-deployment/committed-at.js';
import { InputError } from '../../actions/shared/inputs.js';
import { GitRepo } from '../support/git-repo.js';
import { RecordingCore } from '../support/runner.js';

describe('record-deployment: committed_at', () => {
  let repo: GitRepo;
  let sha: string;
  let scratch: string;

  before(() => {
    repo = GitRepo.create();
    repo.write('a.txt', 'a\n');
    // A committer date apart from the author date: committed_at is the committer's.
    repo.git('add', '--all');
    execGit(repo, ['commit', '--quiet', '-m', 'first'], { GIT_AUTHOR_DATE: '2026-01-01T00:00:00+00:00', GIT_COMMITTER_DATE: '2026-11-20T10:30:05+02:00' });
    sha = repo.git('rev-parse', 'HEAD');
    scratch = mkdtempSync(join(tmpdir(), 'gatehouse-event-'));
  });
  after(() => {
    repo.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  const pushEvent = (headCommit: unknown): string => {
    const path = join(scratch, `event-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(path, JSON.stringify({ ref: 'refs/heads/main', head_commit: headCommit }));
    return path;
  };

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
    const env = { GITHUB_WORKSPACE: repo.dir, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: pushEvent({ id: missing, timestamp: '2026-11-18T09:00:00-05:00' }) };
    assert.equal(await committedAt(new RecordingCore({}), env, missing), '2026-11-18T14:00:00.000Z');
  });

  it('never takes the event’s time for another commit, a non-push event or an unreadable payload', async () => {
    const other = 'b'.repeat(40);
    const head = { id: 'c'.repeat(40), timestamp: '2026-11-18T09:00:00Z' };
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: pushEvent(head) }, other), undefined);
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_EVENT_PATH: pushEvent(head) }, head.id), undefined);
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: join(scratch, 'absent.json') }, head.id), undefined);
    assert.equal(await committedAt(new RecordingCore({}), { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: pushEvent({ ...head, timestamp: 'yesterday' }) }, head.id), undefined);
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
