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
    // The panel decides after its first answer: look only once that has come.
    const firstPoll = page.waitForResponse((response) => response.url().endsWith('/api/admin/live') && response.ok());
    await openDashboard(page, h.api);
    await firstPoll;
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
    // No screen is up yet: the game needs a look, and so does the other; the heading counts them.
    expect(await row.getByTestId('live-now-health').innerText()).toBe('Check');
    expect(await row.getByTestId('live-now-why').innerText()).toBe('no display');
    expect(await panel.getByTestId('live-now-warn-count').innerText()).toBe('2 Check');
    expect(await panel.getByTestId('live-now-down-count').count()).toBe(0);

    // A display comes up: the row turns OK by itself.
    const display = await openDisplay(first);
    await row.getByTestId('live-now-health').filter({ hasText: 'OK' }).waitFor();
    expect(await row.getByTestId('live-now-why').count()).toBe(0);
    expect(await row.locator('td').nth(5).innerText()).toBe('1'); // Displays
    expect(await panel.getByTestId('live-now-warn-count').innerText()).toBe('1 Check');
    display.close();

    // Both stopped: the panel goes away.
    for (const session of await h.api.request<{ id: string; status: string }[]>('GET', '/api/admin/sessions')) {
      if (session.status === 'live') await h.api.request('POST', `/api/admin/sessions/${session.id}/stop`);
    }
    await panel.waitFor({ state: 'detached' });
  });

  it("takes the operator from a game's row to its card in the sessions list, focus and all", async () => {
    const target = 'Jump Target Screen 7';
    const targetId = await liveSession(target);
    // Newer sessions come first in the list: these push the live game's card below the fold.
    for (let i = 1; i <= 9; i++) await h.api.createSession({ title: `Spare Draft ${i}` });
    const page = await h.newPage({ width: 1280, height: 720 });
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const card = page.getByRole('article', { name: `Session ${target}` });
    await card.waitFor();
    const viewportHeight = page.viewportSize()!.height;
    expect((await card.boundingBox())!.y).toBeGreaterThanOrEqual(viewportHeight);

    await panel.getByTestId('live-now-row').filter({ hasText: target }).getByRole('button', { name: target }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Session ${target}`);
    // Its top in view, below the dashboard's sticky header rather than under it.
    const shown = (await card.boundingBox())!;
    const header = (await page.locator('header').first().boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(shown.y).toBeLessThan(viewportHeight / 2);
    await h.api.request('POST', `/api/admin/sessions/${targetId}/stop`);
  });

  it('says when its figures stopped coming, keeps the last ones dimmed, and recovers by itself', async () => {
    await liveSession('Late Show Screen 9');
    const page = await h.newPage();
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const row = panel.getByTestId('live-now-row').filter({ hasText: 'Late Show Screen 9' });
    await row.waitFor();
    const stale = panel.getByTestId('live-now-stale');
    expect(await stale.count()).toBe(0);

    // The overview fails (a database away behind the server, say): the rows must not look current.
    await page.route('**/api/admin/live', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Storage is unavailable' }) }),
    );
    await stale.waitFor(); // within one poll
    expect(await stale.innerText()).toMatch(/^Not updated since .+: Storage is unavailable$/);
    expect(await row.getByTestId('live-now-health').innerText()).toBe('Check');
    expect(await panel.getByRole('group', { name: 'Live games' }).getAttribute('class')).toContain('opacity-60');

    // It answers again: the note goes, the rows are current.
    await page.unroute('**/api/admin/live');
    await stale.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
  });

  it('shows that the overview could not be loaded rather than hiding as if nothing were live', async () => {
    const page = await h.newPage();
    await page.route('**/api/admin/live', (route) => route.abort('connectionrefused'));
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const stale = panel.getByTestId('live-now-stale');
    await stale.waitFor();
    expect(await stale.innerText()).toBe('The live games could not be loaded: the server did not answer');
    // No count it does not know.
    expect(await panel.getByRole('heading').innerText()).toBe('Live now');
  });

  it('names why a game is down, and counts it beside the heading', async () => {
    const page = await h.newPage();
    // The server's answer as it is when no instance runs a live game (live.test.ts covers the server's side).
    const down = { sessionId: 'orphan', title: 'Orphan Screen 3', auditorium: null, status: 'live', item: 'idle', questionNumber: null, questions: 4, phones: 0, displays: 0, answered: 0, reconnectsLastMinute: 0, health: 'down' };
    await page.route('**/api/admin/live', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([down]) }));
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const row = panel.getByTestId('live-now-row').filter({ hasText: 'Orphan Screen 3' });
    await row.waitFor();
    expect(await row.getByTestId('live-now-health').innerText()).toBe('Down');
    expect(await row.getByTestId('live-now-why').innerText()).toBe('not running');
    expect(await panel.getByTestId('live-now-down-count').innerText()).toBe('1 Down');
  });

  it("keeps a chain's evening in a box of its own, header in view, and narrows it to the games that need a look", async () => {
    const page = await h.newPage();
    // Three hundred pre-shows, a few of them in trouble (live.test.ts covers the server's side).
    const games = Array.from({ length: 300 }, (_, i) => ({
      sessionId: `chain-${i}`,
      title: `Screen ${String(i + 1).padStart(3, '0')} pre-show`,
      auditorium: `Auditorium ${(i % 12) + 1}`,
      status: 'live',
      item: 'question',
      questionNumber: 2,
      questions: 8,
      phones: 40,
      displays: i % 50 === 7 ? 0 : 1,
      answered: 12,
      reconnectsLastMinute: 0,
      health: i === 150 ? 'down' : i % 50 === 7 ? 'warn' : 'ok',
    }));
    let answer = games;
    await page.route('**/api/admin/live', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }));
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const rows = panel.getByTestId('live-now-row');
    await rows.nth(299).waitFor({ state: 'attached' });

    // The rows scroll inside a box no taller than 28rem: the sessions list below stays a short scroll away.
    const box = panel.getByTestId('live-now-scroll');
    const size = await box.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }));
    expect(size.client).toBeLessThanOrEqual(28 * 16);
    expect(size.scroll).toBeGreaterThan(size.client * 5);
    // Scrolled to the end, the column names are still at the top of the box.
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await rows.filter({ hasText: 'Screen 300 pre-show' }).waitFor();
    const boxTop = (await box.boundingBox())!.y;
    const headerTop = (await box.locator('thead').boundingBox())!.y;
    expect(Math.abs(headerTop - boxTop)).toBeLessThan(2);

    // One switch: only the games in trouble, Down and Check alike, in their usual order.
    await panel.getByLabel('Only games that need a look').check();
    await expect.poll(() => rows.count()).toBe(7);
    const badges = await rows.getByTestId('live-now-health').allInnerTexts();
    expect(new Set(badges)).toEqual(new Set(['Check', 'Down']));
    expect(await rows.first().innerText()).toContain('Screen 008 pre-show');
    // It follows the polls: once every game is fine, it says so instead of showing an empty table.
    answer = games.map((game) => ({ ...game, displays: 1, health: 'ok' }));
    await panel.getByTestId('live-now-all-ok').waitFor(); // within one poll
    expect(await panel.getByTestId('live-now-all-ok').innerText()).toBe('Every live game is OK.');
    expect(await rows.count()).toBe(0);
    // Switched off, every game is back.
    await panel.getByLabel('Only games that need a look').uncheck();
    await expect.poll(() => rows.count()).toBe(300);
  });

  it('keeps each game\'s health and why in view on a phone, the other figures a sideways scroll away', async () => {
    const page = await h.newPage({ width: 390, height: 844 });
    const games = ['Phone Check Screen 1', 'Phone Down Screen 2', 'Phone OK Screen 3'].map((title, i) => ({
      sessionId: `phone-${i}`,
      title,
      auditorium: 'Auditorium with a long name',
      status: 'live',
      item: 'question',
      questionNumber: 3,
      questions: 10,
      phones: 95,
      displays: i === 0 ? 0 : 1,
      answered: 40,
      reconnectsLastMinute: 2,
      health: ['warn', 'down', 'ok'][i],
    }));
    await page.route('**/api/admin/live', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(games) }));
    await openDashboard(page, h.api);
    const panel = page.getByRole('region', { name: /Live now/ });
    const box = panel.getByTestId('live-now-scroll');
    const rows = panel.getByTestId('live-now-row');
    await rows.nth(2).waitFor();
    // The table is wider than the phone: it scrolls inside its box, not the page.
    const widths = await box.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Unscrolled, every row shows its badge and why whole, inside the box.
    const inView = (await box.boundingBox())!;
    for (const testId of ['live-now-health', 'live-now-why']) {
      for (const element of await rows.getByTestId(testId).all()) {
        const shown = (await element.boundingBox())!;
        expect(shown.x).toBeGreaterThanOrEqual(inView.x);
        expect(shown.x + shown.width).toBeLessThanOrEqual(inView.x + inView.width);
      }
    }
    expect(await rows.getByTestId('live-now-why').allInnerTexts()).toEqual(['no display', 'not running']);
  });
});
