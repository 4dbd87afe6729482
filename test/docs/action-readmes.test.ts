import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionDirs, END, expectedReadme, renderTables, START } from '../../scripts/action-readme.js';
import { REPO_ROOT } from '../support/processes.js';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

describe('action READMEs: the inputs and outputs tables are generated from action.yml', () => {
  it('every action folder with an action.yml is covered', () => {
    assert.deepEqual(actionDirs(REPO_ROOT), ['actions/gate', 'actions/record-deployment', 'actions/request-token', 'actions/sync']);
  });

  for (const dir of actionDirs(REPO_ROOT)) {
    it(`${dir}/README.md holds what node scripts/action-readme.js writes`, () => {
      assert.ok(existsSync(join(REPO_ROOT, dir, 'README.md')), `${dir} has a README.md`);
      const readme = read(`${dir}/README.md`);
      assert.equal(readme, expectedReadme(readme, read(`${dir}/action.yml`), `${dir}/README.md`), 'run node scripts/action-readme.js');
    });
  }

  it('a table that differs from action.yml is caught', () => {
    const yml = read('actions/sync/action.yml');
    const readme = read('actions/sync/README.md');
    const edited = readme.replace('| `concurrency` | no | `4` |', '| `concurrency` | no | `8` |');
    assert.notEqual(edited, readme);
    assert.notEqual(expectedReadme(edited, yml, 'x'), edited);
    // An input added to action.yml and not yet in the README.
    const added = yml.replace('  retries:\n', '  extra:\n    description: new\n    required: false\n  retries:\n');
    assert.notEqual(expectedReadme(readme, added, 'x'), readme);
    assert.throws(() => expectedReadme('no markers', yml, 'x.md'), /x\.md lacks the/);
  });

  it('a required input without a default is "yes", one with a default is "no"; a | in a description is escaped', () => {
    const table = renderTables('inputs:\n  a:\n    description: x | y\n    required: true\n  b:\n    description: z\n    required: true\n    default: v\noutputs: {}\n');
    assert.ok(table.startsWith(START) && table.endsWith(END));
    assert.match(table, /^\| `a` \| yes \|  \| x \\\| y \|$/m);
    assert.match(table, /^\| `b` \| no \| `v` \| z \|$/m);
  });
});
