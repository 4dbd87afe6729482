import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, seriousViolations } from '../support/browser.js';
import { hashedToken } from '../../server/audit/record.js';
import { seedTokenAudit, type AuditSeed } from '../support/console-audit.js';
import { MONA, REPOSITORIES, sessionCookieName, settableClock, startConsoleWorld, type ConsoleWorld } from '../support/console-world.js';
import { REPO_ROOT } from '../support/processes.js';

// Callbacks below run in the page, where the DOM is; this program is compiled without DOM types.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;

/**
 * Where the screenshots go: a temporary folder, so that `npm test` never changes the clone;
 * `CONSOLE_SCREENSHOTS=docs/images` refreshes the ones docs/console.md shows.
 */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ? resolve(REPO_ROOT, process.env.CONSOLE_SCREENSHOTS) : mkdtempSync(join(tmpdir(), 'gatehouse-console-shots-'));

/**
 * The console in a real browser (headless Chromium from npm, one for the suite): sign-in against
 * the GitHub fake, what a person sees, the figures against `GET /v1/deployments/metrics` for the
 * same window, the token audit page of a repository the person administers, axe-core on every
 * page, keyboard use, 375 px and 1440 px (screenshots for docs/console.md), forged cookies and
 * sign-out.
 */
describe('console in a real browser', function () {
  this.timeout(180_000);
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  let browser: Browser;
  let world: ConsoleWorld;
  let audit: AuditSeed;
  let page: Page;

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchBrowser();
    const clock = settableClock(now);
    world = await startConsoleWorld({ clock, now });
    audit = await seedTokenAudit(world, clock, now);
    world.github.signedIn = MONA;
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await audit?.close();
    await world?.close();
    if (!process.env.CONSOLE_SCREENSHOTS) rmSync(SCREENSHOTS, { recursive: true, force: true });
  });

  const url = (path: string) => `${world.backend.url}${path}`;

  /** `GET /v1/deployments/metrics` with the repository's own OIDC token, at the backend's clock. */
  async function metrics(repo: string, environment: string, days: number): Promise<Record<string, any>> {
    const r = REPOSITORIES.find((x) => `${x.owner}/${x.name}` === repo)!;
    const token = await world.backend.issuer.mint({ repository: repo, repository_id: String(r.id), repository_owner: r.owner }, { nowMs: now });
    const res = await fetch(url(`/v1/deployments/metrics?environment=${encodeURIComponent(environment)}&days=${days}`), { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, any>;
  }

  const valueAt = (body: Record<string, any>, source: string): number | null => source.split('.').reduce((v: any, k) => (v === null || v === undefined ? null : v[k]), body) ?? null;

  async function assertAccessible(what: string): Promise<void> {
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
  }

  it('signs in through GitHub and shows exactly the 2 repositories of 3 the person can see; their figures equal GET /v1/deployments/metrics for the same window', async () => {
    const response = await page.goto(url('/console?days=30'));
    assert.equal(response?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/console');
    const rows = await page.$$eval('#overview tbody tr', (trs: any) =>
      trs.map((tr: any) => ({
        repository: tr.getAttribute('data-repository')!,
        environment: tr.getAttribute('data-environment')!,
        figures: Array.from(tr.querySelectorAll('td[data-figure]')).map((td: any) => ({ source: td.getAttribute('data-figure')!, value: td.getAttribute('data-value')!, text: td.textContent ?? '' })),
      })),
    );
    assert.deepEqual([...new Set(rows.map((r: any) => r.repository))].sort(), ['octo-org/payments', 'octo-org/web-app']);
    assert.deepEqual(rows.map((r: any) => `${r.repository} ${r.environment}`).sort(), ['octo-org/payments production', 'octo-org/web-app production', 'octo-org/web-app staging']);
    for (const row of rows) {
      const api = await metrics(row.repository, row.environment, 30);
      assert.equal(row.figures.length, 4);
      for (const figure of row.figures) {
        const expected = valueAt(api, figure.source);
        assert.equal(figure.value, expected === null ? 'null' : String(expected), `${row.repository} ${row.environment} ${figure.source}`);
      }
    }
    // Every figure is labelled, and a level is named in text, not by colour alone.
    const heads = await page.$$eval('#overview thead th', (ths: any) => ths.map((th: any) => th.textContent!.replace(/[▲▼]/g, '').trim()));
    assert.deepEqual(heads, ['Repository', 'Environment', 'Deployment frequency', 'Lead time', 'Change failure rate', 'Time to restore']);
    assert.match(rows.flatMap((r: any) => r.figures.map((f: any) => f.text)).join(' '), /Elite|High|Medium|Low/);
    await page.setViewport({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-overview-1440.png'), fullPage: true });
    await page.setViewport({ width: 375, height: 812 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-overview-375.png'), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways at 375 px by ${overflow} px`);
    await page.setViewport({ width: 1440, height: 900 });
    await assertAccessible('overview');
  });

  it('sorts and filters: by a figure, by owner and environment', async () => {
    await page.goto(url('/console?days=90&sort=deployment_frequency&order=desc'));
    const order = await page.$$eval('#overview tbody tr', (trs: any) => trs.map((tr: any) => `${tr.getAttribute('data-repository')} ${tr.getAttribute('data-environment')}`));
    const values = await page.$$eval('#overview tbody tr td[data-figure="deployment_frequency.per_day"]', (tds: any) => tds.map((td: any) => Number(td.getAttribute('data-value'))));
    assert.deepEqual(values, [...values].sort((a, b) => b - a), order.join(', '));
    assert.equal(await page.$eval('th[aria-sort]', (th: any) => th.getAttribute('aria-sort')), 'descending');
    await page.goto(url('/console?days=90&environment=staging'));
    assert.deepEqual(await page.$$eval('#overview tbody tr', (trs: any) => trs.map((tr: any) => tr.getAttribute('data-environment'))), ['staging']);
    await page.select('select[name="environment"]', '');
    await page.select('select[name="owner"]', 'octo-org');
    await Promise.all([page.waitForNavigation(), page.click('form.filters button')]);
    assert.match(page.url(), /owner=octo-org/);
  });

  it('the repository page: four labelled figures per environment equal to the API, a daily bar per entry of `daily`, 12 ISO weeks named by date, paged records with run and commit links', async () => {
    const response = await page.goto(url('/console/repos/octo-org/web-app?days=30'));
    assert.equal(response?.status(), 200);
    const sections = await page.$$eval('section[data-environment]', (els: any) =>
      els.map((el: any) => ({
        environment: el.getAttribute('data-environment')!,
        cards: Array.from(el.querySelectorAll('.cards:first-of-type > .card[data-figure]')).map((c: any) => ({ source: c.getAttribute('data-figure')!, value: c.getAttribute('data-value')!, label: c.querySelector('h3')!.textContent })),
        days: Array.from(el.querySelectorAll('tr[data-date]')).map((tr: any) => [tr.getAttribute('data-date'), ...Array.from(tr.querySelectorAll('td')).map((td: any) => Number(td.textContent))]),
        dayBars: Array.from(el.querySelectorAll('svg g[aria-label]')).map((g: any) => g.getAttribute('aria-label')!).filter((l: any) => /^\d{4}-\d\d-\d\d: /.test(l)).length,
        weekLabels: Array.from(el.querySelectorAll('svg g[aria-label]')).map((g: any) => g.getAttribute('aria-label')!).filter((l: any) => l.startsWith('Week of ')),
      })),
    );
    assert.deepEqual(sections.map((s: any) => s.environment).sort(), ['production', 'staging']);
    for (const s of sections) {
      const api = await metrics('octo-org/web-app', s.environment, 30);
      assert.deepEqual(s.cards.map((c: any) => c.label), ['Deployment frequency', 'Lead time', 'Change failure rate', 'Time to restore']);
      for (const card of s.cards) {
        const expected = valueAt(api, card.source);
        assert.equal(card.value, expected === null ? 'null' : String(expected), `${s.environment} ${card.source}`);
      }
      assert.deepEqual(s.days, (api.daily as any[]).map((d) => [d.date, d.success, d.failure, d.rolled_back, d.skipped]));
      assert.equal(s.dayBars, api.daily.length);
      // 12 weeks for each of the four figures, each named by its Monday.
      assert.equal(s.weekLabels.length, 48);
      assert.ok(s.weekLabels.every((l: any) => /^Week of \d{4}-\d\d-\d\d/.test(l)));
      assert.ok(s.weekLabels.some((l: any) => l.startsWith('Week of 2026-11-16 (so far)')), 'the current ISO week (Monday 2026-11-16)');
    }
    const links = await page.$$eval('table a[href]', (as: any) => as.map((a: any) => a.getAttribute('href')!));
    assert.ok(links.some((h: any) => /\/actions\/runs\/\d+$/.test(h)), 'a run link');
    assert.ok(links.some((h: any) => /\/octo-org\/web-app\/commit\/[0-9a-f]{40}$/.test(h)), 'a commit link');
    const older = await page.$('a[href*="page="]');
    assert.ok(older, 'no link to older records');
    await page.setViewport({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-repository-1440.png'), fullPage: false });
    await page.setViewport({ width: 375, height: 812 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-repository-375.png'), fullPage: false });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the repository page scrolls sideways at 375 px by ${overflow} px`);
    await page.setViewport({ width: 1440, height: 900 });
    await assertAccessible('repository page');
    // axe reloaded the page: the link is looked up again.
    await Promise.all([page.waitForNavigation(), page.click('a[href*="page="]')]);
    assert.equal((await page.$$('table tbody tr')).length > 0, true);
    await assertAccessible('older records');
  });

  it('the token audit of a repository the person administers: reached from its page by keyboard, filtered from the form, no token on it, axe-clean at 375 and 1440 px', async () => {
    await page.goto(url('/console/repos/octo-org/web-app'));
    await page.focus('#main');
    let onLink = false;
    for (let i = 0; i < 10 && !onLink; i++) {
      await page.keyboard.press('Tab');
      onLink = (await page.evaluate(() => document.activeElement?.textContent)) === 'Token audit';
    }
    assert.ok(onLink, 'the Token audit link is not reached by Tab');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).pathname, '/console/repos/octo-org/web-app/audit');
    assert.equal(await page.$eval('h1', (h: any) => h.textContent), 'Token audit of octo-org/web-app');
    const heads = await page.$$eval('#audit thead th', (ths: any) => ths.map((th: any) => th.textContent));
    assert.deepEqual(heads, ['Recorded (UTC)', 'Outcome', 'Workflow and run', 'Actor', 'Environment', 'Policy rule', 'Permissions', 'Token (hashed)']);
    assert.equal((await page.$$('#audit tbody tr')).length, 50);
    const shown = await page.$$eval('#audit tbody tr[data-hashed-token]', (trs: any) => trs.map((tr: any) => tr.getAttribute('data-hashed-token')));
    const minted = audit.tokens.map(hashedToken);
    assert.ok(shown.length > 40 && shown.every((h: string) => minted.includes(h)));
    const content = await page.content();
    for (const secret of [...audit.tokens, ...audit.oidcTokens]) assert.ok(!content.includes(secret), 'a token is on the page');
    const runs = await page.$$eval('#audit a[href*="/actions/runs/"]', (as: any) => as.map((a: any) => a.getAttribute('href')));
    assert.ok(runs.length > 0 && runs.every((h: string) => /^https?:\/\/[^/]+\/octo-org\/web-app\/actions\/runs\/\d+\/attempts\/\d+$/.test(h)), runs.join(' '));
    await page.setViewport({ width: 1440, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-audit-1440.png'), fullPage: false });
    // At 375 px the form fills the first screen: the picture starts at the records.
    await page.setViewport({ width: 375, height: 812 });
    await page.goto(url('/console/repos/octo-org/web-app/audit#records'));
    await page.screenshot({ path: join(SCREENSHOTS, 'console-audit-375.png'), fullPage: false });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the audit page scrolls sideways at 375 px by ${overflow} px`);
    await assertAccessible('token audit at 375 px');
    await page.setViewport({ width: 1440, height: 900 });
    await assertAccessible('token audit');
    // From the keyboard: Tab to the Actor field, type, Enter submits the form.
    await page.focus('#main');
    let onActor = false;
    const reached: string[] = [];
    for (let i = 0; i < 12 && !onActor; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent?.trim().slice(0, 30)}`);
      reached.push(at);
      onActor = at === 'INPUT actor';
    }
    assert.ok(onActor, reached.join(' | '));
    await page.keyboard.type('hubot');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(new URL(page.url()).searchParams.get('actor'), 'hubot');
    const actors = await page.$$eval('#audit tbody tr td:nth-child(4)', (tds: any) => tds.map((td: any) => td.textContent));
    assert.ok(actors.length > 0 && actors.every((a: string) => a === 'hubot'), actors.join(', '));
    // The download link, the region of the table and the pager are reached by Tab too.
    const stops: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      stops.push(await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('role') ?? ''} ${document.activeElement?.textContent?.trim().slice(0, 20)}`));
    }
    assert.ok(stops.some((s) => s.startsWith('BUTTON') && s.endsWith('Show')), stops.join(' | '));
    assert.ok(stops.some((s) => s.startsWith('A') && s.endsWith('Download CSV')), stops.join(' | '));
    assert.ok(stops.some((s) => s.startsWith('DIV region')), stops.join(' | '));
    await assertAccessible('token audit, filtered');
    // Another repository the person sees but does not administer: the not-found page.
    assert.equal((await page.goto(url('/console/repos/octo-org/payments/audit')))?.status(), 404);
    await page.goto(url('/console/repos/octo-org/payments'));
    assert.equal(await page.$('a[href$="/audit"]'), null);
  });

  it('a direct URL to the repository the person cannot see answers 404, the same page as one that does not exist', async () => {
    const hidden = await page.goto(url('/console/repos/octo-org/secret-project'));
    assert.equal(hidden?.status(), 404);
    const hiddenText = await page.$eval('main', (m: any) => m.textContent);
    const missing = await page.goto(url('/console/repos/octo-org/does-not-exist'));
    assert.equal(missing?.status(), 404);
    assert.equal(await page.$eval('main', (m: any) => m.textContent), hiddenText);
    await assertAccessible('not found');
  });

  it('works from the keyboard: the skip link first, then to a sort link and the sign-out button', async () => {
    await page.goto(url('/console'));
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    const reached: string[] = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim().slice(0, 40)}`));
    }
    assert.ok(reached.some((r) => r.startsWith('SELECT')), reached.join(' | '));
    const sortLink = reached.findIndex((r) => r.startsWith('A Lead time'));
    assert.ok(sortLink >= 0, reached.join(' | '));
    await page.goto(url('/console'));
    await page.focus('#main');
    for (let i = 0; i <= sortLink; i++) await page.keyboard.press('Tab');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.match(page.url(), /sort=lead_time/);
    await page.focus('header form button');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Sign out');
  });

  it('a forged or altered cookie is refused; sign-out ends the session and shows a Sign in button', async () => {
    const [session] = (await page.cookies(url('/console'))).filter((c) => c.name === sessionCookieName);
    assert.ok(session, 'no session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    // GitHub would sign the person straight back in: it declines here, so a refused cookie shows.
    world.github.decline = true;
    const host = new URL(world.backend.url).hostname;
    await page.setCookie({ name: sessionCookieName, value: `${session.value.split('.')[0]}.${'A'.repeat(43)}`, domain: host, path: '/', httpOnly: true });
    const forged = await page.goto(url('/console'));
    assert.equal(forged?.status(), 403);
    assert.match(await page.$eval('main', (m: any) => m.textContent ?? ''), /Not signed in/);
    await assertAccessible('not signed in');
    await page.setCookie({ ...session, domain: host });
    world.github.decline = false;
    await page.goto(url('/console'));
    await Promise.all([page.waitForNavigation(), page.click('header form button')]);
    assert.match(await page.$eval('main', (m: any) => m.textContent ?? ''), /You are signed out/);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-signed-out-375.png') });
    assert.equal(await page.$eval('main a.button', (a: any) => `${a.textContent} ${a.getAttribute('href')}`), 'Sign in /console/login');
    await assertAccessible('signed out');
    assert.deepEqual((await page.cookies(url('/console'))).filter((c) => c.name === sessionCookieName), []);
    // The old cookie, put back, names a session that no longer exists.
    world.github.decline = true;
    await page.setCookie({ ...session, domain: host });
    assert.equal((await page.goto(url('/console')))?.status(), 403);
    world.github.decline = false;
  });
});
