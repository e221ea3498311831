/**
 * The show's big moments as the room lives them (DESIGN §17): the lobby on the display before
 * Start, "You're in" on the phone, "Question n of N", time's up, the right answer after a wrong
 * pick, the offline wording, the screen reader's announcements and the final place. One phone
 * at 390×844, one at desktop size; axe stays clean on the phone's moments. Question 1 gives
 * Ana's pick 12 s after the start: a loaded machine's phones have shown a question 4 s late
 * (game-play.test.ts). So "10 seconds left" can replace the question's announcement before the
 * test reads it: each phone's live region is recorded as it changes, as a screen reader hears it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAPTOP } from './support/app.js';
import { seriousViolations } from './support/ui.js';
import { joinThroughForm, shot, startGameHarness, type GameHarness } from './game-support.js';

const Q1 = { text: 'Which studio made Spirited Away?', choices: ['Pixar', 'Studio Ghibli', 'DreamWorks', 'Aardman'], correctIndex: 1, points: 100, timeLimitSeconds: 12 };
const Q2 = { text: 'Who directed Jaws?', choices: ['George Lucas', 'Ridley Scott', 'Steven Spielberg', 'John Carpenter'], correctIndex: 2, points: 100, timeLimitSeconds: 14 };

const text = (page: Page, value: string) => page.getByText(value, { exact: true });
const answer = (page: Page, choice: string) => page.getByTestId('answer-button').filter({ hasText: choice });

type Recorded = Window & { announcements?: string[] };

/** Keeps every text the phone's live region holds, in order, from now on. */
async function recordAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as Recorded).announcements = seen;
    const read = () => {
      const current = document.querySelector('[data-testid="phone-announcer"]')?.textContent ?? '';
      if (current && current !== seen[seen.length - 1]) seen.push(current);
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    read();
  });
}

/** Waits until the phone has announced `value`; with `after`, once that was announced and later than it. */
const announced = (page: Page, value: string, after?: string) =>
  expect
    .poll(async () => {
      const said = await page.evaluate(() => (window as Recorded).announcements ?? []);
      if (after === undefined) return said;
      const at = said.lastIndexOf(after);
      return at < 0 ? [] : said.slice(at + 1);
    }, { timeout: 15_000 })
    .toContain(value);

describe('the show as the room lives it', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lobby, joining, question numbers, time up, the right answer, offline, the final place', { timeout: 120_000 }, async () => {
    const { id } = await h.api.seedSession({ title: 'Premiere Night', items: [{ question: Q1 }, { question: Q2 }] });

    // The lobby fills the screen before Start: QR, address, count.
    const display = await h.display(id);
    const lobby = display.getByTestId('display-lobby');
    await lobby.waitFor();
    await text(display, '0 players joined').waitFor();
    await text(display, 'Be the first to join!').waitFor();
    await lobby.locator('canvas[data-join-url]').waitFor();
    const address = await display.getByTestId('lobby-address').innerText();
    // The text is what a person can type: host and join page; the signature stays in the QR code.
    expect(address.replace(/\s+/g, '')).toBe(`Oropen${new URL(h.server.baseUrl).host}/player/${id}`);
    expect(await lobby.locator('canvas[data-join-url]').getAttribute('data-join-url')).toMatch(/[?&]sig=/);

    // A phone (390×844) joins: "You're in", and the lobby counts in the singular.
    const ana = await h.phone();
    await joinThroughForm(ana.page, id, 'Ana', 'ana@example.com');
    await text(ana.page, "You're in, Ana!").waitFor();
    await text(display, '1 player joined').waitFor();
    expect(await display.getByTestId('lobby-names').innerText()).toBe('Ana');
    expect(await seriousViolations(ana.page)).toEqual([]);
    await shot(ana.page, 'moment-01-joined');

    // A second player on a desktop browser: the plural, newest name first.
    const benContext = await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: LAPTOP });
    const ben = await benContext.newPage();
    ben.setDefaultTimeout(15_000);
    await joinThroughForm(ben, id, 'Ben', 'ben@example.com');
    await text(ben, "You're in, Ben!").waitFor();
    await text(display, '2 players joined').waitFor();
    expect((await display.getByTestId('lobby-names').locator('li').allInnerTexts())).toEqual(['Ben', 'Ana']);
    await shot(display, 'moment-00-lobby');
    for (const page of [ana.page, ben]) await recordAnnouncements(page);

    // Question 1 of 2 on the display and both phones, and announced to screen readers.
    await h.api.start(id);
    await display.getByTestId('question-number').filter({ hasText: 'Question 1 of 2' }).waitFor();
    for (const page of [ana.page, ben]) await page.getByTestId('player-question-number').filter({ hasText: 'Question 1 of 2' }).waitFor();
    await announced(ana.page, `Question 1 of 2: ${Q1.text}`);
    await shot(ana.page, 'moment-02-question');

    // Ana picks wrong; Ben lets the time run out.
    await answer(ana.page, 'Pixar').click();
    await text(ana.page, 'Answer submitted! Waiting for results...').waitFor();
    await announced(ana.page, 'Your answer is locked in');

    await text(ben, "Time's up!").waitFor({ timeout: 20_000 });
    // Time's up: every button is visibly inactive (disabled, dimmed, without colour).
    // (Polled: the buttons fade to it over their CSS transition.)
    const otherButtons = () =>
      ben.getByTestId('answer-button').evaluateAll((buttons, correct) =>
        buttons
          .filter((_, i) => i !== correct)
          .map((b) => ({ disabled: (b as HTMLButtonElement).disabled, opacity: Number(getComputedStyle(b).opacity), filter: getComputedStyle(b).filter })),
      Q1.correctIndex);
    await expect.poll(otherButtons, { timeout: 5_000 }).toEqual(Array(3).fill({ disabled: true, opacity: 0.4, filter: 'grayscale(1)' }));
    await announced(ben, "Result: Time's up!");
    await shot(ben, 'moment-03-times-up-desktop');

    // After the wrong pick the right choice is marked, by name for screen readers.
    await text(ana.page, 'Incorrect').waitFor();
    const mark = ana.page.getByRole('img', { name: 'Correct answer' });
    await mark.waitFor();
    expect(await answer(ana.page, 'Studio Ghibli').getByRole('img', { name: 'Correct answer' }).count()).toBe(1);
    expect(await ana.page.locator('[data-testid="answer-button"][data-result="wrong"]').innerText()).toContain('Pixar');
    expect(await seriousViolations(ana.page)).toEqual([]);
    await shot(ana.page, 'moment-04-correct-answer-shown');

    // Question 2: "10 seconds left" is announced; Ana's pick made offline says so honestly.
    await ana.page.getByTestId('player-question-number').filter({ hasText: 'Question 2 of 2' }).waitFor({ timeout: 20_000 });
    await display.getByTestId('question-number').filter({ hasText: 'Question 2 of 2' }).waitFor();
    await ana.context.setOffline(true);
    await ana.page.getByTestId('connection-note').waitFor();
    await answer(ana.page, 'Steven Spielberg').click();
    await text(ana.page, "Saved — it will be sent when you're back online").waitFor();
    await shot(ana.page, 'moment-05-saved-offline');
    await ana.context.setOffline(false);
    await text(ana.page, 'Answer submitted! Waiting for results...').waitFor();
    await announced(ben, '10 seconds left', `Question 2 of 2: ${Q2.text}`);
    await answer(ben, 'George Lucas').click();

    // The end: each phone its place among the players.
    await ana.page.locator('[data-result="correct"]').waitFor({ timeout: 25_000 });
    await h.api.stop(id);
    await text(ana.page, 'You finished #1 of 2').waitFor();
    await text(ben, 'You finished #2 of 2').waitFor();
    expect(await seriousViolations(ana.page)).toEqual([]);
    await shot(ana.page, 'moment-06-finished');
    await benContext.close();
  });

  it('brings the result and the place into view on a small phone, below a long question', { timeout: 60_000 }, async () => {
    const long = {
      text: 'Which 1968 science-fiction film, directed by Stanley Kubrick and written with Arthur C. Clarke, features the murderous onboard computer HAL 9000?',
      choices: ['2001: A Space Odyssey', 'Planet of the Apes, the original', 'Barbarella: Queen of the Galaxy', 'Fahrenheit 451 (the Truffaut film)'],
      correctIndex: 0,
      points: 100,
      timeLimitSeconds: 60,
    };
    const { id } = await h.api.seedSession({ title: 'Small Screens', items: [{ question: long }] });
    const small = await h.phone();
    await small.page.setViewportSize({ width: 360, height: 640 });
    const other = await h.phone();
    await joinThroughForm(small.page, id, 'Dee', 'dee@example.com');
    await joinThroughForm(other.page, id, 'Eli', 'eli@example.com');
    // Both in the lobby, so the question waits for both picks.
    await text(small.page, "You're in, Dee!").waitFor();
    await text(other.page, "You're in, Eli!").waitFor();
    await h.api.start(id);
    await answer(small.page, '2001: A Space Odyssey').click();
    await text(small.page, 'Answer submitted! Waiting for results...').waitFor();
    // Back at the top to read the question again, as the other phone takes its time.
    await small.page.evaluate(() => window.scrollTo(0, 0));
    const place = small.page.getByTestId('player-place');
    expect(await small.page.evaluate(() => window.scrollY)).toBe(0);
    await answer(other.page, 'Fahrenheit 451 (the Truffaut film)').click();
    await place.waitFor();
    await expect.poll(async () => {
      const box = (await place.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 640;
    }).toBe(true);
    expect(await small.page.getByTestId('player-status').isVisible()).toBe(true);
    await shot(small.page, 'moment-07-small-phone-result');
  });
});
