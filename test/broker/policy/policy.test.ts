import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decide, entryFor } from '../../../server/broker/policy/evaluate.js';
import { parsePolicy, PolicyError } from '../../../server/broker/policy/parse.js';
import { ruleLabel } from '../../../server/broker/policy/authorize.js';

/** The example policy. */
const EXAMPLE = `repositories:
  acme/widgets:                       # owner/name, compared case-insensitively
    - if: { ref: refs/heads/main, event_name: [push, workflow_dispatch] }
      permissions: { contents: write, pull_requests: write }
    - if: { event_name: pull_request }
      permissions: { contents: read, pull_requests: write }
  acme/*:                             # every repository of the owner without its own entry
    - if: { ref: "refs/tags/v*" }
      permissions: { contents: write }
  "*":                                # every other repository (absent: they are refused)
    - permissions: { contents: read }
`;

const claims = (over: Record<string, unknown> = {}) => ({ repository: 'acme/widgets', ref: 'refs/heads/main', event_name: 'push', ...over });

function refusal(text: string): PolicyError {
  try {
    parsePolicy(text);
  } catch (err) {
    assert.ok(err instanceof PolicyError, String(err));
    return err;
  }
  assert.fail('the policy was accepted');
}

describe('trust policy: parsing', () => {
  it('parses the example, indexing entries by lower-cased key, rules in order', () => {
    const policy = parsePolicy(EXAMPLE);
    assert.deepEqual([...policy.entries.keys()], ['acme/widgets', 'acme/*', '*']);
    const widgets = policy.entries.get('acme/widgets')!;
    assert.deepEqual(
      widgets.rules.map((r) => [r.index, r.line, r.conditions.map((c) => c.claim), r.permissions, r.sign]),
      [
        [0, 3, ['ref', 'event_name'], { contents: 'write', pull_requests: 'write' }, false],
        [1, 5, ['event_name'], { contents: 'read', pull_requests: 'write' }, false],
      ],
    );
    assert.equal(policy.entries.get('*')!.rules[0]!.conditions.length, 0);
  });

  it('takes the same policy as JSON', () => {
    const json = JSON.stringify({
      repositories: {
        'Acme/Widgets': [{ if: { ref: 'refs/heads/main' }, permissions: { contents: 'write' }, sign: true }],
        '*': [],
      },
    });
    const policy = parsePolicy(json);
    assert.equal(policy.entries.get('acme/widgets')!.key, 'Acme/Widgets');
    assert.equal(policy.entries.get('acme/widgets')!.rules[0]!.sign, true);
    assert.deepEqual(policy.entries.get('*')!.rules, []);
  });

  it('a rule may have a name, which audit records give after its entry and position', () => {
    const policy = parsePolicy('repositories:\n  acme/*:\n    - name: release-main.v2\n      if: { ref: refs/heads/main }\n    - if: { ref: x }\n');
    const [first, second] = policy.entries.get('acme/*')!.rules;
    assert.deepEqual([first!.name, Object.hasOwn(second!, 'name')], ['release-main.v2', false]);
    assert.equal(ruleLabel(policy, 'acme/*', 0), 'acme/* rules[0] release-main.v2');
    assert.equal(ruleLabel(policy, 'acme/*', 1), 'acme/* rules[1]');
    assert.equal(ruleLabel(policy, undefined, undefined), null);
  });

  it('a rule without permissions has none of its own (TOKEN_PERMISSIONS applies)', () => {
    const rule = parsePolicy('repositories: { "a/b": [ { if: { ref: x } } ] }').entries.get('a/b')!.rules[0]!;
    assert.equal(Object.hasOwn(rule, 'permissions'), false);
  });

  const refusals: [string, string, number, number, RegExp][] = [
    ['text that is not YAML', 'repositories:\n  a/b: [\n', 3, 1, /not valid YAML or JSON/],
    ['JSON that does not parse', '{"repositories": {"a/b": [}', 1, 27, /not valid YAML or JSON/],
    ['a repeated key', 'repositories:\n  a/b: []\n  a/b: []\n', 3, 3, /not valid YAML or JSON \(duplicate key\)/],
    ['a document that is not a mapping', '- a\n', 1, 1, /must be a mapping/],
    ['an empty policy document', '# nothing\n', 1, 1, /must be a mapping/],
    ['no repositories', 'repositories:\n', 1, 14, /repositories must be a mapping/],
    ['an unknown top-level key', 'repositories: {}\nrepos: {}\n', 2, 1, /unknown key "repos" in the policy \(expected repositories\)/],
    ['a repository key with a partial wildcard', 'repositories:\n  acme/w*: []\n', 2, 3, /"acme\/w\*" is not owner\/name, owner\/\* or \*/],
    ['a repository key that is not owner/name', 'repositories:\n  acme: []\n', 2, 3, /"acme" is not owner\/name/],
    ['an owner wildcard', 'repositories:\n  "*/widgets": []\n', 2, 3, /is not owner\/name/],
    ['the same repository in two cases', 'repositories:\n  acme/w: []\n  ACME/W: []\n', 3, 3, /"ACME\/W" repeats "acme\/w"/],
    ['an entry that is not a list', 'repositories:\n  acme/w: { if: {} }\n', 2, 11, /"acme\/w" must be a list of rules/],
    ['a rule that is not a mapping', 'repositories:\n  acme/w:\n    - push\n', 3, 7, /rule 0 of "acme\/w" must be a mapping/],
    ['an unknown rule key', 'repositories:\n  acme/w:\n    - when: { ref: x }\n', 3, 7, /unknown key "when" in a rule \(expected name, if, permissions, sign\)/],
    ['an if that is a list', 'repositories:\n  acme/w:\n    - if: [ref]\n', 3, 11, /if must be a mapping/],
    ['a claim name with a dot', 'repositories:\n  acme/w:\n    - if: { a.b: x }\n', 3, 13, /"a.b" is not a claim name/],
    ['a number as a condition value', 'repositories:\n  acme/w:\n    - if: { run_attempt: 1 }\n', 3, 26, /must give a string or a list of strings/],
    ['a boolean in a value list', 'repositories:\n  acme/w:\n    - if: { x: [a, true] }\n', 3, 20, /must give a string/],
    ['an empty value list', 'repositories:\n  acme/w:\n    - if: { ref: [] }\n', 3, 18, /lists no value/],
    ['an alias', 'repositories:\n  acme/w:\n    - if: { ref: &r main }\n    - if: { ref: *r }\n', 4, 18, /anchors and aliases are not supported/],
    ['a permission value other than read or write', 'repositories:\n  acme/w:\n    - permissions: { contents: admin }\n', 3, 32, /permission "contents" must be read or write/],
    ['an unknown permission name', 'repositories:\n  acme/w:\n    - permissions: { content: write }\n', 3, 22, /names content, which is not a GitHub App permission/],
    ['an organization permission', 'repositories:\n  acme/w:\n    - permissions: { organization_secrets: read }\n', 3, 22, /organization, account or enterprise permission/],
    ['a value GitHub refuses for that permission', 'repositories:\n  acme/w:\n    - permissions: { workflows: read }\n', 3, 22, /sets workflows to read, which GitHub does not accept/],
    ['permissions that are a list', 'repositories:\n  acme/w:\n    - permissions: [contents]\n', 3, 20, /permissions must be a mapping/],
    ['sign that is not a boolean', 'repositories:\n  acme/w:\n    - sign: yes\n', 3, 13, /sign must be true or false/],
    ['a rule name with a space', 'repositories:\n  acme/w:\n    - name: deploy main\n', 3, 13, /name must be a word/],
    ['a rule name that is not a string', 'repositories:\n  acme/w:\n    - name: [a]\n', 3, 13, /name must be a word/],
  ];
  for (const [what, text, line, column, message] of refusals) {
    it(`refuses ${what}, naming line ${line} and column ${column}`, () => {
      const err = refusal(text);
      assert.deepEqual([err.line, err.column], [line, column], err.message);
      assert.match(err.detail, message);
      assert.equal(err.setting, 'BROKER_POLICY');
      assert.equal(err.message, `BROKER_POLICY is invalid at line ${line}, column ${column}: ${err.detail}`);
    });
  }

  it('any text, or any JSON document, is a policy or a PolicyError with a position inside the text (property)', () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 5 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ repositories: { 'a/b': [{ if: v }] } })),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ repositories: { 'a/b': [{ permissions: v, sign: v }] } })),
    );
    fc.assert(
      fc.property(texts, (text) => {
        try {
          parsePolicy(text);
        } catch (err) {
          assert.ok(err instanceof PolicyError, String(err));
          const lines = text.split(/\r\n|\r|\n/).length;
          assert.ok(err.line >= 1 && err.line <= lines + 1 && err.column >= 1, `${err.line}:${err.column} of ${lines} lines`);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never quotes more than a bounded key back', () => {
    const err = refusal(`repositories:\n  ${'x'.repeat(500)}: []\n`);
    assert.ok(err.message.length < 250, err.message);
  });
});

describe('trust policy: which rule applies', () => {
  const policy = parsePolicy(EXAMPLE);

  it('the repository own entry, compared case-insensitively', () => {
    assert.equal(entryFor(policy, 'ACME/Widgets')?.key, 'acme/widgets');
    const d = decide(policy, 'Acme/WIDGETS', claims());
    assert.ok(d.allowed);
    assert.deepEqual([d.entry, d.rule.index], ['acme/widgets', 0]);
  });

  it('else the owner entry (case-insensitive owner), never for another owner', () => {
    assert.equal(entryFor(policy, 'ACME/gadgets')?.key, 'acme/*');
    assert.equal(entryFor(policy, 'acmecorp/gadgets')?.key, '*');
  });

  it('else the * entry; without it, repository_not_in_policy', () => {
    assert.equal(entryFor(policy, 'other/thing')?.key, '*');
    const strict = parsePolicy('repositories:\n  acme/*:\n    - permissions: { contents: read }\n');
    assert.deepEqual(decide(strict, 'other/thing', claims({ repository: 'other/thing' })), { allowed: false, reason: 'repository_not_in_policy', tried: [] });
  });

  it('an own entry whose rules all fail does not fall back to owner/* or *', () => {
    const d = decide(policy, 'acme/widgets', claims({ ref: 'refs/tags/v1', event_name: 'release' }));
    assert.equal(d.allowed, false);
    assert.equal(d.entry, 'acme/widgets');
  });

  it('rules are tried in order and the first that holds applies', () => {
    const ordered = parsePolicy('repositories:\n  a/b:\n    - if: { ref: "refs/heads/*" }\n      permissions: { contents: read }\n    - if: { ref: refs/heads/main }\n      permissions: { contents: write }\n');
    const d = decide(ordered, 'a/b', { ref: 'refs/heads/main' });
    assert.ok(d.allowed);
    assert.deepEqual([d.rule.index, d.rule.permissions], [0, { contents: 'read' }]);
  });

  it('every condition of a rule must hold', () => {
    assert.equal(decide(policy, 'acme/widgets', claims({ event_name: 'schedule' })).allowed, false);
    const second = decide(policy, 'acme/widgets', claims({ ref: 'refs/pull/1/merge', event_name: 'pull_request' }));
    assert.ok(second.allowed);
    assert.deepEqual([second.rule.index, second.tried], [1, [{ rule: 0, claim: 'ref' }]]);
  });

  it('a list of values holds when any value matches', () => {
    assert.ok(decide(policy, 'acme/widgets', claims({ event_name: 'workflow_dispatch' })).allowed);
  });

  it('values are case-sensitive patterns: * stops at /, ** does not', () => {
    assert.ok(decide(policy, 'acme/gadgets', { ref: 'refs/tags/v2.0.0' }).allowed);
    assert.equal(decide(policy, 'acme/gadgets', { ref: 'refs/tags/v2/x' }).allowed, false);
    assert.equal(decide(policy, 'acme/gadgets', { ref: 'refs/tags/V2' }).allowed, false);
    const deep = parsePolicy('repositories:\n  a/b:\n    - if: { job_workflow_ref: "a/b/.github/workflows/**" }\n');
    assert.ok(decide(deep, 'a/b', { job_workflow_ref: 'a/b/.github/workflows/deploy.yml@refs/heads/main' }).allowed);
  });

  it('a claim the token lacks never matches, even **; nor does a claim that is not a string', () => {
    const any = parsePolicy('repositories:\n  a/b:\n    - if: { environment: "**" }\n');
    assert.deepEqual(decide(any, 'a/b', {}), { allowed: false, reason: 'claim_mismatch:environment', entry: 'a/b', tried: [{ rule: 0, claim: 'environment' }] });
    assert.equal(decide(any, 'a/b', { environment: ['prod'] }).allowed, false);
    assert.equal(decide(any, 'a/b', { environment: 7 }).allowed, false);
    // An inherited property is not a claim either.
    const proto = parsePolicy('repositories:\n  a/b:\n    - if: { constructor: "**" }\n');
    assert.equal(decide(proto, 'a/b', {}).allowed, false);
    assert.ok(decide(any, 'a/b', { environment: '' }).allowed);
  });

  it('a rule without if holds for every token of its entry', () => {
    const d = decide(policy, 'someone/else', {});
    assert.ok(d.allowed);
    assert.deepEqual(d.rule.permissions, { contents: 'read' });
  });

  it('reason claim_mismatch names the first failing condition of the last rule tried', () => {
    // Rule 0 fails on event_name (ref holds), rule 1 on event_name.
    const d = decide(policy, 'acme/widgets', claims({ event_name: 'schedule' }));
    assert.deepEqual(d, {
      allowed: false,
      reason: 'claim_mismatch:event_name',
      entry: 'acme/widgets',
      tried: [
        { rule: 0, claim: 'event_name' },
        { rule: 1, claim: 'event_name' },
      ],
    });
    const two = parsePolicy('repositories:\n  a/b:\n    - if: { ref: x }\n    - if: { actor: y, ref: z }\n');
    assert.equal((decide(two, 'a/b', { ref: 'q', actor: 'q' }) as { reason: string }).reason, 'claim_mismatch:actor');
    assert.equal((decide(two, 'a/b', { ref: 'q', actor: 'y' }) as { reason: string }).reason, 'claim_mismatch:ref');
  });

  it('reason no_matching_rule for an entry with no rules', () => {
    const empty = parsePolicy('repositories:\n  a/b: []\n  "*":\n    - {}\n');
    assert.deepEqual(decide(empty, 'a/b', claims()), { allowed: false, reason: 'no_matching_rule', entry: 'a/b', tried: [] });
  });

  it('a 1,000-repository policy is a map lookup (every entry reachable, each by its own key)', () => {
    const lines = ['repositories:'];
    for (let i = 0; i < 1000; i++) lines.push(`  org${i}/repo${i}:`, `    - if: { ref: refs/heads/main }`, `      permissions: { contents: ${i % 2 ? 'read' : 'write'} }`);
    const big = parsePolicy(lines.join('\n'));
    assert.equal(big.entries.size, 1000);
    for (const i of [0, 499, 999]) {
      const d = decide(big, `ORG${i}/Repo${i}`, { ref: 'refs/heads/main' });
      assert.ok(d.allowed);
      assert.deepEqual(d.rule.permissions, { contents: i % 2 ? 'read' : 'write' });
    }
  });
});
