import assert from 'node:assert/strict';
import { validate } from '@octokit/graphql-schema';
import { VIEWER_QUERY } from '../../actions/gate/outputs/identity.js';
import { RESOLVE_THREAD, REVIEW_THREADS, UNRESOLVE_THREAD } from '../../actions/gate/outputs/review-api.js';
import { CREATE_COMMIT } from '../../server/platform/github-app.js';

/** Every GraphQL document the product sends, checked against GitHub's published schema (devDependency @octokit/graphql-schema). */
describe("GraphQL documents sent to GitHub are valid against GitHub's published schema", () => {
  for (const [name, document] of [
    ['/sign: createCommitOnBranch', CREATE_COMMIT],
    ["the gate's comment author: viewer", VIEWER_QUERY],
    ["the gate's review threads", REVIEW_THREADS],
    ['resolveReviewThread', RESOLVE_THREAD],
    ['unresolveReviewThread', UNRESOLVE_THREAD],
  ] as const) {
    it(name, () => {
      assert.deepEqual(validate(document).map((e) => e.message), []);
    });
  }

  it('the check can fail: a field GitHub does not have is refused', () => {
    assert.notDeepEqual(validate('query { viewer { loginName } }'), []);
  });
});
