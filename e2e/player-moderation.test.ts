import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinThroughForm, startGameHarness, type GameHarness } from './game-support.js';
import { openDashboard } from './support/app.js';
import { alertDialog, sessionCard } from './support/ui.js';

/**
 * The host removes a troublemaker during a question (DESIGN §15): the name leaves the big
 * screen's Top Players, and the phone says it was removed by the host instead of reconnecting.
 */
const Q1 = { text: 'Who directed Jaws?', choices: ['George Lucas', 'Ridley Scott', 'Steven Spielberg', 'John Carpenter'], correctIndex: 2, points: 100, timeLimitSeconds: 60 };
const Q2 = { text: 'Which film won the first Best Picture?', choices: ['Wings', 'Sunrise', 'The Jazz Singer', 'Metropolis'], correctIndex: 0, points: 100, timeLimitSeconds: 60 };

const topPlayers = (page: Page) => page.getByTestId('top-player').allInnerTexts();
const pick = (page: Page, choice: string) => page.getByTestId('answer-button').filter({ hasText: choice }).click();

describe('kicking a player during a question', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('takes the name off the display and tells the phone why', { timeout: 120_000 }, async () => {
    const { id } = await h.api.seedSession({ title: 'Moderated Night', items: [{ question: Q1 }, { question: Q2 }] });
    const display = await h.display(id);
    const [ana, troll] = await Promise.all([h.phone(), h.phone()]);
    await joinThroughForm(ana.page, id, 'Ana', 'ana@example.com');
    await joinThroughForm(troll.page, id, 'Trouble Maker', 'troll@example.com');

    // Both sockets in the room before the start: otherwise Ana's answer alone could close the question.
    for (const [phone, name] of [[ana, 'Ana'], [troll, 'Trouble Maker']] as const) await phone.page.getByText(`You're in, ${name}!`, { exact: true }).waitFor();
    await h.api.start(id);
    for (const phone of [ana, troll]) {
      await phone.page.getByText(Q1.text, { exact: true }).waitFor();
      await pick(phone.page, 'Steven Spielberg');
    }
    // Both answered: the question closes early and both names reach the footer.
    await expect.poll(async () => (await topPlayers(display)).join(' | '), { timeout: 20_000 }).toContain('Trouble Maker');

    // During the next question the host kicks the troublemaker from Live Controls (with a confirmation).
    const admin = await (await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 900 } })).newPage();
    await openDashboard(admin, h.api);
    const card = sessionCard(admin, 'Moderated Night');
    await card.getByTestId('live-player').filter({ hasText: 'Trouble Maker' }).waitFor();
    await display.getByText(Q2.text, { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Kick Trouble Maker' }).click();
    await alertDialog(admin, 'Kick Player').getByRole('button', { name: 'Kick' }).click();
    await expect.poll(async () => (await topPlayers(display)).join(' | '), { timeout: 5_000 }).not.toContain('Trouble Maker');
    expect((await topPlayers(display)).join(' | ')).toContain('Ana');
    const removed = troll.page.getByTestId('player-removed');
    await removed.waitFor({ timeout: 5_000 });
    expect(await removed.innerText()).toContain('Removed by the host');
    // The phone of the other player plays on; Live Controls' leaderboard drops the name too.
    await ana.page.getByText(Q2.text, { exact: true }).waitFor();
    await card.getByTestId('live-player').filter({ hasText: 'Trouble Maker' }).waitFor({ state: 'detached' });
  });
});
