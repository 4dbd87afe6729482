import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { booleanInput, InputError } from '../../actions/shared/inputs.js';
import { loadSyncConfig, SyncConfigError } from '../../server/sync/config.js';
import { REPO_ROOT } from '../support/processes.js';
import { RecordingCore } from '../support/runner.js';

const ACTIONS = join(REPO_ROOT, 'actions');
const actionNames = readdirSync(ACTIONS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'shared')
  .map((d) => d.name);

/** Every TypeScript source of one action, as text. */
const sourcesOf = (name: string): string =>
  readdirSync(join(ACTIONS, name))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(ACTIONS, name, f), 'utf8'))
    .join('\n');

interface InputSpec {
  readonly description?: string;
  readonly default?: unknown;
}
const inputsOf = (name: string): Record<string, InputSpec> =>
  (parse(readFileSync(join(ACTIONS, name, 'action.yml'), 'utf8')) as { inputs?: Record<string, InputSpec> }).inputs ?? {};

/** An input is a switch when its default is a boolean word or its description says it takes one. */
const isSwitch = (spec: InputSpec): boolean =>
  /^(true|false)$/i.test(String(spec.default ?? '')) || /^(true or false|when true)\b/i.test(spec.description ?? '');

describe('boolean inputs: one reading in every action', () => {
  const read = (value: string, fallback?: boolean) => {
    const core = new RecordingCore({ flag: value });
    return fallback === undefined ? booleanInput(core, 'flag') : booleanInput(core, 'flag', fallback);
  };

  it('accepts exactly the YAML 1.2 core-schema words (as core.getBooleanInput), blanks around them ignored', () => {
    for (const word of ['true', 'True', 'TRUE', ' true ']) assert.equal(read(word), true, word);
    for (const word of ['false', 'False', 'FALSE', 'false\n']) assert.equal(read(word), false, word);
  });

  it('refuses every other word with an input error naming the input, without repeating the value', () => {
    for (const word of ['tRUE', 'fALSE', 'yes', 'no', 'on', 'off', '1', '0', 'y', 'truee', '"true"']) {
      assert.throws(
        () => read(word, true),
        (err: unknown) => err instanceof InputError && err.message === 'input "flag" must be true or false (true, True, TRUE, false, False or FALSE)',
        word,
      );
    }
  });

  it('empty gives the default, or undefined when there is none', () => {
    assert.equal(read('', true), true);
    assert.equal(read('  ', false), false);
    assert.equal(read(''), undefined);
  });

  it('every switch in an action.yml is read through booleanInput, and nothing reads an input around the helpers', () => {
    const switches = actionNames.flatMap((name) =>
      Object.entries(inputsOf(name))
        .filter(([, spec]) => isSwitch(spec))
        .map(([input]) => `${name}/${input}`),
    );
    // The list the issue named: a new switch shows up here and must be read the same way.
    assert.deepEqual(switches.sort(), ['gate/strict', 'record-deployment/fail-on-error', 'record-deployment/github-deployment', 'record-deployment/verified', 'request-token/fail-on-error', 'request-token/refresh', 'request-token/revoke']);
    for (const entry of switches) {
      const [name, input] = entry.split('/') as [string, string];
      assert.ok(sourcesOf(name).includes(`booleanInput(core, '${input}'`), `${entry} is not read by booleanInput`);
    }
    for (const name of actionNames) {
      const source = sourcesOf(name);
      assert.doesNotMatch(source, /core\.getInput\(/, `${name} reads an input without actions/shared/inputs.ts`);
      assert.doesNotMatch(source, /\^true\$|\^false\$/, `${name} tests a boolean by hand`);
    }
  });

  it('the sync settings from the environment (SYNC_*_ENABLED, …) take the same words', () => {
    const env = (value: string) => ({ SYNC_DEFECTDOJO_URL: 'https://dd.example.com', SYNC_GITHUB_ENABLED: value, SYNC_DEPENDENCYTRACK_EXCLUDE_INACTIVE: value });
    assert.equal(loadSyncConfig({ env: env('TRUE') }).config.sources.github.enabled, true);
    assert.equal(loadSyncConfig({ env: env('False') }).config.sources.dependencytrack.excludeInactive, false);
    for (const value of ['tRUE', 'yes', '1']) {
      assert.throws(
        () => loadSyncConfig({ env: env(value) }),
        (err: unknown) =>
          err instanceof SyncConfigError &&
          err.problems.includes('sources.github.enabled (from SYNC_GITHUB_ENABLED) must be true or false (true, True, TRUE, false, False or FALSE)'),
        value,
      );
    }
  });
});
