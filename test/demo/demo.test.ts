import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runToEnd } from '../support/processes.js';

/** Step titles `npm run demo` prints, in order; each is followed by at least one ✓ line. */
const STEPS = [
  /^1\. Start a demo OIDC issuer/,
  /^2\. Start a GitHub API fake/,
  /^3\. Start the backend: the real process entry/,
  /^4\. Record deployment 1 with the bundled action/,
  /^5\. Record deployment 2 with the bundled action/,
  /^6\. List the history: GET \/v1\/deployments/,
  /^7\. Mint a GitHub App installation token through the broker: POST \/token/,
  /^8\. Sign mona in to the console through the GitHub fake and read the overview/,
  /^9\. Run the gate/,
  /^10\. Stop the backend with SIGTERM/,
];

describe('npm run demo', function () {
  // Four Node processes start one after the other; a busy two-core machine needs more than the default.
  this.timeout(120_000);

  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'gatehouse-demo-test-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('runs every step clean, exits 0, prints no secret and leaves no temporary folder', async () => {
    // `npm run demo` is this command; running it directly skips npm's own start-up.
    const result = await runToEnd(process.execPath, ['--import', 'tsx', 'demo/run.ts'], {
      cwd: REPO_ROOT,
      // TMPDIR: every temporary folder the demo makes lands here, so leftovers can be seen.
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmp },
      timeoutMs: 110_000,
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);

    const lines = result.stdout.split('\n');
    let at = 0;
    for (const title of STEPS) {
      const found = lines.findIndex((line, i) => i >= at && title.test(line));
      assert.ok(found >= 0, `no step ${title} after line ${at}:\n${result.stdout}`);
      const next = lines.findIndex((line, i) => i > found && /^\d+\. /.test(line));
      const body = lines.slice(found + 1, next < 0 ? undefined : next);
      assert.ok(body.some((line) => line.startsWith('   ✓ ')), `step ${title} reports no result:\n${result.stdout}`);
      assert.ok(!body.some((line) => line.includes('✗')), `step ${title} failed:\n${result.stdout}`);
      at = found + 1;
    }
    assert.match(result.stdout, /duplicate=true with the same deployment id/);
    assert.match(result.stdout, /403 repo_mismatch/);
    assert.match(result.stdout, /the bundled request-token action \(node dist\/request-token\/index\.js, broker-url: http:\/\/127\.0\.0\.1:\d+\) got a token/);
    assert.match(result.stdout, /^ {5}broker said: invalid_oidc_token \(audience_mismatch\)$/m);
    assert.match(result.stdout, /exit 1, blocked, as it should be/);
    assert.match(result.stdout, /^ {5}demo-org\/web-app production: Deployment frequency .+; Lead time .+; Change failure rate .+; Time to restore .+$/m);
    assert.match(result.stdout, /signed out with the page's form/);
    assert.match(result.stdout, /^Done in [\d.]+ s: every step gave the expected answer/m);

    // JWTs start with a base64url '{"' (eyJ); GitHub installation tokens with ghs_.
    for (const secretShape of [/eyJ[\w-]{10,}/, /ghs_\w+/, /ghu_\w+/, /ghr_\w+/, /PRIVATE KEY/]) {
      assert.doesNotMatch(result.stdout + result.stderr, secretShape);
    }
    // tsx keeps its compile cache in the temporary folder; that one is tsx's, not the demo's.
    assert.deepEqual(readdirSync(tmp).filter((name) => !name.startsWith('tsx-')), []);
  });
});
