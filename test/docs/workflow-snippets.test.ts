import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/processes.js';
import { docFiles, readDoc, splitFences } from './markdown.js';

/**
 * The one way the docs name a Gatehouse action: `your-org` stands for the owner of the user's copy
 * of Gatehouse (README, "One minimal workflow per action"), `v1` for the major tag releases move.
 */
const OWNER = 'your-org';
const REF = 'v1';
const GATEHOUSE_USES = /^([^/\s]+)\/gatehouse(?:\/actions\/([^@\s]+))?@(\S+)$/;

interface Step {
  uses: string;
  with?: Record<string, unknown>;
}

/** Steps (objects with a string `uses`) anywhere in a parsed snippet. */
function steps(node: unknown): Step[] {
  if (Array.isArray(node)) return node.flatMap(steps);
  if (typeof node !== 'object' || node === null) return [];
  const here = typeof (node as { uses?: unknown }).uses === 'string' ? [node as Step] : [];
  return [...here, ...Object.values(node).flatMap(steps)];
}

interface ActionSpec {
  inputs: Set<string>;
  required: string[];
}

const specs = new Map<string, ActionSpec | undefined>();
function actionSpec(name: string): ActionSpec | undefined {
  if (!specs.has(name)) {
    const file = join(REPO_ROOT, 'actions', name, 'action.yml');
    const inputs = existsSync(file) ? ((parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, { required?: boolean; default?: unknown }> }).inputs ?? {}) : undefined;
    specs.set(
      name,
      inputs && {
        inputs: new Set(Object.keys(inputs)),
        required: Object.entries(inputs)
          .filter(([, i]) => i.required === true && i.default === undefined)
          .map(([n]) => n),
      },
    );
  }
  return specs.get(name);
}

/** What is wrong with one step of a snippet; third-party refs are collected for the cross-doc check. */
function stepProblems(step: Step, thirdParty: Map<string, Set<string>>): string[] {
  const gatehouse = GATEHOUSE_USES.exec(step.uses);
  if (!gatehouse) {
    if (step.uses.startsWith('./') || /gatehouse/i.test(step.uses)) return [`${step.uses}: write Gatehouse actions as ${OWNER}/gatehouse/actions/<name>@${REF}`];
    const thirdParty_ = /^([^/\s]+\/[^/@\s]+)(?:\/[^@\s]+)?@(v\d+)$/.exec(step.uses);
    if (!thirdParty_) return [`${step.uses}: write other actions as owner/name[/path]@v<major>`];
    const [, repo, major] = thirdParty_;
    thirdParty.set(repo!, (thirdParty.get(repo!) ?? new Set()).add(major!));
    return [];
  }
  const [, owner, name, ref] = gatehouse;
  const problems: string[] = [];
  if (owner !== OWNER || ref !== REF || name === undefined) problems.push(`${step.uses}: write Gatehouse actions as ${OWNER}/gatehouse/actions/<name>@${REF}`);
  const spec = actionSpec(name ?? 'gate');
  if (!spec) return [...problems, `${step.uses}: actions/${name} has no action.yml`];
  const given = Object.keys(step.with ?? {});
  for (const key of given) if (!spec.inputs.has(key)) problems.push(`${step.uses}: with.${key} is not an input of actions/${name}/action.yml`);
  for (const key of spec.required) if (!given.includes(key)) problems.push(`${step.uses}: required input ${key} is not given`);
  return problems;
}

/** Every ```yaml block of the docs, its Gatehouse steps checked and its third-party refs collected. */
function check(files: { file: string; text: string }[]): { problems: string[]; thirdParty: Map<string, Set<string>>; checked: number } {
  const problems: string[] = [];
  const thirdParty = new Map<string, Set<string>>();
  let checked = 0;
  for (const { file, text } of files) {
    for (const block of splitFences(text).blocks.filter((b) => b.lang === 'yaml' || b.lang === 'yml')) {
      let doc: unknown;
      try {
        doc = parse(block.body);
      } catch (error) {
        problems.push(`${file}:${block.line}: not YAML: ${(error as Error).message.split('\n')[0]}`);
        continue;
      }
      for (const step of steps(doc)) {
        checked += 1;
        problems.push(...stepProblems(step, thirdParty).map((p) => `${file}:${block.line}: ${p}`));
      }
    }
  }
  return { problems, thirdParty, checked };
}

const docs = () => docFiles().map((file) => ({ file, text: readDoc(file) }));

describe('workflow snippets of the README, docs/ and the action READMEs', () => {
  it('each parses, and each Gatehouse step names its action one way, with inputs its action.yml declares and every required one', () => {
    const { problems, checked } = check(docs());
    assert.ok(checked >= 10, `${checked} steps checked`);
    assert.deepEqual(problems, []);
  });

  it('each third-party action is written with one major version everywhere', () => {
    const { thirdParty } = check(docs());
    assert.ok(thirdParty.has('actions/checkout'));
    const mixed = [...thirdParty].filter(([, majors]) => majors.size > 1).map(([repo, majors]) => `${repo}: ${[...majors].join(', ')}`);
    assert.deepEqual(mixed, []);
  });

  it('the owner placeholder is the same everywhere: every <owner>/gatehouse the docs name is your-org/gatehouse', () => {
    // charts/gatehouse is this repository's own folder, not an owner.
    const others = docs().flatMap(({ file, text }) =>
      [...text.matchAll(/(?<![\w.-])([\w.<>-]+)\/gatehouse(?=[/@\s`,)]|$)/gm)]
        .map((m) => m[1]!)
        .filter((o) => o !== OWNER && o !== 'ghcr.io' && o !== 'charts')
        .map((o) => `${file}: ${o}/gatehouse`),
    );
    assert.deepEqual(others, []);
  });

  it('catches what it is meant to catch', () => {
    const snippet = (body: string) => check([{ file: 'x.md', text: `\`\`\`yaml\n${body}\`\`\`\n` }]);
    const flagged = snippet(
      [
        'steps:',
        '  - uses: your-org/gatehouse/actions/sync@v1',
        '    with: { command: sync, defectdojo-tokn: x }',
        '  - uses: my-org/gatehouse/actions/gate@v1',
        '  - uses: your-org/gatehouse@v1',
        '  - uses: ./actions/gate',
        '  - uses: actions/checkout@v4',
        '  - uses: actions/checkout@v7',
        '  - uses: actions/setup-node@1234567890abcdef',
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      flagged.problems.map((p) => p.replace(/^x\.md:1: /, '')),
      [
        'your-org/gatehouse/actions/sync@v1: with.defectdojo-tokn is not an input of actions/sync/action.yml',
        'your-org/gatehouse/actions/sync@v1: required input defectdojo-token is not given',
        'my-org/gatehouse/actions/gate@v1: write Gatehouse actions as your-org/gatehouse/actions/<name>@v1',
        'your-org/gatehouse@v1: write Gatehouse actions as your-org/gatehouse/actions/<name>@v1',
        './actions/gate: write Gatehouse actions as your-org/gatehouse/actions/<name>@v1',
        'actions/setup-node@1234567890abcdef: write other actions as owner/name[/path]@v<major>',
      ],
    );
    assert.deepEqual([...flagged.thirdParty.get('actions/checkout')!], ['v4', 'v7']);
    assert.match(snippet('a: [\n').problems[0]!, /^x\.md:1: not YAML: /);
  });
});
