/**
 * The "Live now" panel (DESIGN §18): every live game at the top of the Sessions tab, shown only
 * while something is live, following the games by itself (it polls every 2 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

async function liveSession(title: string): Promise<string> {
  const session = await h.api.createSession({ title, autoRotate: false });
  const question = await h.api.createQuestion({ text: `${title}: which film opened the season?`, timeLimitSeconds: 60 });
  await h.api.addQuestionToSession(session.id, question.id);
  await h.api.request('POST', `/api/admin/sessions/${session.id}/start`);
  return session.id;
}

/** A display screen put up for the session (a plain socket: the panel counts displays). */
function openDisplay(sessionId: string): Promise<WebSocket> {
  const ws = new WebSocket(`${h.server.baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams({ type: 'display', sessionId })}`);
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve(ws));
    ws.once('error', reject);
  });
}

describe('the Live now panel', () => {
  it('is absent while nothing is live, then lists every live game and follows it without a reload', async () => {
    await h.api.createSession({ title: 'Draft Only' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await page.getByText('Draft Only').first().waitFor();
    const panel = page.getByRole('region', { name: /Live now/ });
    expect(await panel.count()).toBe(0);
    // Five tabs stay five: the panel is part of the Sessions tab.
    expect(await page.getByRole('tab').count()).toBe(5);

    const first = await liveSession('Matinee Screen 2');
    await liveSession('Evening Screen 5');
    await panel.waitFor(); // within one poll
    const rows = panel.getByTestId('live-now-row');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const row = rows.filter({ hasText: 'Matinee Screen 2' });
    expect(await row.innerText()).toContain('Question 1 of 1');
    // No screen is up yet: the game needs a look.
    expect(await row.getByTestId('live-now-health').innerText()).toBe('Check');

    // A display comes up: the row turns OK by itself.
    const display = await openDisplay(first);
    await row.getByTestId('live-now-health').filter({ hasText: 'OK' }).waitFor();
    expect(await row.locator('td').nth(4).innerText()).toBe('1');
    display.close();

    // Both stopped: the panel goes away.
    for (const session of await h.api.request<{ id: string; status: string }[]>('GET', '/api/admin/sessions')) {
      if (session.status === 'live') await h.api.request('POST', `/api/admin/sessions/${session.id}/stop`);
    }
    await panel.waitFor({ state: 'detached' });
  });
});
