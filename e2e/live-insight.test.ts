import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughUi } from './support/app.js';
import { closeByEscape, dialog, openTab, sessionCard, stopSession } from './support/ui.js';
import { joinThroughForm, shot, startGameHarness, type GameHarness } from './game-support.js';

/**
 * Live insight and results (issue 13) in the browser: Live Controls counting phones, displays and
 * answers while three phones play; the split on the display at the reveal; each phone's place;
 * the Results dialog; the CSV downloads. Set MARQUEE_SCREENSHOTS to keep the pictures.
 */
const TITLE = 'Insight Night';
const Q1 = {
  text: 'Which studio made Toy Story?',
  choices: ['Pixar', 'DreamWorks', 'Aardman', 'Laika'],
  correctIndex: 0,
  points: 100,
  timeLimitSeconds: 60,
};

const answer = (page: Page, choice: string) => page.getByTestId('answer-button').filter({ hasText: choice }).click();

describe('live insight and results', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts phones, displays and answers live, shows the split and each place, then the results and CSVs', { timeout: 180_000 }, async () => {
    const { id } = await h.api.seedSession({ title: TITLE, autoRotate: false, items: [{ question: Q1 }, { slide: 'rules' }] });

    // Two phones join before the start, the third once the game runs.
    const [ana, ben, cleo] = await Promise.all([h.phone(), h.phone(), h.phone()]);
    await joinThroughForm(ana.page, id, 'Ana', 'ana@example.com');
    await joinThroughForm(ben.page, id, 'Ben "Quick" Ng', 'ben@example.com');

    const adminContext = await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const admin = await adminContext.newPage();
    admin.setDefaultTimeout(15_000);
    await loginThroughUi(admin, h.server); // the cookie login: downloads are plain links
    const card = sessionCard(admin, TITLE);
    await card.getByRole('button', { name: 'Start' }).click();
    const insight = card.getByTestId('live-insight');
    await insight.getByText('2 phones in the game').waitFor();
    await insight.getByText('0 displays connected').waitFor();
    await insight.getByTestId('live-answered').filter({ hasText: '0 / 2 answered' }).waitFor();
    expect(await insight.getByTestId('live-current-item').innerText()).toBe(Q1.text);
    expect(await insight.getByTestId('live-next-item').innerText()).toBe('Rules Slide');
    expect(await insight.getByTestId('live-time-left').innerText()).toMatch(/^\d:\d\d left$/);

    const display = await h.display(id);
    await display.getByText(Q1.text).waitFor();
    await insight.getByText('1 display connected').waitFor();
    await display.getByTestId('display-answers-in').filter({ hasText: '0 answers in' }).waitFor();

    await joinThroughForm(cleo.page, id, 'Cleo', 'cleo@example.com');
    await insight.getByText('3 phones in the game').waitFor();
    await insight.getByTestId('live-answered').filter({ hasText: '0 / 3 answered' }).waitFor();

    // Answers come in one by one: Live Controls and the display follow. Ana alone is right, so Ben
    // and Cleo tie on 0 and share second place whatever the timing.
    await cleo.page.getByRole('heading', { name: Q1.text }).waitFor();
    await answer(ana.page, 'Pixar');
    await insight.getByTestId('live-answered').filter({ hasText: '1 / 3 answered' }).waitFor();
    await display.getByTestId('display-answers-in').filter({ hasText: '1 answer in' }).waitFor();
    await answer(ben.page, 'DreamWorks');
    await insight.getByTestId('live-answered').filter({ hasText: '2 / 3 answered' }).waitFor();
    expect(await insight.getByRole('progressbar', { name: 'Answers in' }).getAttribute('aria-valuenow')).toBe('2');
    await display.getByTestId('display-answers-in').filter({ hasText: '2 answers in' }).waitFor();
    await shot(admin, 'insight-01-live-controls');
    // Phones never hear the count.
    expect(await ana.page.getByText(/answers? in/).count()).toBe(0);

    // The last answer ends the question: the split goes up on the display, the right choice highlighted.
    await answer(cleo.page, 'Laika');
    await display.getByTestId('display-split').first().waitFor();
    const split = await display.getByTestId('display-choice').evaluateAll((rows) =>
      rows.map((row) => ({ count: row.getAttribute('data-count'), correct: row.hasAttribute('data-correct'), text: row.querySelector('[data-testid="display-split"]')?.textContent })),
    );
    expect(split).toEqual([
      { count: '1', correct: true, text: '133%' },
      { count: '1', correct: false, text: '133%' },
      { count: '0', correct: false, text: '00%' },
      { count: '1', correct: false, text: '133%' },
    ]);
    // Readable from the back row: the counts are as large as the choices' text.
    const countSize = await display.getByTestId('display-split').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(countSize).toBeGreaterThanOrEqual(24);
    await display.getByTestId('display-answers-in').filter({ hasText: '3 answers in' }).waitFor();
    await shot(display, 'insight-02-display-split');

    // Each phone: its place in the room and the gap to the next; the tie shares second place.
    await ana.page.getByTestId('player-rank').filter({ hasText: '#1 of 3' }).waitFor();
    expect(await ana.page.getByTestId('player-next-place').innerText()).toBe("You're in the lead!");
    const anaPoints = Number(await ana.page.getByTestId('player-score').innerText());
    expect(anaPoints).toBeGreaterThanOrEqual(50);
    for (const phone of [ben, cleo]) {
      await phone.page.getByTestId('player-rank').filter({ hasText: '#2 of 3' }).waitFor();
      expect(await phone.page.getByTestId('player-next-place').innerText()).toBe(`${anaPoints} points to the next place`);
    }
    await shot(ben.page, 'insight-03-phone-place');
    await insight.getByTestId('live-answered').waitFor({ state: 'detached' }); // no question open any more

    // Results, during the game: the leaderboard, the question's numbers, a player's answers.
    await card.getByRole('button', { name: 'Results' }).click();
    const results = dialog(admin, `Results: ${TITLE}`);
    const rows = results.getByTestId('results-row');
    await rows.nth(2).waitFor();
    const board = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    expect(board.map((r) => [r[0], r[1], r[4], r[5]])).toEqual([
      ['#1', 'Ana', '1', '1'],
      ['#2', 'Ben "Quick" Ng', '1', '0'],
      ['#2', 'Cleo', '1', '0'],
    ]);
    await results.getByRole('tab', { name: /Questions/ }).click();
    const stats = await results.getByTestId('results-question-stats').innerText();
    expect(stats).toContain('Asked 1×');
    expect(stats).toContain('3 answers');
    expect(stats).toContain('33% correct');
    expect(await results.getByTestId('results-split').evaluateAll((li) => li.map((x) => x.lastElementChild?.textContent))).toEqual([
      '1 · 33%',
      '1 · 33%',
      '0 · 0%',
      '1 · 33%',
    ]);
    await shot(admin, 'insight-04-results');
    await results.getByRole('tab', { name: /Leaderboard/ }).click();
    await results.getByRole('button', { name: 'Cleo' }).click();
    await results.getByTestId('player-answer').filter({ hasText: 'D: Laika' }).waitFor();

    // The leaderboard CSV downloads with a BOM and the names as typed.
    const [download] = await Promise.all([admin.waitForEvent('download'), results.getByTestId('download-results').click()]);
    expect(download.suggestedFilename()).toBe('results-insight-night.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(parse(csv.slice(1))).toEqual([
      ['rank', 'name', 'email', 'points', 'answered', 'correct'],
      ['1', 'Ana', 'ana@example.com', String(anaPoints), '1', '1'],
      ['2', 'Ben "Quick" Ng', 'ben@example.com', '0', '1', '0'],
      ['2', 'Cleo', 'cleo@example.com', '0', '1', '0'],
    ]);
    await closeByEscape(results);

    // After the game: stopped, the results stay.
    await stopSession(card);
    await card.getByTestId('status-badge').filter({ hasText: 'FINISHED' }).waitFor();
    await card.getByRole('button', { name: 'Results' }).click();
    await results.getByText('Everyone who answered, and how each question went.').waitFor();
    await results.getByTestId('results-row').nth(2).waitFor();
    expect(await results.getByTestId('results-row').count()).toBe(3);
    await closeByEscape(results);

    // All players from the Players tab.
    await openTab(admin, 'Players');
    const [players] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('download-players').click()]);
    expect(players.suggestedFilename()).toBe('players.csv');
    const playerRows: string[][] = parse(fs.readFileSync((await players.path())!, 'utf8').slice(1));
    expect(playerRows[0]).toEqual(['name', 'email', 'session', 'points', 'registered_at']);
    expect(playerRows.slice(1).map((r) => [r[0], r[2]]).sort()).toEqual([
      ['Ana', TITLE],
      ['Ben "Quick" Ng', TITLE],
      ['Cleo', TITLE],
    ]);
    await adminContext.close();
  });
});
