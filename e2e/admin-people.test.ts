import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { alertDialog, dialog, eventually, expectToast, openTab, texts, waitGone } from './support/ui.js';

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

async function open(tab: string): Promise<Page> {
  const page = await h.newPage();
  await openDashboard(page, h.api);
  await openTab(page, tab);
  return page;
}

describe('players tab', () => {
  it('shows the empty text without players', async () => {
    const page = await open('Players');
    await page.getByRole('heading', { name: 'Player Management' }).waitFor();
    await page.getByText('No players registered yet').waitFor();
  });

  it('searches by name or email, case-insensitively, and deletes with the spec confirmation', async () => {
    const session = await h.api.createSession({ title: 'Player Night' });
    await h.api.registerPlayer(session.id, 'Ada Lovelace', 'ada@example.com');
    await h.api.registerPlayer(session.id, 'Grace Hopper', 'grace@navy.example');
    await h.api.registerPlayer(session.id, 'Alan Turing', 'alan@example.org');
    const page = await open('Players');
    const cards = page.getByTestId('player-card');
    await cards.nth(2).waitFor();
    const ada = cards.filter({ hasText: 'Ada Lovelace' });
    expect(await ada.innerText()).toContain('ada@example.com');
    expect(await ada.innerText()).toMatch(/Joined \S+/);

    const search = page.getByLabel('Search players by name or email');
    await search.fill('GRACE');
    await eventually(async () => (await cards.count()) === 1);
    expect(await cards.first().innerText()).toContain('Grace Hopper');
    await search.fill('EXAMPLE.ORG');
    await eventually(async () => (await cards.count()) === 1);
    expect(await cards.first().innerText()).toContain('Alan Turing');
    await search.fill('nobody-here');
    await page.getByText('No players found matching your search').waitFor();
    await search.fill('');
    await eventually(async () => (await cards.count()) === 3);

    await ada.getByRole('button', { name: 'Delete player Ada Lovelace' }).click();
    const confirm = alertDialog(page, 'Delete Player');
    expect(await confirm.getByText(/Are you sure/).innerText()).toBe(
      'Are you sure you want to delete player "Ada Lovelace"? This will also delete all their answers and scores.',
    );
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Player deleted');
    await waitGone(ada);
    expect((await texts(cards.locator('p.font-semibold'))).sort()).toEqual(['Alan Turing', 'Grace Hopper']);
  });
});

describe('auditoriums tab', () => {
  it('shows the empty text, then creates an auditorium (Create disabled while blank)', async () => {
    const page = await open('Auditoriums');
    await page.getByText('No auditoriums yet. Create your first auditorium!').waitFor();
    await page.getByRole('button', { name: 'Add Auditorium' }).click();
    const form = dialog(page, 'Add Auditorium');
    const create = form.getByRole('button', { name: 'Create', exact: true });
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel('Auditorium Name').fill('   ');
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel('Auditorium Name').fill('  Screen 3  ');
    await create.click();
    await expectToast(page, 'Auditorium created');
    await waitGone(form);
    const card = page.getByRole('article', { name: 'Auditorium Screen 3' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Created \S+/);
  });
});
