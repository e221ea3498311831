import { chromium, type Browser } from 'playwright-core';
import { watchContext } from './page-log.js';

/**
 * Debian's Chromium, headless, for every browser test. Never `npx playwright install`:
 * the system browser is the one CI has. It is Debian's headless shell (package
 * `chromium-headless-shell`, the same Chromium build as the `chromium` package), which is what
 * Playwright itself runs for headless Chromium: the full browser in its headless mode took about
 * twice the CPU for the same tests, and browser flows are half of a run's CPU on 2 cores
 * (docs/PERFORMANCE.md, session 74). CHROMIUM_PATH=/usr/bin/chromium runs them on the full browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  // Every page of every context (browser.newPage makes one too) keeps a log for a failing test.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
  return browser;
}
