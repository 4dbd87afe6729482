import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/*
 * One headless Chromium per suite, from npm (@sparticuz/chromium ships the binary inside the
 * package: nothing is downloaded at install or test time), driven by puppeteer-core. Its default
 * arguments are kept except those that weaken the web's security model (the tests check cookies
 * and the Content-Security-Policy), and the browser makes no connection of its own.
 */

const WEAKENING = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials', '--single-process', '--no-zygote']);

export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  const args = [
    ...chromium.args.filter((a) => !WEAKENING.has(a) && !a.startsWith('--headless')),
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ];
  return puppeteer.launch({ executablePath, args, headless: 'shell', defaultViewport: { width: 1440, height: 900 } });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: { target: unknown[] }[];
}

/** axe-core on the page as it is now: its serious and critical violations (none is the bar). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // The pages forbid every script (CSP); the test's own is let in through the DevTools protocol.
  await page.setBypassCSP(true);
  await page.reload();
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  await page.setBypassCSP(false);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
