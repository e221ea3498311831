import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDashboard, startWebHarness, TABLET, type WebHarness } from './support/app.js';
import { dialog, openTab, seriousViolations, sessionCard } from './support/ui.js';

let h: WebHarness;
let page: Page;
beforeAll(async () => {
  h = await startWebHarness();
  const session = await h.api.createSession({ title: 'Accessible Night' });
  const live = await h.api.createSession({ title: 'Live Now' });
  const question = await h.api.createQuestion({ categories: ['Classics'] });
  await h.api.addQuestionToSession(session.id, question.id);
  await h.api.addQuestionToSession(live.id, question.id);
  await h.api.request('POST', `/api/admin/sessions/${session.id}/media-blocks`, { mediaItemCount: 3 });
  await h.api.request('POST', `/api/admin/sessions/${live.id}/start`);
  await h.api.registerPlayer(session.id, 'Ada', 'ada@example.com');
  await h.api.createAuditorium('Screen 1');
  page = await h.newPage();
  await openDashboard(page, h.api);
});
afterAll(async () => {
  await h?.close();
});

// axe: no serious or critical violation on each tab and the main dialogs (issue 5).
describe('accessibility of the dashboard', () => {
  for (const tab of ['Sessions', 'Questions', 'Media', 'Players', 'Auditoriums']) {
    it(`${tab} tab`, async () => {
      await openTab(page, tab);
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  const dialogs: Array<[string, string]> = [
    ['Questions', 'Manage Questions'],
    ['Theme', 'Theme Editor'],
    ['QR Code', 'Player QR Code'],
    ['Edit', 'Edit Session'],
  ];
  for (const [button, title] of dialogs) {
    it(`${title} dialog, operable from the keyboard`, async () => {
      await openTab(page, 'Sessions');
      await sessionCard(page, 'Accessible Night').getByRole('button', { name: button, exact: true }).click();
      const open = dialog(page, title);
      await open.waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      // Focus is inside the dialog, and Escape closes it.
      expect(await open.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await open.waitFor({ state: 'hidden' });
    });
  }

  it('Add Question dialog', async () => {
    await openTab(page, 'Questions');
    await page.getByRole('button', { name: 'Add Question' }).click();
    await dialog(page, 'Add Question').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('lays the sessions tab out without horizontal scrolling on a tablet', async () => {
    const tablet = await h.newPage(TABLET);
    await openDashboard(tablet, h.api);
    await sessionCard(tablet, 'Accessible Night').waitFor();
    const overflow = await tablet.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(tablet)).toEqual([]);
  });
});
