import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinThroughForm, shot, startGameHarness, waitForStyle, type AdminSocket, type GameHarness } from './game-support.js';

/**
 * Every display state on a preset theme (Retro Arcade, with logo and background images), stepped
 * through with the operator's Next: media rotation before the show, the five slides, a question
 * with media at 720p and 1080p, its reveal, and a media block. One phone joins to show the themed
 * phone screens and the phone version of the media with its promotional link.
 */
const RETRO_ARCADE = {
  primaryColor: '#FF00FF',
  secondaryColor: '#00FFFF',
  backgroundColor: '#000000',
  textColor: '#FFFFFF',
  successColor: '#39FF14',
  timerWarningColor: '#FFFF00',
  primaryFont: "'Arial Black', Impact, sans-serif",
  secondaryFont: "'Arial Black', Impact, sans-serif",
  monoFont: "'Courier New', monospace",
  questionTextSize: 'xlarge',
  questionFontWeight: 'black',
  backgroundOverlay: 'dark',
  backdropBlur: false,
};
// 10 s: the countdown is in its warning colour throughout (TIMER_WARNING_SECONDS), and the phone's
// pick still comes in time after two screens' style and layout checks, the phone's resize and
// (with MARQUEE_SCREENSHOTS) three screenshots on a busy machine (with 5 s it had the same race as
// game-play.test.ts). Everyone answers, so the question ends at the pick.
const QUESTION = { text: 'Which arcade hero first appeared in Donkey Kong?', choices: ['Mario', 'Sonic', 'Pac-Man', 'Link'], correctIndex: 0, timeLimitSeconds: 10 };

const text = (page: Page, value: string) => page.getByText(value, { exact: true });
const style = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

/** Nothing of the screen's main content may fall outside the viewport (no scrolling on a projector). */
async function fitsTheScreen(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const { innerWidth: w, innerHeight: h } = window;
    const bad = Array.from(document.querySelectorAll('[data-testid="display-screen"] *')).filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && !el.closest('.sr-only') && (r.right > w + 1 || r.bottom > h + 1 || r.left < -1 || r.top < -1);
    });
    return bad.map((el) => el.outerHTML.slice(0, 80));
  });
  expect(overflow).toEqual([]);
}

describe('display states on a preset theme', () => {
  let h: GameHarness;
  let admin: AdminSocket | undefined;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    admin?.close();
    await h?.close();
  });

  it('applies the theme to every state and rotates the media as SPEC §4 says', { timeout: 150_000 }, async () => {
    const [logo, headerBackgroundImage, mainBackgroundImage] = await Promise.all([
      h.api.uploadThemeImage([255, 210, 0], 256, 96),
      h.api.uploadThemeImage([60, 0, 90], 1280, 120),
      h.api.uploadThemeImage([20, 40, 120], 1280, 720),
    ]);
    const m1 = await h.api.createImageMedia({ rgb: [200, 30, 30], duration: 1, phoneRgb: [30, 200, 30], promotionalLink: 'https://example.com/popcorn' });
    const m2 = await h.api.createImageMedia({ rgb: [30, 30, 200], duration: 2 });
    const m3 = await h.api.createImageMedia({ rgb: [220, 220, 30], duration: 1 });
    const { id } = await h.api.seedSession({
      title: 'Arcade Night',
      autoRotate: false,
      mediaItemsPerTransition: 2,
      theme: { ...RETRO_ARCADE, logo, headerBackgroundImage, mainBackgroundImage },
      items: [
        { slide: 'intro' },
        { slide: 'rules' },
        { slide: 'break' },
        { slide: 'join', text: 'Scan me, movie fans!' },
        { slide: 'leaderboard' },
        { question: { ...QUESTION, mediaId: m3.id } },
        { mediaBlock: 3 },
      ],
    });
    for (const m of [m1, m2, m3]) await h.api.assignMedia(id, m.id);

    // Before the show: the lobby (DESIGN §17); the transition media come between items.
    const display = await h.display(id);
    await display.getByTestId('display-lobby').waitFor();
    await shot(display, 'display-01-lobby');

    // The theme: colours, fonts, overlay (dark = 50%), blur off, logo and background images.
    expect(await style(display, '[data-testid="display-screen"]', 'background-color')).toBe('rgb(0, 0, 0)');
    expect(await style(display, '[data-testid="display-screen"]', 'background-image')).toContain(mainBackgroundImage);
    expect(await style(display, '.mq-overlay', 'background-color')).toBe('rgba(0, 0, 0, 0.5)');
    expect(await style(display, 'header .mq-panel', 'backdrop-filter')).toBe('none');
    expect(await style(display, 'header', 'background-image')).toContain(headerBackgroundImage);
    expect(await display.getByTestId('display-logo').getAttribute('src')).toBe(logo);
    expect(await style(display, 'header h1', 'font-family')).toContain('Arial Black');

    // A phone joins before the show and sees the phone file, linked to the promotion.
    const phone = await h.phone();
    await phone.page.goto(`/player/${id}`);
    await text(phone.page, 'Arcade Night').waitFor();
    await shot(phone.page, 'phone-01-join');
    await joinThroughForm(phone.page, id, 'Pixel', 'pixel@example.com');
    const phoneMedia = phone.page.locator(`[data-testid="player-media"][data-media-id="${m1.id}"]`);
    await phoneMedia.waitFor();
    expect(await phoneMedia.locator('img').getAttribute('src')).toBe(m1.phoneFilePath);
    expect(await phoneMedia.locator('a').getAttribute('href')).toBe('https://example.com/popcorn');
    expect(await phoneMedia.locator('a').getAttribute('target')).toBe('_blank');
    await shot(phone.page, 'phone-02-between-media');

    // The show, stepped with Next.
    admin = await h.api.adminSocket(id);
    await h.api.start(id);
    await text(display, 'Welcome!').waitFor();
    await text(display, 'Get ready for an amazing trivia experience').waitFor();
    await fitsTheScreen(display);
    await shot(display, 'display-02-intro');

    admin.next();
    await text(display, 'Game Rules').waitFor();
    expect(await display.getByTestId('display-slide').locator('li').count()).toBe(3);
    await shot(display, 'display-03-rules');

    admin.next();
    await text(display, 'Break Time!').waitFor();
    await text(display, 'Grab a snack and get ready for the next round').waitFor();
    await shot(display, 'display-04-break');

    admin.next();
    await text(display, 'Scan me, movie fans!').waitFor();
    await text(display, 'Point your camera at the QR code to join').waitFor();
    await display.getByTestId('lobby-count').waitFor();
    const qr = display.locator('canvas[data-join-url]');
    await qr.waitFor();
    expect(await qr.getAttribute('data-join-url')).toMatch(new RegExp(`^${h.server.baseUrl}/player/${id}\\?t=\\d+&sig=[0-9a-f]{64}$`));
    expect(await qr.evaluate((c) => c.getBoundingClientRect().width)).toBe(400);
    await fitsTheScreen(display);
    await shot(display, 'display-05-join');

    admin.next();
    await text(display, 'Current Standings').waitFor();
    await shot(display, 'display-06-leaderboard-empty');

    // A second screen at 1080p, loaded before the question: the question has 10 s, and loading a
    // page on a busy machine can take longer.
    const big = await h.display(id, { width: 1920, height: 1080 });
    await text(big, 'Current Standings').waitFor();

    admin.next();
    await text(display, QUESTION.text).waitFor();
    const questionMedia = display.getByTestId('display-question').getByTestId('media-image');
    await questionMedia.waitFor();
    expect(await questionMedia.getAttribute('src')).toBe(m3.filePath);
    expect(await style(display, '[data-testid="display-question"] h2', 'font-weight')).toBe('900');
    expect(await style(display, '[data-testid="display-choice"]', 'border-top-color')).toBe('rgb(255, 0, 255)');
    await fitsTheScreen(display);
    const countdown = display.getByTestId('display-countdown');
    await countdown.waitFor();
    expect(await countdown.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 0)');
    await shot(display, 'display-07-question-720p');
    await text(phone.page, QUESTION.text).waitFor();
    await shot(phone.page, 'phone-03-question');
    // One-handed on the smallest common phone: no sideways scroll at 360 px, thumb-sized buttons.
    await phone.page.setViewportSize({ width: 360, height: 740 });
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const buttonHeights = await phone.page.getByTestId('answer-button').evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().height));
    expect(Math.min(...buttonHeights)).toBeGreaterThanOrEqual(56);

    // The same moment at 1080p: same composition, scaled to the screen.
    await text(big, QUESTION.text).waitFor();
    await fitsTheScreen(big);
    const heights = await Promise.all([display, big].map((p) => p.locator('header').evaluate((el) => el.getBoundingClientRect().height)));
    expect(heights[1] / heights[0]).toBeCloseTo(1.5, 1);
    await shot(big, 'display-08-question-1080p');
    await big.close();

    await phone.page.getByTestId('answer-button').filter({ hasText: 'Mario' }).click();
    // Everyone connected answered: the reveal, in the success colour.
    const correct = display.locator('[data-testid="display-choice"][data-correct]');
    await correct.waitFor();
    expect(await correct.innerText()).toContain('Mario');
    await waitForStyle(display, '[data-testid="display-choice"][data-correct]', 'background-color', 'rgb(57, 255, 20)');
    await shot(display, 'display-09-reveal');
    await phone.page.locator('[data-result="correct"]').waitFor();
    await shot(phone.page, 'phone-04-result');

    // Manual mode holds after the reveal: the first min(3 media, 2 per transition) rotate, each for its own time.
    const media = display.getByTestId('display-media');
    await media.waitFor({ timeout: 10_000 });
    const seen: string[] = [];
    for (let i = 0; i < 14; i++) {
      const current = await media.getAttribute('data-media-id');
      if (current && seen.at(-1) !== current) seen.push(current);
      await display.waitForTimeout(300);
    }
    expect(seen.slice(0, 3)).toEqual(seen[0] === m1.id ? [m1.id, m2.id, m1.id] : [m2.id, m1.id, m2.id]);
    expect(seen).not.toContain(m3.id);
    await shot(display, 'display-01-waiting-media');
    // Next starts the media block (3 items: all of them rotate).
    admin.next();
    const blockSeen = new Set<string>();
    for (let i = 0; i < 16 && blockSeen.size < 3; i++) {
      const current = await display.getByTestId('display-media').getAttribute('data-media-id');
      if (current) blockSeen.add(current);
      await display.waitForTimeout(300);
    }
    expect(blockSeen).toEqual(new Set([m1.id, m2.id, m3.id]));
    await shot(display, 'display-10-media-block');
    expect(await display.getByTestId('top-player').first().innerText()).toContain('Pixel');

    await h.api.stop(id);
    await text(display, 'Final Standings').waitFor();
    await shot(display, 'display-11-finished');
    await text(phone.page, 'Thanks for playing!').waitFor();
    await shot(phone.page, 'phone-05-finished');
  });

  it("shows 'Loading session...' until the session is known", async () => {
    const { id } = await h.api.seedSession({ title: 'Slow Start', items: [{ slide: 'intro' }] });
    const context = await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/api/sessions/${id}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`/display/${id}`);
      await text(page, 'Loading session...').waitFor();
      release();
      await text(page, 'Slow Start').waitFor();
      await page.getByTestId('display-lobby').waitFor();
    } finally {
      await context.close();
    }
  });

  it('explains an unknown session instead of a bare error', async () => {
    // No screen link exists for it: the address as someone would type it.
    const page = await h.blankPage();
    await page.goto('/display/00000000-0000-4000-8000-000000000000');
    await text(page, "This game isn't here").waitFor();
  });
});
