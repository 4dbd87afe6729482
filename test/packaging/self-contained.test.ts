import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../support/processes.js';

// `npm ci && npm test` passes on a clone with nothing beside it: no test reads outside the project,
// and every fixture the tests read says where it comes from and under which licence.

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('a clone with nothing beside it', () => {
  it('no test or support file reads a folder beside the clone (../shared) or a fixtures folder from the environment', () => {
    const offenders = files(join(REPO_ROOT, 'test'))
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /shared['"/, ]+fixtures|GATEHOUSE_FIXTURES_DIR|'\.\.', 'shared'/.test(readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '')))
      .map((f) => relative(REPO_ROOT, f));
    assert.deepEqual(offenders.filter((f) => f !== 'test/packaging/self-contained.test.ts'), []);
  });

  it('every fixture file is named in test/fixtures/README.md with its source, and every licence file it cites exists', () => {
    const readme = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'README.md'), 'utf8');
    const fixtures = files(join(REPO_ROOT, 'test', 'fixtures'))
      .map((f) => relative(join(REPO_ROOT, 'test', 'fixtures'), f))
      .filter((f) => f !== 'README.md' && !f.startsWith('licenses/'));
    assert.ok(fixtures.length > 30);
    for (const fixture of fixtures) assert.ok(readme.includes(fixture.slice(fixture.indexOf('/') + 1)), `${fixture} is not in the README`);
    const cited = [...readme.matchAll(/`licenses\/([^`]+)`/g)].map((m) => m[1]!);
    const present = new Set(readdirSync(join(REPO_ROOT, 'test', 'fixtures', 'licenses')));
    for (const licence of cited) assert.ok(present.has(licence), `licenses/${licence}`);
    for (const licence of present) assert.ok(cited.includes(licence), `licenses/${licence} is cited by no row`);
  });
});
