import { chromium, type Browser } from 'playwright-core';
import { watchContext } from './page-log.js';

/**
 * Debian's Chromium, headless, for every browser test. Never `npx playwright install`:
 * the system browser is the one CI has.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
