import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutOf, type Checkout } from '../../actions/gate/diff/checkout.js';
import { staleReport } from '../../actions/gate/reports/stale-report.js';
import { GitRepo } from '../support/git-repo.js';

/** A checkout promise that records whether anything waited on it. */
function watched(checkout: Promise<Checkout>): { promise: Promise<Checkout>; awaited: () => boolean } {
  let awaited = false;
  const promise = {
    then: (...args: Parameters<Promise<Checkout>['then']>) => ((awaited = true), checkout.then(...args)),
  } as unknown as Promise<Checkout>;
  return { promise, awaited: () => awaited };
}

describe('gate: the stale-report check, from the checkout it is given', () => {
  const inRepo = 'megalinter-reports/megalinter-report.sarif';
  let repo: GitRepo;
  let head: string;

  beforeEach(() => {
    repo = GitRepo.create();
    repo.write(inRepo, '{"version":"2.1.0","runs":[]}');
    head = repo.commit('a committed report');
  });
  afterEach(() => repo.cleanup());

  it('the committed, unchanged report is stale (through the checkout read for the gate)', async () => {
    assert.equal(await staleReport(join(repo.dir, inRepo), head, checkoutOf(repo.dir, head).checkout), inRepo);
  });

  it('a path the head\'s file list lacks is not stale, whatever git would say of it', async () => {
    const real = await checkoutOf(repo.dir, head).checkout;
    assert.equal(await staleReport(join(repo.dir, inRepo), head, Promise.resolve({ ...real, files: new Set<string>() })), undefined);
  });

  it('a checkout git cannot read is no stale report', async () => {
    assert.equal(await staleReport(join(repo.dir, inRepo), head, Promise.reject(new Error('git ls-tree failed'))), undefined);
  });

  it('a report under no work tree is decided without waiting for the checkout', async function () {
    const out = mkdtempSync(join(tmpdir(), 'gatehouse-stale-'));
    try {
      try {
        execFileSync('git', ['-C', out, 'rev-parse', '--show-toplevel'], { stdio: 'ignore' });
        this.skip(); // the temporary folder lies in a work tree on this machine
      } catch {
        // Not in a work tree: the case under test.
      }
      const report = join(out, 'megalinter-report.sarif');
      writeFileSync(report, '{}');
      const checkout = watched(new Promise<Checkout>(() => {}));
      assert.equal(await staleReport(report, head, checkout.promise), undefined);
      assert.equal(checkout.awaited(), false);
      // A report that does not exist is not stale either.
      assert.equal(await staleReport(join(out, 'absent.sarif'), head, checkout.promise), undefined);
      assert.equal(checkout.awaited(), false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
