import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDashboard } from './support/app.js';
import { dialog, expectToast, sessionCard } from './support/ui.js';
import { joinThroughForm, startGameHarness, type GameHarness } from './game-support.js';

/**
 * The consent-first prize draw from the operator's form to the big screen (issue 16): the join
 * form's box starts unticked, only the player who ticked it can win, and the display shows the
 * winner's name, never an email.
 */
describe('prize draw', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('turns on in the session form, asks for consent at join, draws and shows the name on the display', { timeout: 120_000 }, async () => {
    const admin = await (await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 900 } })).newPage();
    await openDashboard(admin, h.api);
    await admin.getByRole('button', { name: 'Create Session' }).click();
    const form = dialog(admin, 'Create New Session');
    await form.getByLabel('Session Title').fill('Saturday Prize Night');
    await form.getByLabel('Prize Draw').click();
    const submit = form.getByRole('button', { name: 'Create Session' });
    expect(await submit.isDisabled()).toBe(true); // a prize is needed first
    await form.getByLabel('Prize', { exact: true }).fill('A year of free popcorn');
    const consentText = await form.getByLabel('Consent Text').inputValue();
    expect(consentText).toMatch(/prize draw/);
    await submit.click();
    await expectToast(admin, 'Session created successfully');
    const sessions = await h.api.request<{ id: string; title: string; prizeDraw: { enabled: boolean; prize: string } }[]>('GET', '/api/admin/sessions');
    const session = sessions.find((s) => s.title === 'Saturday Prize Night')!;
    expect(session.prizeDraw).toMatchObject({ enabled: true, prize: 'A year of free popcorn' });

    // Two phones: Ana ticks the box, Ben leaves it as it is.
    const [ana, ben] = [await h.phone(), await h.phone()];
    for (const phone of [ana, ben]) {
      await phone.page.goto(`/player/${session.id}`);
      const box = phone.page.getByTestId('prize-consent');
      await box.getByText('Prize: A year of free popcorn').waitFor();
      await box.getByText(consentText).waitFor();
      expect(await phone.page.getByRole('checkbox').isChecked()).toBe(false);
    }
    await ana.page.getByRole('checkbox').check();
    await ana.page.getByLabel('Your Name').fill('Ana');
    await ana.page.getByLabel('Email Address').fill('ana.secret@example.com');
    await ana.page.getByRole('button', { name: 'Join Game' }).click();
    await ana.page.waitForURL(`**/player/${session.id}/game`);
    await joinThroughForm(ben.page, session.id, 'Ben', 'ben.secret@example.com');

    const display = await h.display(session.id);
    await display.getByText('Saturday Prize Night', { exact: true }).waitFor();
    // Only players who answered a question can win (DESIGN §15): both played (stored directly, the
    // game itself is not what this test is about).
    const question = await h.api.createQuestion();
    for (const phone of [ana, ben]) {
      const playerId = (await phone.page.evaluate(() => localStorage.getItem('player_id')))!;
      await h.server.server.deps.store.db
        .insertInto('answers')
        .values({ session_id: session.id, player_id: playerId, question_id: question.id, asking: 1, selected_index: 0, is_correct: 1, points_earned: 10, elapsed_ms: 1000, answered_at: new Date().toISOString() })
        .execute();
    }

    // The draw, from the session card.
    const card = sessionCard(admin, 'Saturday Prize Night');
    await card.getByRole('button', { name: 'Prize Draw' }).click();
    const drawDialog = dialog(admin, 'Prize Draw');
    await drawDialog.getByText('No draws yet.').waitFor();
    await drawDialog.getByLabel('Winners').fill('2');
    await drawDialog.getByRole('button', { name: 'Draw' }).click();
    await expectToast(admin, '1 winner drawn from 1 player');
    const drawn = drawDialog.getByTestId('draw');
    await drawn.getByText('ana.secret@example.com').waitFor();
    expect(await drawn.getByText('Ben').count()).toBe(0);
    await drawn.getByText(/among 1 player$/).waitFor();

    // Drawing again: nobody left who consented.
    await drawDialog.getByRole('button', { name: 'Draw' }).click();
    await expectToast(admin, 'Nobody can win this draw');

    await drawn.getByRole('button', { name: 'Show on display' }).click();
    const winners = display.getByTestId('winners-slide');
    await winners.getByText('And the winner is…').waitFor();
    await winners.getByText('A year of free popcorn').waitFor();
    expect(await winners.getByTestId('winner-names').innerText()).toBe('Ana');
    const screenText = await display.locator('body').innerText();
    expect(screenText).not.toContain('@');
    // Phones never get the winners screen.
    expect(await ana.page.getByTestId('winners-slide').count()).toBe(0);
  });
});
