import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, parseSyncArgs } from '../../server/sync/args.js';
import { REPO_ROOT } from '../support/processes.js';
import { runSync } from './support.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The options a usage text lists (lines that start with two spaces and a dash). */
const optionsOf = (text: string) => [...text.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1]!);
/** A value each option taking one is valid with. */
const VALUES: Record<string, string> = { '--config': 'sync.yml', '--concurrency': '2', '--timeout': '5', '--upload-timeout': '5', '--retries': '1' };

describe('gatehouse-sync command line: --version and --help', () => {
  it('--version prints the package version alone, with or without a command', async () => {
    for (const argv of [['--version'], ['sync-github', '--version']]) {
      const run = await runSync(argv, {});
      assert.equal(run.code, 0);
      assert.deepEqual(run.out, [VERSION]);
    }
  });

  it('--help lists every command and no command option', async () => {
    const run = await runSync(['--help'], {});
    assert.equal(run.code, 0);
    const text = run.out.join('\n');
    for (const command of COMMANDS) assert.match(text, new RegExp(`^ {2}${command} `, 'm'));
    assert.deepEqual(optionsOf(text), ['--version', '--help']);
  });

  it('<command> --help lists that command\'s options only, each one the command accepts', async () => {
    const listed: Record<string, string[]> = {};
    for (const command of COMMANDS) {
      const run = await runSync([command, '--help'], {});
      assert.equal(run.code, 0);
      const text = run.out.join('\n');
      assert.match(text, new RegExp(`^Usage: gatehouse-sync ${command} \\[options\\]`));
      listed[command] = optionsOf(text);
      for (const option of listed[command]!.filter((o) => o !== '--help')) {
        const parsed = parseSyncArgs([command, option, ...(VALUES[option] ? [VALUES[option]!] : [])], {});
        assert.ok(typeof parsed === 'object' && 'command' in parsed, `${command} ${option}`);
      }
    }
    // Only sync-sonarqube (and serve, which runs it) takes --all-issue-types; serve prints no JSON summary.
    assert.ok(listed['sync-sonarqube']!.includes('--all-issue-types'));
    assert.ok(!listed['sync-github']!.includes('--all-issue-types'));
    assert.ok(!listed.sync!.includes('--all-issue-types'));
    assert.ok(!listed.serve!.includes('--json'));
    assert.ok(listed['sync-github']!.includes('--json'));
  });
});
