import assert from 'node:assert/strict';
import { CookieJar, DAY, HOUR, HUBOT, MONA, sessionCookieName, settableClock, startConsoleWorld, WEBHOOK_SECRET, type ConsoleWorld } from '../support/console-world.js';

/**
 * The console over HTTP as a browser meets it (cookies, redirects, forms), against the real
 * backend and the GitHub fake: sign-in with state and PKCE, who sees what, forged and expired
 * cookies, CSRF on sign-out, revocation by webhook, token refresh and the repository cache.
 * test/console/browser.test.ts drives the same pages in a real browser.
 */
describe('console over HTTP', function () {
  this.timeout(60_000);
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  let clock: ReturnType<typeof settableClock>;
  let world: ConsoleWorld;

  beforeEach(async () => {
    clock = settableClock(now);
    world = await startConsoleWorld({ clock, now });
  });
  afterEach(() => world.close());

  async function signIn(person = MONA): Promise<CookieJar> {
    world.github.signedIn = person;
    const jar = new CookieJar();
    const landed = await jar.follow(`${world.backend.url}/console`, world.backend.url);
    assert.equal(landed.status, 200, await landed.clone().text());
    assert.ok(jar.get(sessionCookieName), 'no session cookie');
    return jar;
  }

  it('not signed in: 302 to /console/login, which sends the browser to GitHub with state and an S256 PKCE challenge', async () => {
    const jar = new CookieJar();
    const first = await jar.fetch(`${world.backend.url}/console`);
    assert.deepEqual([first.status, first.headers.get('location')], [302, '/console/login']);
    const deep = await jar.fetch(`${world.backend.url}/console/repos/octo-org/web-app?days=7`);
    assert.equal(deep.headers.get('location'), `/console/login?return_to=${encodeURIComponent('/console/repos/octo-org/web-app?days=7')}`);
    const login = await jar.fetch(`${world.backend.url}/console/login`);
    assert.equal(login.status, 302);
    const authorize = new URL(login.headers.get('location')!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${world.github.url}/login/oauth/authorize`);
    assert.equal(authorize.searchParams.get('client_id'), 'Iv23liConsoleTest01');
    assert.equal(authorize.searchParams.get('redirect_uri'), `${world.backend.url}/console/callback`);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorize.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(authorize.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{20,}$/);
    const setCookie = login.headers.getSetCookie().join('\n');
    assert.match(setCookie, /gatehouse_login=[^;]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('signs in: the code is exchanged with the PKCE verifier, the session cookie is HttpOnly and SameSite=Lax, and a deep link comes back to where it started', async () => {
    world.github.signedIn = MONA;
    const jar = new CookieJar();
    const landed = await jar.follow(`${world.backend.url}/console/repos/octo-org/web-app?days=7`, world.backend.url);
    assert.equal(landed.status, 200);
    assert.match(await landed.text(), /<h1>octo-org\/web-app<\/h1>/);
    assert.deepEqual(world.github.tokenRequests, [{ grantType: 'authorization_code', hadVerifier: true }]);
    assert.equal(jar.get('gatehouse_login'), undefined, 'the sign-in state cookie outlived the sign-in');
  });

  it('a person with access to 2 of 3 repositories sees exactly 2; the third, and one that does not exist, answer the same 404 page', async () => {
    const jar = await signIn();
    const overview = await (await jar.fetch(`${world.backend.url}/console?days=90`)).text();
    const repositories = [...new Set([...overview.matchAll(/data-repository="([^"]+)"/g)].map((m) => m[1]))];
    assert.deepEqual(repositories.sort(), ['octo-org/payments', 'octo-org/web-app']);
    assert.match(overview, /1 more is outside the owners this Gatehouse serves/);
    const hidden = await jar.fetch(`${world.backend.url}/console/repos/octo-org/secret-project`);
    const missing = await jar.fetch(`${world.backend.url}/console/repos/octo-org/no-such-repo`);
    const elsewhere = await jar.fetch(`${world.backend.url}/console/repos/elsewhere-org/tool`);
    assert.deepEqual([hidden.status, missing.status, elsewhere.status], [404, 404, 404]);
    assert.equal(await hidden.text(), await missing.text());
    assert.equal((await world.backend.store.deployments.groupedFigures({ repositoryIds: ['710003'], from: new Date(now - DAY * 2), to: new Date(now), now: new Date(now) })).length, 1, 'the hidden repository has records');
  });

  it('a forged cookie, an altered one and an expired session are refused (302 to sign-in)', async () => {
    const jar = await signIn();
    const real = jar.get(sessionCookieName)!;
    const [secret, mac] = real.split('.') as [string, string];
    for (const forged of [`${secret}.${'A'.repeat(43)}`, `${'B'.repeat(43)}.${mac}`, 'nonsense', `${real}x`]) {
      const other = new CookieJar();
      other.set(sessionCookieName, forged);
      const res = await other.fetch(`${world.backend.url}/console`);
      assert.deepEqual([res.status, res.headers.get('location')], [302, '/console/login'], forged);
    }
    assert.equal((await jar.fetch(`${world.backend.url}/console`)).status, 200);
    clock.advance(8 * HOUR);
    const expired = await jar.fetch(`${world.backend.url}/console`);
    assert.deepEqual([expired.status, expired.headers.get('location')], [302, '/console/login']);
  });

  it('sign-out needs the form’s CSRF token of this session; then the session is over and a Sign in button is shown', async () => {
    const jar = await signIn();
    const page = await (await jar.fetch(`${world.backend.url}/console`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const post = (body: string, headers: Record<string, string> = {}) =>
      jar.fetch(`${world.backend.url}/console/logout`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    assert.equal((await post('')).status, 403);
    assert.equal((await post(`csrf=${'x'.repeat(43)}`)).status, 403);
    assert.equal((await post(`csrf=${csrf}`, { origin: 'https://evil.example' })).status, 403);
    const other = await signIn(HUBOT);
    const otherCsrf = /name="csrf" value="([^"]+)"/.exec(await (await other.fetch(`${world.backend.url}/console`)).text())![1]!;
    assert.equal((await post(`csrf=${otherCsrf}`)).status, 403, "another session's token");
    assert.equal((await jar.fetch(`${world.backend.url}/console`)).status, 200, 'still signed in after refused sign-outs');
    const kept = jar.get(sessionCookieName)!;
    const out = await post(`csrf=${csrf}`, { origin: world.backend.url });
    assert.equal(out.status, 200);
    const text = await out.text();
    assert.match(text, /You are signed out/);
    assert.match(text, /<a class="button" href="\/console\/login">Sign in<\/a>/);
    assert.equal(jar.get(sessionCookieName), undefined, 'the cookie was not cleared');
    const replay = new CookieJar();
    replay.set(sessionCookieName, kept);
    assert.equal((await replay.fetch(`${world.backend.url}/console`)).status, 302, 'the old cookie still works');
  });

  it('github_app_authorization (revoked) at /webhook ends every session of that person, on every replica, and only theirs', async () => {
    const first = await signIn();
    const second = await signIn();
    const other = await signIn(HUBOT);
    const delivery = world.github.revocationDelivery(MONA, WEBHOOK_SECRET);
    const unsigned = await fetch(`${world.backend.url}/webhook`, { method: 'POST', body: delivery.body, headers: { ...delivery.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } });
    assert.equal(unsigned.status, 401);
    assert.equal((await first.fetch(`${world.backend.url}/console`)).status, 200);
    const res = await fetch(`${world.backend.url}/webhook`, { method: 'POST', body: delivery.body, headers: delivery.headers });
    assert.deepEqual([res.status, await res.json()], [200, { ok: true, event: 'github_app_authorization', sessions_ended: 2 }]);
    for (const jar of [first, second]) assert.equal((await jar.fetch(`${world.backend.url}/console`)).status, 302);
    assert.equal((await other.fetch(`${world.backend.url}/console`)).status, 200);
  });

  it('asks GitHub for the repository list once per session and 5 minutes; an expired user token is refreshed, and the session goes on', async () => {
    // A user token of 10 minutes, so the session outlives it.
    world.github.accessLifetimeSeconds = 600;
    const jar = await signIn();
    const listings = () => world.github.calls.filter((c) => c.route === 'GET /user/installations').length;
    await Promise.all([1, 2, 3].map(() => jar.fetch(`${world.backend.url}/console`)));
    await jar.fetch(`${world.backend.url}/console/repos/octo-org/web-app`);
    assert.equal(listings(), 1);
    clock.advance(10 * 60_000);
    world.github.expireAccessTokens();
    assert.equal((await jar.fetch(`${world.backend.url}/console`)).status, 200);
    assert.equal(listings(), 2);
    assert.deepEqual(world.github.tokenRequests.map((r) => r.grantType), ['authorization_code', 'refresh_token']);
  });

  it('a user token without expiry is used until GitHub answers 401, which ends the session', async () => {
    world.github.expiring = false;
    const jar = await signIn();
    world.github.revoke(MONA.id);
    clock.advance(5 * 60_000);
    const res = await jar.fetch(`${world.backend.url}/console`);
    assert.deepEqual([res.status, res.headers.get('location')], [302, '/console/login']);
    assert.equal(jar.get(sessionCookieName), undefined);
    world.github.signedIn = MONA;
    assert.equal((await jar.fetch(`${world.backend.url}/console`)).status, 302, 'the session stays ended');
  });

  it('GitHub declining, a callback without a sign-in of this browser, and bad page parameters each get a page that says so', async () => {
    world.github.decline = true;
    const jar = new CookieJar();
    const declined = await jar.follow(`${world.backend.url}/console/login`, world.backend.url);
    assert.equal(declined.status, 403);
    assert.match(await declined.text(), /did not authorise Gatehouse/);
    const stray = await new CookieJar().fetch(`${world.backend.url}/console/callback?code=abc&installation_id=31&setup_action=install`);
    assert.deepEqual([stray.status, stray.headers.get('location')], [302, '/console/login']);
    world.github.decline = false;
    const signed = await signIn();
    for (const path of ['/console?days=14', '/console?sort=stars', '/console?order=up', '/console?repository=x', '/console/repos/octo-org/web-app?days=1']) {
      const res = await signed.fetch(`${world.backend.url}${path}`);
      assert.equal(res.status, 400, path);
    }
    const badPage = await signed.fetch(`${world.backend.url}/console/repos/octo-org/web-app?page=forged.cursor`);
    assert.equal(badPage.status, 422);
  });

  it('pages are HTML with a Content-Security-Policy that allows no script, and never echo tokens, codes or cookies into the log', async () => {
    const jar = await signIn();
    const res = await jar.fetch(`${world.backend.url}/console`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'; style-src 'sha256-[^']+'; img-src 'self'; form-action 'self'; frame-ancestors 'none'/);
    const log = world.backend.logs.text();
    for (const secret of [jar.get(sessionCookieName)!, 'console-test-client-secret-8c1f', 'c0'.repeat(32)]) assert.ok(!log.includes(secret), 'a secret reached the log');
    assert.doesNotMatch(log, /ghu_|ghr_|code=/);
  });
});
