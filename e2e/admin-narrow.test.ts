/**
 * The operator on a phone or a tablet (DESIGN §17): every tab and dialog of the dashboard fits a
 * 390 px wide screen, and an 820 px tablet, without horizontal scrolling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openDashboard, startWebHarness, TABLET, type WebHarness } from './support/app.js';
import { horizontalOverflow } from './support/overflow.js';
import { shot } from './game-support.js';
import { closeByEscape, openTab, seriousViolations, sessionCard } from './support/ui.js';

const PHONE = { width: 390, height: 844 };
const PRIZE_DRAW = { enabled: true, prize: 'Two tickets for Friday night', consentText: 'Enter me in the prize draw.' };

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
  const session = await h.api.createSession({ title: 'Saturday Night Movie Trivia Spectacular', prizeDraw: PRIZE_DRAW });
  const live = await h.api.createSession({ title: 'Live Now' });
  const question = await h.api.createQuestion({ categories: ['Classics', 'Sci-Fi'], text: 'Which 1968 film features the computer HAL 9000, and who directed it?' });
  await h.api.addQuestionToSession(session.id, question.id);
  await h.api.addQuestionToSession(live.id, question.id);
  await h.api.request('POST', `/api/admin/sessions/${live.id}/start`);
  await h.api.registerPlayer(session.id, 'Ada Lovelace-Byron', 'ada.lovelace.byron@example-cinema-chain.com');
  const auditorium = await h.api.createAuditorium('Screen 1 — The Grand Hall');
  const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
  await h.api.request('POST', `/api/admin/auditoriums/${auditorium.id}/showtimes`, { title: 'The Grand Budapest Hotel (35mm re-release, director\u2019s cut)', startsAt: tomorrow });
});
afterAll(async () => {
  await h?.close();
});

type Opener = { tab: string; scope?: (page: Page) => Locator; button: string; exact?: boolean };

const DIALOGS: Opener[] = [
  { tab: 'Sessions', button: 'Create Session' },
  ...['Questions', 'Theme', 'QR Code', 'Results', 'Prize Draw', 'Edit', 'Delete'].map((button) => ({
    tab: 'Sessions',
    scope: (page: Page) => sessionCard(page, 'Saturday Night Movie Trivia Spectacular'),
    button,
  })),
  { tab: 'Sessions', scope: (page) => sessionCard(page, 'Live Now'), button: 'Stop' },
  { tab: 'Questions', button: 'Add Question' },
  { tab: 'Questions', button: 'Import' },
  { tab: 'Questions', button: 'Assign question 1 to sessions' },
  { tab: 'Questions', button: 'Edit question 1' },
  { tab: 'Media', button: 'Upload Media' },
  { tab: 'Auditoriums', button: 'Add Auditorium' },
  { tab: 'Auditoriums', button: 'Screen Link' },
  { tab: 'Auditoriums', button: 'Pre-show Settings' },
  { tab: 'Auditoriums', button: 'Import Showtimes' },
];

/** The tab labels stay inside their pills, whole (not cut short with an ellipsis). */
async function expectWholeTabLabels(page: Page): Promise<void> {
  for (const pill of await page.getByRole('tab').all()) {
    expect(await pill.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const label = pill.locator('span');
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth), await label.innerText()).toBe(true);
  }
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Besides the two widths below: the smallest phones (320 px, where the pills' gaps and paddings
// halve), 360 px, the 640 px where the pills first put icon and label side by side, and the 768 px
// where they become equal fifths.
describe('the header and the tab pills from a small phone to a tablet', () => {
  for (const width of [320, 360, 390, 640, 768, TABLET.width]) {
    it(`at ${width} px the title stays clear of the live badge and Logout, and every tab label is whole`, async () => {
      const page = await h.newPage({ width, height: 800 });
      await openDashboard(page, h.api);
      const header = page.getByRole('banner');
      await header.getByRole('status').waitFor(); // the live badge: one session is live
      const [brand, title, badge, logout] = await Promise.all(
        [header.getByText('Marquee', { exact: true }), header.getByRole('heading', { name: 'Admin Dashboard' }), header.getByRole('status'), header.getByRole('button', { name: 'Logout' })].map(async (l) => (await l.boundingBox())!),
      );
      for (const words of [brand, title]) for (const control of [badge, logout]) expect(overlaps(words, control)).toBe(false);
      expect(logout.x + logout.width).toBeLessThanOrEqual(width);
      await expectWholeTabLabels(page);
    });
  }
});

for (const [label, viewport] of [['a 390 px phone', PHONE], ['a tablet', TABLET]] as const) {
  describe(`the dashboard on ${label}`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await h.newPage(viewport);
      await openDashboard(page, h.api);
    });

    for (const tab of ['Sessions', 'Questions', 'Media', 'Players', 'Auditoriums']) {
      it(`${tab} tab fits the width`, async () => {
        await openTab(page, tab);
        await page.waitForLoadState('networkidle');
        expect(await horizontalOverflow(page)).toEqual([]);
        await expectWholeTabLabels(page);
      });
    }

    for (const opener of DIALOGS) {
      it(`${opener.tab} › ${opener.button} dialog fits the width`, async () => {
        await openTab(page, opener.tab);
        const scope = opener.scope?.(page) ?? page.getByRole('tabpanel', { name: opener.tab });
        await scope.getByRole('button', { name: opener.button, exact: true }).first().click();
        const open = page.locator('[role="dialog"], [role="alertdialog"]').last();
        await open.waitFor();
        try {
          await page.waitForLoadState('networkidle');
          expect(await horizontalOverflow(page)).toEqual([]);
        } finally {
          await closeByEscape(open);
        }
      });
    }

    it('stays clean for axe at this width', async () => {
      await openTab(page, 'Sessions');
      // A still picture: no colour transition half-way, no focus ring left by the last click.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition)));
      await shot(page, `admin-${viewport.width}-sessions`);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
