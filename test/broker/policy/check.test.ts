import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_DENIED, EXIT_INVALID, EXIT_OK, policyCommand, USAGE } from '../../../server/broker/policy/check.js';
import { REPO_ROOT, runToEnd } from '../../support/processes.js';

const POLICY = `repositories:
  acme/widgets:
    - if: { ref: refs/heads/main, event_name: [push, workflow_dispatch] }
      permissions: { contents: write, pull_requests: write }
      sign: true
    - if: { event_name: pull_request }
      permissions: { contents: read, pull_requests: write }
  "*":
    - if: { ref: "refs/tags/v*" }
`;

describe('gatehouse-policy check', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-policy-'));
    writeFileSync(join(dir, 'policy.yml'), POLICY);
    writeFileSync(join(dir, 'bad.yml'), 'repositories:\n  acme/widgets:\n    - if: { ref: main }\n      permission: { contents: read }\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await policyCommand(argv, env, dir, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err };
  };
  const claims = (name: string, value: unknown) => {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
    return name;
  };

  it('a valid policy: exit 0 and a one-line summary', async () => {
    assert.deepEqual(await run(['check', 'policy.yml']), { code: EXIT_OK, out: ['policy.yml: valid (2 entries, 3 rules)'], err: [] });
  });

  it('an invalid one: exit 1, file:line:column and what is wrong', async () => {
    assert.deepEqual(await run(['check', 'bad.yml']), {
      code: EXIT_INVALID,
      out: [],
      err: ['bad.yml:4:7: unknown key "permission" in a rule (expected name, if, permissions, sign)'],
    });
  });

  it('with claims: which rule applies, the rules before it that did not hold, the permissions and sign', async () => {
    const file = claims('pr.json', { repository: 'Acme/Widgets', ref: 'refs/pull/1/merge', event_name: 'pull_request' });
    assert.deepEqual((await run(['check', 'policy.yml', '--claims', file])).out, [
      'policy.yml: valid (2 entries, 3 rules)',
      '  rule 0 (line 3) does not hold: ref',
      'Acme/Widgets: entry "acme/widgets", rule 1 (line 6) applies',
      "permissions: contents: read, pull_requests: write (the rule's own; a request's permissions and the installation's grant can only narrow them)",
      'sign: no',
    ]);
    const main = claims('main.json', { repository: 'acme/widgets', ref: 'refs/heads/main', event_name: 'push' });
    assert.deepEqual((await run(['check', 'policy.yml', '--claims', main])).out.slice(1), [
      'acme/widgets: entry "acme/widgets", rule 0 (line 3) applies',
      "permissions: contents: write, pull_requests: write (the rule's own; a request's permissions and the installation's grant can only narrow them)",
      'sign: yes, /sign accepts this token',
    ]);
  });

  it('a rule without permissions: TOKEN_PERMISSIONS, or its default', async () => {
    const tag = claims('tag.json', { repository: 'other/thing', ref: 'refs/tags/v1' });
    assert.match((await run(['check', 'policy.yml', '--claims', tag])).out[2]!, /^permissions: contents: write, pull_requests: write \(TOKEN_PERMISSIONS default;/);
    assert.match((await run(['check', 'policy.yml', '--claims', tag], { TOKEN_PERMISSIONS: 'issues=read' })).out[2]!, /^permissions: issues: read \(TOKEN_PERMISSIONS;/);
    const broken = await run(['check', 'policy.yml', '--claims', tag], { TOKEN_PERMISSIONS: 'issues=admin' });
    assert.equal(broken.code, EXIT_INVALID);
    assert.match(broken.err[0]!, /TOKEN_PERMISSIONS has a value other than read or write/);
  });

  it('a refused token: exit 2 with the reason the broker would give', async () => {
    const feature = claims('feature.json', { repository: 'acme/widgets', ref: 'refs/heads/feature', event_name: 'push' });
    const res = await run(['check', 'policy.yml', '--claims', feature]);
    assert.equal(res.code, EXIT_DENIED);
    assert.deepEqual(res.out.slice(1), [
      '  rule 0 (line 3) does not hold: ref',
      '  rule 1 (line 6) does not hold: event_name',
      'acme/widgets: refused, 403 policy_denied (claim_mismatch:event_name) under entry "acme/widgets"',
    ]);
    const strict = claims('strict.yml', 'repositories:\n  acme/*: []\n');
    const none = await run(['check', strict, '--claims', claims('x.json', { repository: 'other/x' })]);
    assert.equal(none.code, EXIT_DENIED);
    assert.equal(none.out.at(-1), 'other/x: refused, 403 policy_denied (repository_not_in_policy): no entry covers it');
  });

  it('bad claims or arguments: exit 1 with the usage or what is wrong', async () => {
    assert.deepEqual((await run(['check', 'policy.yml', '--claims', claims('a.json', '[1]')])).err, ['a.json: must be a JSON object of claims']);
    assert.deepEqual((await run(['check', 'policy.yml', '--claims', claims('b.json', { ref: 'x' })])).err, ['b.json: must have a "repository" claim (owner/name)']);
    assert.deepEqual((await run(['check', 'policy.yml', '--claims', claims('c.json', '{')])).err, ['c.json: not valid JSON']);
    assert.deepEqual(await run(['lint', 'policy.yml']), { code: EXIT_INVALID, out: [], err: [USAGE] });
    assert.equal((await run(['check'])).code, EXIT_INVALID);
    assert.equal((await run(['check', 'policy.yml', '--nope'])).code, EXIT_INVALID);
    const missing = await run(['check', 'missing.yml']);
    assert.equal(missing.code, EXIT_INVALID);
    assert.match(missing.err[0]!, /cannot read .*missing\.yml: ENOENT/);
    assert.deepEqual(await run(['--help']), { code: EXIT_OK, out: [USAGE], err: [] });
  });

  it('npm run policy:check runs it as a process (the entry only wires argv, env and the exit code)', async () => {
    const file = claims('feature2.json', { repository: 'acme/widgets', ref: 'refs/heads/feature', event_name: 'push' });
    const res = await runToEnd('npm', ['run', '--silent', 'policy:check', '--', join(dir, 'policy.yml'), '--claims', join(dir, file)], { cwd: REPO_ROOT });
    assert.equal(res.code, EXIT_DENIED, res.stderr);
    assert.match(res.stdout, /refused, 403 policy_denied \(claim_mismatch:event_name\)/);
    const bad = await runToEnd('npm', ['run', '--silent', 'policy:check', '--', join(dir, 'bad.yml')], { cwd: REPO_ROOT });
    assert.equal(bad.code, EXIT_INVALID);
    assert.match(bad.stderr, /bad\.yml:4:7: unknown key "permission"/);
  });
});
