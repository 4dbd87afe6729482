import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { revoke } from '../../actions/request-token/revoke.js';
import { actionOctokit } from '../../actions/shared/github.js';
import { actionHttp } from '../../actions/shared/http.js';
import { RecordingCore } from '../support/runner.js';
import { listen, type Listening } from '../support/servers.js';
import type { StatefulCore } from '../../actions/shared/core.js';

class PostCore extends RecordingCore implements StatefulCore {
  constructor(private readonly state: Record<string, string>) {
    super({});
  }
  saveState = () => undefined;
  getState = (name: string) => this.state[name] ?? '';
}

/** The actions' GitHub calls carry a token: a redirect must not take it elsewhere unless the call asks. */
describe('the actions and redirects', () => {
  let elsewhere: Listening;
  let redirecting: Listening;
  const seen: IncomingHttpHeaders[] = [];
  before(async () => {
    elsewhere = await listen((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    redirecting = await listen((req, res) => res.writeHead(307, { location: `${elsewhere.url}${req.url}` }).end());
  });
  beforeEach(() => void (seen.length = 0));
  after(() => Promise.all([elsewhere.close(), redirecting.close()]));

  it('the token revocation does not follow a redirect: the token stays where it was sent', async () => {
    const core = new PostCore({ token: 'ghs_secret', 'expires-at': new Date(Date.now() + 3_600_000).toISOString() });
    await revoke({ core, http: actionHttp(), env: { GITHUB_API_URL: redirecting.url } });
    assert.equal(seen.length, 0);
    assert.equal(core.of('warning').length, 1);
    assert.match(core.of('warning')[0]!, /^token not revoked \(API unreachable: .*\); it expires on its own$/);
  });

  it('a call that asks to follow (the pull-request comment: renamed repositories) follows', async () => {
    const octokit = actionOctokit(actionHttp(), 'pr-comment', 'ghs_secret', redirecting.url, { followRedirects: true });
    await octokit.rest.issues.listComments({ owner: 'o', repo: 'r', issue_number: 1 });
    assert.equal(seen.length, 1);
  });
});
