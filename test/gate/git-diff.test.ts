import assert from 'node:assert/strict';
import { pullRequestDiff, type AddedLines, type BaseLine } from '../../actions/gate/diff/git-diff.js';
import { GitRepo, lines } from '../support/git-repo.js';

/** A map of added lines as plain data, for comparison. */
const plain = (files: ReadonlyMap<string, AddedLines>): Record<string, 'all' | number[]> =>
  Object.fromEntries([...files].map(([path, added]) => [path, added === 'all' ? 'all' : [...(added as Set<number>)].sort((a, b) => a - b)]));

describe('pull-request diff', () => {
  let repo: GitRepo;
  let base: string;
  let head: string;

  /**
   * Paths git writes plainly, quoted (a tab, a double quote), or with spaces and non-ASCII letters;
   * added lines whose text looks like diff headers; a line longer than any read; a rename with an
   * added line; a deleted file. The long line and a re-indented line with a CR come from the
   * deleted file: they moved.
   */
  before(() => {
    repo = GitRepo.create();
    repo
      .write('src/app.js', lines(10))
      .write('ünï/ß.js', lines(5))
      .write('lib/old name.js', lines(8, 'kept '))
      .write('gone.js', lines(3) + 'x'.repeat(200_000) + '\n');
    base = repo.commit('base');
    repo.git('checkout', '--quiet', '-b', 'pr');
    const app = lines(10).split('\n');
    app.splice(2, 0, '++ b/evil.js', 'diff --git a/x b/x', '@@ -1 +1,99 @@', 'new file mode 100644');
    app[8] = 'x'.repeat(200_000);
    repo.write('src/app.js', app.join('\n'));
    repo.write('ünï/ß.js', lines(5) + 'added\n' + '\t line  3 \r\n' + '}\n');
    repo.write('dir with space/a b.js', lines(2, 'spaced '));
    repo.write('tab\there.js', lines(1, 'tabbed '));
    repo.write('quote"d.js', lines(1, 'quoted '));
    repo.git('mv', 'lib/old name.js', 'lib/new name.js');
    repo.write('lib/new name.js', lines(8, 'kept ') + 'added at 9\n');
    repo.git('rm', '--quiet', 'gone.js');
    head = repo.commit('pr');
  });
  after(() => repo.cleanup());

  const want = {
    'src/app.js': [3, 4, 5, 6, 9],
    'ünï/ß.js': [6, 7, 8],
    'dir with space/a b.js': 'all',
    'tab\there.js': 'all',
    'quote"d.js': 'all',
    'lib/new name.js': [9],
  };
  /** The long line, and "line 3" with other whitespace; not "}", which says nothing about where it came from. */
  const wantMoved = { 'src/app.js': [9], 'ünï/ß.js': [7] };
  const plainMoved = (moved: ReadonlyMap<string, ReadonlyMap<number, BaseLine>>) => Object.fromEntries([...moved].map(([p, s]) => [p, [...s.keys()].sort((a, b) => a - b)]));

  it('added lines by head path: new files whole, renames by their new path, quoted paths unquoted, header-like added text ignored', async () => {
    const diff = await pullRequestDiff(repo.dir, base, head);
    assert.deepEqual(plain(diff.files), want);
    assert.deepEqual(plainMoved(diff.moved), wantMoved);
    assert.equal(diff.head, head);
    assert.equal(diff.mergeBase, base);
  });
});
