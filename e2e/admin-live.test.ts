import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { expectToast, sessionCard, stopSession } from './support/ui.js';

let h: WebHarness;
let page: Page;
let sessionId: string;
const TITLE = 'Steering Night';

beforeAll(async () => {
  h = await startWebHarness();
  const session = await h.api.createSession({ title: TITLE, autoRotate: true });
  sessionId = session.id;
  const q1 = await h.api.createQuestion({ text: 'First live question?', timeLimitSeconds: 60 });
  const q2 = await h.api.createQuestion({ text: 'Second live question?', timeLimitSeconds: 60 });
  await h.api.addQuestionToSession(sessionId, q1.id);
  await h.api.addQuestionToSession(sessionId, q2.id);
  page = await h.newPage();
  await openDashboard(page, h.api);
});
afterAll(async () => {
  await h?.close();
});

const card = () => sessionCard(page, TITLE);
const counter = () => card().getByTestId('live-counter');
const autoPlay = (): Locator => card().getByRole('switch', { name: 'Auto-Play Mode' });

describe('live controls', () => {
  it('appear when the session goes live and follow the running question', async () => {
    expect(await card().getByText('Live Controls', { exact: true }).count()).toBe(0);
    await card().getByRole('button', { name: 'Start' }).click();
    await expectToast(page, 'Session started');
    await card().getByText('Connected', { exact: true }).waitFor();
    await counter().filter({ hasText: 'Question 1 of 2' }).waitFor();
    expect(await card().getByRole('button', { name: 'Pause' }).isVisible()).toBe(true);
    expect(await autoPlay().getAttribute('aria-checked')).toBe('true');
  });

  it('Next question moves the game on, as the display shows', async () => {
    const display = await h.newPage();
    await display.goto(`/display/${sessionId}`);
    await display.getByText('First live question?').waitFor();

    // Next ends question 1 now; a transition may come between the two questions.
    await card().getByRole('button', { name: 'Next Question' }).click();
    await counter().filter({ hasNotText: 'Question 1 of 2' }).waitFor();
    if ((await counter().innerText()) === 'No active question') {
      await card().getByRole('button', { name: 'Next Question' }).click();
    }
    await counter().filter({ hasText: 'Question 2 of 2' }).waitFor();
    await display.getByText('Second live question?').waitFor();
    await display.close();
  });

  it('Pause turns auto-play off and the button into Resume; Resume turns it back on', async () => {
    await card().getByRole('button', { name: 'Pause' }).click();
    await card().getByRole('button', { name: 'Resume' }).waitFor();
    expect(await autoPlay().getAttribute('aria-checked')).toBe('false');

    await card().getByRole('button', { name: 'Resume' }).click();
    await card().getByRole('button', { name: 'Pause' }).waitFor();
    expect(await autoPlay().getAttribute('aria-checked')).toBe('true');
  });

  it('the Auto-Play Mode toggle switches auto-play from the keyboard', async () => {
    await autoPlay().focus();
    await page.keyboard.press('Space');
    await card().getByRole('button', { name: 'Resume' }).waitFor();
    expect(await autoPlay().getAttribute('aria-checked')).toBe('false');
    await page.keyboard.press('Space');
    await card().getByRole('button', { name: 'Pause' }).waitFor();
  });

  it('shows when it is offline and reconnects by itself', async () => {
    await page.context().setOffline(true);
    await card().getByText('Offline', { exact: true }).waitFor();
    expect(await card().getByRole('button', { name: 'Next Question' }).isDisabled()).toBe(true);
    await page.context().setOffline(false);
    await card().getByText('Connected', { exact: true }).waitFor();
    expect(await card().getByRole('button', { name: 'Next Question' }).isEnabled()).toBe(true);
  });

  it('disappear when the session is stopped', async () => {
    await stopSession(card());
    await expectToast(page, 'Session stopped');
    await card().getByTestId('status-badge').filter({ hasText: 'FINISHED' }).waitFor();
    expect(await card().getByText('Live Controls', { exact: true }).count()).toBe(0);
  });
});
