import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPLAY_VIEWPORT, joinThroughForm, shot, startGameHarness, type GameHarness } from './game-support.js';

/**
 * The auditorium screen (issue 15): put up once, it idles with the next film, picks up the
 * pre-show its showtime starts, shows the game and the final standings, and returns to idle when
 * the film begins. The scheduler runs on a clock the test moves, so no minute is waited out.
 */
const MIN = 60_000;
const Q = { text: 'Which studio made Toy Story?', choices: ['Pixar', 'DreamWorks', 'Aardman', 'Ghibli'], correctIndex: 0, points: 100, timeLimitSeconds: 60 };
const text = (page: Page, value: string) => page.getByText(value, { exact: true });

describe('the auditorium screen', () => {
  let h: GameHarness;
  // Starts at the real time, so the screen's "Today" agrees with the server; moved by the test only.
  const clock = { t: Date.now(), now: () => clock.t };
  beforeAll(async () => {
    h = await startGameHarness({}, { preShows: { clock, intervalMs: 200 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('idles, picks up a pre-show when it starts, shows the game and its final standings, and idles again', { timeout: 120_000 }, async () => {
    const auditorium = await h.api.request<{ id: string }>('POST', '/api/admin/auditoriums', { name: 'Screen 4' });
    const template = await h.api.seedSession({ title: 'Movie Trivia', theme: { backgroundColor: '#1E3A8A' }, items: [{ question: Q }, { slide: 'leaderboard' }] });
    await h.api.request('PUT', `/api/admin/auditoriums/${auditorium.id}`, { preShowSessionId: template.id, preShowLeadMinutes: 20, preShowEndMinutes: 2 });
    // Films at whole minutes an hour and four hours from now, written in UTC.
    const dune = Math.ceil((clock.t + 60 * MIN) / MIN) * MIN;
    const heat = dune + 3 * 60 * MIN;
    for (const [title, at] of [['Dune', dune], ['Heat', heat]] as const) {
      await h.api.request('POST', `/api/admin/auditoriums/${auditorium.id}/showtimes`, { title, startsAt: new Date(at).toISOString() });
    }

    // A projector in Paris: the times read in its local time.
    const context = await h.browser.newContext({ viewport: DISPLAY_VIEWPORT, baseURL: h.server.baseUrl, timezoneId: 'Europe/Paris', locale: 'en-GB' });
    const screen = await context.newPage();
    screen.setDefaultTimeout(20_000);
    await screen.goto(`/display/auditorium/${auditorium.id}`);

    const idle = screen.getByTestId('auditorium-idle');
    await idle.waitFor();
    await text(screen, 'Screen 4').waitFor();
    await text(screen, 'Next showing').waitFor();
    expect(await screen.getByTestId('next-title').innerText()).toBe('Dune');
    const paris = (ms: number) => new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
    expect(await screen.getByTestId('next-time').innerText()).toContain(paris(dune));
    // The template's theme dresses the idle screen.
    expect(await screen.getByTestId('display-screen').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(30, 58, 138)');
    expect(await screen.title()).toBe('Screen 4 · Auditorium screen · Marquee');
    await shot(screen, 'auditorium-01-idle');

    // Showtime − 20 min: the copy goes live and the screen switches to it by itself.
    clock.t = dune - 20 * MIN;
    await text(screen, Q.text).waitFor();
    const showtimes = await h.api.request<{ title: string; preShow: { sessionId: string | null; state: string } }[]>('GET', `/api/admin/auditoriums/${auditorium.id}/showtimes`);
    const copyId = showtimes.find((s) => s.title === 'Dune')!.preShow.sessionId!;
    const copyTitle = `Movie Trivia — Dune ${new Date(dune).toISOString().slice(11, 16)}`; // written in UTC: its time in UTC
    // The room sees the template's title; the long generated one is the operator's (DESIGN §17).
    await screen.locator('header h1').getByText('Movie Trivia', { exact: true }).waitFor();
    expect(await screen.getByText(copyTitle).count()).toBe(0);
    expect((await h.api.request<{ title: string }>('GET', `/api/admin/sessions/${copyId}`)).title).toBe(copyTitle);
    await shot(screen, 'auditorium-02-pre-show');

    // A player joins the pre-show and answers; everyone answered, so the reveal comes at once.
    const phone = await h.phone();
    await joinThroughForm(phone.page, copyId, 'Ana', 'ana@example.com');
    await phone.page.getByTestId('answer-button').filter({ hasText: 'Pixar' }).click();
    await screen.locator('[data-testid="display-choice"][data-correct]').filter({ hasText: 'Pixar' }).waitFor();

    // Showtime − 2 min: stopped; the final standings stay up while the film has not begun.
    clock.t = dune - 2 * MIN;
    await text(screen, 'Final Standings').waitFor();
    await screen.getByTestId('display-screen').getByText('Ana').first().waitFor();
    await shot(screen, 'auditorium-03-final-standings');
    expect((await h.api.request<{ status: string }>('GET', `/api/admin/sessions/${copyId}`)).status).toBe('finished');
    // Still there a poll later: the screen holds its standings until the film begins.
    await screen.waitForResponse((r) => r.url().endsWith(`/api/auditoriums/${auditorium.id}/now`));
    await screen.waitForResponse((r) => r.url().endsWith(`/api/auditoriums/${auditorium.id}/now`));
    expect(await text(screen, 'Final Standings').isVisible()).toBe(true);

    // The film begins: back to idle, now naming the next film.
    clock.t = dune;
    await idle.waitFor();
    expect(await screen.getByTestId('next-title').innerText()).toBe('Heat');
    expect(await screen.getByTestId('next-time').innerText()).toContain(paris(heat));
    await shot(screen, 'auditorium-04-idle-again');
    await context.close();
  });
});
