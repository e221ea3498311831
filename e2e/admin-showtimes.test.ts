import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from './game-support.js';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { dialog, eventually, expectToast, openTab, pickOption, seriousViolations, waitGone } from './support/ui.js';

/** The Auditoriums tab's showtimes, import, pre-show settings, state and screen link (issue 15). */
let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

/** A datetime-local value for tomorrow at `time` in the browser's zone, and how the page writes that moment. */
async function tomorrowAt(page: Page, time: string): Promise<{ input: string; iso: string; clock: string }> {
  return page.evaluate((hhmm) => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    const pad = (n: number) => String(n).padStart(2, '0');
    const input = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${hhmm}`;
    const at = new Date(input);
    return { input, iso: at.toISOString(), clock: at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) };
  }, time);
}
const clockOf = (page: Page, iso: string) => page.evaluate((v) => new Date(v).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }), iso);

describe('auditoriums tab: showtimes and pre-shows', () => {
  it('sets a pre-show, adds and imports showtimes, shows the state and the screen link', { timeout: 90_000 }, async () => {
    const auditorium = await h.api.createAuditorium('Screen 9');
    await h.api.createSession({ title: 'Movie Trivia' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await openTab(page, 'Auditoriums');
    const card: Locator = page.getByRole('article', { name: 'Auditorium Screen 9' });
    await card.getByText('No pre-show session chosen').waitFor();
    expect(await card.getByTestId('auditorium-state').innerText()).toBe('Idle');
    await card.getByText('No showtimes yet. Add one or import a file.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Pre-show settings: the template, 15 minutes before, ending 2 before.
    await card.getByRole('button', { name: 'Pre-show Settings' }).click();
    const settings = dialog(page, 'Pre-show Settings');
    await pickOption(settings, 'Pre-show session', 'Movie Trivia');
    expect(await settings.getByLabel('Starts (minutes before the film)').inputValue()).toBe('20');
    expect(await settings.getByLabel('Ends (minutes before the film)').inputValue()).toBe('2');
    await settings.getByLabel('Starts (minutes before the film)').fill('2');
    await settings.getByLabel('Ends (minutes before the film)').fill('2');
    expect(await settings.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true); // must stop after it starts
    await settings.getByLabel('Starts (minutes before the film)').fill('15');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Pre-show settings saved');
    await waitGone(settings);
    await card.getByText('Pre-show: Movie Trivia · starts 15 min, ends 2 min before each film').waitFor();

    // A showtime typed in local time: listed with its pre-show, and the state names the next one.
    const dune = await tomorrowAt(page, '19:30');
    await card.getByLabel('Film').fill('Dune');
    await card.getByLabel('Starts at (your local time)').fill(dune.input);
    await card.getByRole('button', { name: 'Add Showtime' }).click();
    await expectToast(page, 'Showtime added');
    const rows = card.getByTestId('showtime');
    await rows.first().waitFor();
    const preStart = await clockOf(page, new Date(Date.parse(dune.iso) - 15 * 60_000).toISOString());
    const preEnd = await clockOf(page, new Date(Date.parse(dune.iso) - 2 * 60_000).toISOString());
    expect((await rows.first().innerText()).replace(/\s+/g, ' ')).toBe(`Tomorrow ${dune.clock} Dune Pre-show ${preStart}–${preEnd}`);
    expect(await card.getByTestId('auditorium-state').innerText()).toBe(`Next pre-show at ${preStart}`);
    const stored = await h.api.request<{ startsAt: string }[]>('GET', `/api/admin/auditoriums/${auditorium.id}/showtimes`);
    expect(stored.map((s) => s.startsAt)).toEqual([dune.iso]);

    // An overlapping one is refused with the server's words.
    const clash = await tomorrowAt(page, '19:40');
    await card.getByLabel('Film').fill('Heat');
    await card.getByLabel('Starts at (your local time)').fill(clash.input);
    await card.getByRole('button', { name: 'Add Showtime' }).click();
    await expectToast(page, 'overlaps the pre-show of "Dune"');
    expect(await rows.count()).toBe(1);

    // Import: a bad file shows every problem with its line and stores nothing; a good one imports.
    await card.getByRole('button', { name: 'Import Showtimes' }).click();
    const importer = dialog(page, 'Import Showtimes');
    await importer.getByLabel('Showtime file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('title,starts_at\nAlien,2030-01-15T19:00\n,2030-01-16T19:00Z\n') });
    await importer.getByRole('alert').filter({ hasText: 'Nothing was imported. 2 problems in the file' }).waitFor();
    expect(await importer.getByTestId('import-error').allInnerTexts()).toEqual([
      expect.stringMatching(/^2\s+starts_at "2030-01-15T19:00" has no time zone/),
      expect.stringMatching(/^3\s+title is empty/),
    ]);
    await importer.getByLabel('Showtime file').setInputFiles({ name: 'week.csv', mimeType: 'text/csv', buffer: Buffer.from('title,starts_at\nAlien,2030-01-15T19:00+01:00\n') });
    await expectToast(page, '1 showtime imported');
    await waitGone(importer);
    await eventually(async () => (await rows.count()) === 2);
    expect(await rows.nth(1).innerText()).toContain('Alien');
    await shot(page, 'admin-auditoriums-showtimes');

    // The screen link: one address for the projector.
    await card.getByRole('button', { name: 'Screen Link' }).click();
    const link = dialog(page, 'Auditorium Screen');
    // With the auditorium's display key (DESIGN §15).
    await eventually(async () => (await link.getByTestId('screen-link').innerText()).includes(`/display/auditorium/${auditorium.id}?key=`));
    await link.getByRole('img', { name: /QR code for .*\/display\/auditorium\// }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await link.getByRole('button', { name: 'Close' }).first().click();
    await waitGone(link);

    // Delete.
    await card.getByRole('button', { name: 'Delete showtime Alien' }).click();
    await expectToast(page, 'Showtime deleted');
    await eventually(async () => (await rows.count()) === 1);
  });
});
