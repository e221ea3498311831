import type { Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

/**
 * Small waits and reads for browser tests, in the words a user would use: the toast that shows,
 * the dialog that opens, the option picked from a list.
 */
export function toast(page: Page): Locator {
  return page.getByTestId('toast');
}

/**
 * Waits until the (single) visible toast contains `text`; returns its whole text. A toast read
 * here is marked and never matched again: after a second save with the same message, the first
 * toast can still be on screen, and matching it would read the server before the save landed.
 * Each toast is a new element (keyed by its id), so the marker never hides a new one.
 */
export async function expectToast(page: Page, text: string): Promise<string> {
  const locator = toast(page).and(page.locator(':not([data-read-by-test])')).filter({ hasText: text });
  await locator.waitFor({ state: 'visible' });
  const whole = await locator.evaluate((el) => {
    el.setAttribute('data-read-by-test', '');
    return (el as HTMLElement).innerText;
  });
  return whole.replace(/\s+/g, ' ').trim();
}

export function dialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole('dialog', { name });
}

export function alertDialog(page: Page, name: string | RegExp): Locator {
  return page.getByRole('alertdialog', { name });
}

export async function waitGone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden' });
}

/**
 * Closes an open dialog with Escape, as a user would. Radix's dialog registers as a layer in one
 * effect, re-renders, and only then (as the highest layer, in that re-render's effects) listens for
 * Escape; focus moves inside before that re-render, so focus alone was not enough (CI lost the key
 * once). The re-render is also the one that sets the dialog's own `pointer-events: auto`; after it,
 * one frame and one task let React run its pending effects, and the key is heard.
 */
export async function closeByEscape(open: Locator): Promise<void> {
  const page = open.page();
  await open.and(page.locator(':focus-within')).and(page.locator('[style*="pointer-events: auto"]')).waitFor();
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  await page.keyboard.press('Escape');
  await waitGone(open);
}

/** Picks an option of a Radix select found by its label. */
export async function pickOption(scope: Page | Locator, label: string, option: string): Promise<void> {
  const page = 'page' in scope ? scope.page() : scope;
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await page.getByRole('tabpanel', { name }).waitFor();
}

export function sessionCard(page: Page, title: string): Locator {
  return page.getByRole('article', { name: `Session ${title}`, exact: true });
}

/** Texts of all matches, whitespace collapsed. */
export async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** axe violations a user would feel most: serious and critical only. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Retries `check` until it returns true (UI settling after a server round trip). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stop on a session card, confirmed in its "Stop Session" dialog (DESIGN §17: Stop asks first). */
export async function stopSession(card: Locator): Promise<void> {
  const page = card.page();
  await card.getByRole('button', { name: 'Stop', exact: true }).click();
  const confirm = alertDialog(page, 'Stop Session');
  await confirm.getByText('Players will see the final standings.').waitFor();
  await confirm.getByRole('button', { name: 'Stop Session' }).click();
  await waitGone(confirm);
}
