import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../../server/broker/policy/evaluate.js';
import { parsePolicy } from '../../../server/broker/policy/parse.js';
import { REPO_ROOT } from '../../support/processes.js';

/** The YAML blocks of docs/broker.md's trust-policy section, in order: the reference, then the worked examples. */
function readmePolicies(): string[] {
  const page = readFileSync(join(REPO_ROOT, 'docs', 'broker.md'), 'utf8');
  const section = page.slice(page.indexOf('## Trust policies (`BROKER_POLICY`)'), page.indexOf('## The GitHub App to register'));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** Claims of a run, as GitHub would put them in its token. */
const run = (repository: string, claims: Record<string, string>) => ({ repository, ...claims });
const outcome = (policy: string, repository: string, claims: Record<string, string>) => {
  const d = decide(parsePolicy(policy), repository, run(repository, claims));
  return d.allowed ? { rule: d.rule.index, permissions: d.rule.permissions ?? 'TOKEN_PERMISSIONS', sign: d.rule.sign } : { reason: d.reason };
};

describe('docs/broker.md trust-policy examples do what the text says', () => {
  const [reference, deployFromMain, pullRequestsReadOnly, releaseTags] = readmePolicies();

  it('there are the reference and three worked examples', () => {
    assert.equal(readmePolicies().length, 4);
  });

  it('the reference', () => {
    assert.deepEqual(outcome(reference!, 'Acme/Widgets', { ref: 'refs/heads/main', event_name: 'push' }), { rule: 0, permissions: { contents: 'write', pull_requests: 'write' }, sign: true });
    assert.deepEqual(outcome(reference!, 'acme/gadgets', { ref: 'refs/tags/v1.2.3' }), { rule: 0, permissions: { contents: 'write' }, sign: false });
    assert.deepEqual(outcome(reference!, 'other/thing', {}), { rule: 0, permissions: { contents: 'read' }, sign: false });
  });

  it('deploy only from main', () => {
    const deploy = { ref: 'refs/heads/main', event_name: 'push', job_workflow_ref: 'acme/api/.github/workflows/deploy.yml@refs/heads/main' };
    assert.deepEqual(outcome(deployFromMain!, 'acme/api', deploy), { rule: 0, permissions: { contents: 'write', deployments: 'write' }, sign: false });
    assert.deepEqual(outcome(deployFromMain!, 'acme/api', { ...deploy, ref: 'refs/heads/feature' }), { reason: 'claim_mismatch:ref' });
    assert.deepEqual(outcome(deployFromMain!, 'acme/api', { ...deploy, job_workflow_ref: 'acme/api/.github/workflows/other.yml@refs/heads/main' }), { reason: 'claim_mismatch:job_workflow_ref' });
    assert.deepEqual(outcome(deployFromMain!, 'acme/api', { ...deploy, ref: 'refs/pull/1/merge', event_name: 'pull_request' }), { reason: 'claim_mismatch:ref' });
  });

  it('pull requests read-only', () => {
    for (const event of ['pull_request', 'pull_request_target']) {
      assert.deepEqual(outcome(pullRequestsReadOnly!, 'acme/web', { event_name: event }), { rule: 0, permissions: { contents: 'read', pull_requests: 'write' }, sign: false });
    }
    assert.deepEqual(outcome(pullRequestsReadOnly!, 'acme/web', { event_name: 'push' }), { rule: 1, permissions: 'TOKEN_PERMISSIONS', sign: false });
    assert.deepEqual(outcome(pullRequestsReadOnly!, 'acme/web', { event_name: 'issue_comment' }), { reason: 'claim_mismatch:event_name' });
  });

  it('release tags', () => {
    assert.deepEqual(outcome(releaseTags!, 'acme/lib', { ref_type: 'tag', ref: 'refs/tags/v1.4.0' }), { rule: 0, permissions: { contents: 'write' }, sign: true });
    assert.deepEqual(outcome(releaseTags!, 'acme/lib', { ref_type: 'tag', ref: 'refs/tags/v1/rc' }), { reason: 'claim_mismatch:ref_type' });
    assert.equal(outcome(releaseTags!.replace('refs/tags/v*', 'refs/tags/v**'), 'acme/lib', { ref_type: 'tag', ref: 'refs/tags/v1/rc' }).rule, 0);
    // A branch run gets a read token, and its rule does not let it sign.
    assert.deepEqual(outcome(releaseTags!, 'acme/lib', { ref_type: 'branch', ref: 'refs/heads/main' }), { rule: 1, permissions: { contents: 'read' }, sign: false });
  });
});
