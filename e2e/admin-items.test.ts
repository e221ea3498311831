import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { dialog, eventually, expectToast, pickOption, sessionCard, texts, waitGone } from './support/ui.js';

let h: WebHarness;
let page: Page;
const TITLE = 'Items Night';

beforeAll(async () => {
  h = await startWebHarness();
  await h.api.createSession({ title: TITLE });
  await h.api.createQuestion({ text: 'Who composed the Jaws theme?', categories: ['Music'] });
  await h.api.createQuestion({ text: 'Which film features HAL 9000?', categories: ['Film'] });
  await h.api.createQuestion({ text: 'Who directed Psycho?', categories: ['Film', 'Directors'] });
  page = await h.newPage();
  await openDashboard(page, h.api);
  await sessionCard(page, TITLE).getByRole('button', { name: 'Questions' }).click();
  await manage().getByText('No items in this session yet. Add questions, slides or media blocks.').waitFor();
});
afterAll(async () => {
  await h?.close();
});

const manage = () => dialog(page, 'Manage Questions');
const items = () => manage().getByTestId('session-item');
const itemTexts = async () => texts(items());

async function addSlide(menuLabel: string) {
  await manage().getByRole('button', { name: 'Add Slide' }).click();
  await page.getByRole('menuitem', { name: menuLabel, exact: true }).click();
}

// The steps build on each other, as an operator preparing one session would.
describe('manage questions: the session item list', () => {
  it('adds questions picked from the bank, filtered by category, one call each', async () => {
    await manage().getByRole('button', { name: 'Add Questions' }).click();
    const add = manage().getByRole('button', { name: /^Add Selected/ });
    await manage().getByText('Who composed the Jaws theme?').waitFor();
    expect(await add.isDisabled()).toBe(true);

    await pickOption(manage(), 'Category', 'Film');
    expect(await manage().getByText('Who composed the Jaws theme?').count()).toBe(0);
    await manage().getByLabel('Which film features HAL 9000?').click();
    await pickOption(manage(), 'Category', 'All categories');
    await manage().getByLabel('Who composed the Jaws theme?').click();
    expect(await add.innerText()).toBe('Add Selected (2)');
    await add.click();

    await expectToast(page, '2 questions added to session');
    await items().nth(1).waitFor();
    const list = await itemTexts();
    expect(list).toHaveLength(2);
    expect(list.some((t) => t.includes('Which film features HAL 9000?') && t.includes('Film') && t.includes('10 pts') && t.includes('30s'))).toBe(true);
  });

  it('offers only questions not yet in the session', async () => {
    await manage().getByRole('button', { name: 'Add Questions' }).click();
    await manage().getByText('Who directed Psycho?').waitFor();
    expect(await manage().getByText('Which film features HAL 9000?').count()).toBe(0);
    expect(await manage().getByText('Who composed the Jaws theme?').count()).toBe(0);
    await manage().getByLabel('Who directed Psycho?').click();
    await manage().getByRole('button', { name: 'Add Selected (1)' }).click();
    await expectToast(page, '1 question added to session');
    await items().nth(2).waitFor();
  });

  it('adds a media block of 3 and edits its count inline', async () => {
    await manage().getByRole('button', { name: 'Add Media Block' }).click();
    await expectToast(page, 'Media block added to session');
    const block = items().filter({ hasText: 'Media Block' });
    await block.getByText('3 items').waitFor();

    await block.getByRole('button', { name: /Edit media count/ }).click();
    await block.getByLabel('Media items').fill('7');
    await block.getByRole('button', { name: 'Cancel' }).click();
    expect(await block.innerText()).toContain('3 items');

    await block.getByRole('button', { name: /Edit media count/ }).click();
    await block.getByLabel('Media items').fill('7');
    await block.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Media block updated');
    await block.getByText('7 items').waitFor();

    // Out of range is brought back to 1..20.
    await block.getByRole('button', { name: /Edit media count/ }).click();
    await block.getByLabel('Media items').fill('99');
    await block.getByRole('button', { name: 'Save' }).click();
    await block.getByText('20 items').waitFor();
  });

  it('adds intro, rules, break and leaderboard slides from the Add Slide menu', async () => {
    for (const [menu, label] of [
      ['Intro', 'Intro'],
      ['Rules', 'Rules'],
      ['Break', 'Break'],
      ['Leaderboard', 'Leaderboard'],
    ]) {
      await addSlide(menu);
      await expectToast(page, 'Slide added to session');
      const slide = items().filter({ hasText: `${label} Slide` });
      await slide.waitFor();
      expect(await slide.innerText()).toContain(`${label} slide will be displayed`);
    }
  });

  it('adds a join slide with its text; Cancel restores the default; blank text cannot be added', async () => {
    await addSlide('Join Slide (QR Code)');
    const join = dialog(page, 'Add Join Slide');
    const text = join.getByLabel('Slide Text');
    expect(await text.inputValue()).toBe('Scan to Join!');
    expect(await text.getAttribute('placeholder')).toBe('Scan to Join!');
    expect(await join.getByText('This text appears above the QR code.').isVisible()).toBe(true);
    await text.fill('   ');
    expect(await join.getByRole('button', { name: 'Add Slide' }).isDisabled()).toBe(true);
    await text.fill('Something else');
    await join.getByRole('button', { name: 'Cancel' }).click();
    await waitGone(join);

    await addSlide('Join Slide (QR Code)');
    expect(await dialog(page, 'Add Join Slide').getByLabel('Slide Text').inputValue()).toBe('Scan to Join!');
    await dialog(page, 'Add Join Slide').getByLabel('Slide Text').fill('Grab your phone!');
    await dialog(page, 'Add Join Slide').getByRole('button', { name: 'Add Slide' }).click();
    await expectToast(page, 'Slide added to session');
    await waitGone(dialog(page, 'Add Join Slide'));
    const slide = items().filter({ hasText: 'Join Slide' });
    expect(await slide.innerText()).toContain('Grab your phone!');
    expect(await items().count()).toBe(9);
  });

  it('moves items up and down, with up disabled first and down disabled last', async () => {
    const count = await items().count();
    expect(await items().first().getByRole('button', { name: 'Move item 1 up' }).isDisabled()).toBe(true);
    expect(await items().last().getByRole('button', { name: `Move item ${count} down` }).isDisabled()).toBe(true);

    // Compare without the position numbers, which stay 1..n.
    const body = (t: string) => t.replace(/^\d+\s*/, '');
    const before = (await itemTexts()).map(body);
    await items().first().getByRole('button', { name: 'Move item 1 down' }).click();
    await eventually(async () => body((await itemTexts())[0]) === before[1]);
    expect(body((await itemTexts())[1])).toBe(before[0]);

    // A slide moves through the item endpoint.
    await items().last().getByRole('button', { name: `Move item ${count} up` }).click();
    await eventually(async () => body((await itemTexts())[count - 2]) === before[count - 1]);
    expect(body((await itemTexts())[count - 1])).toBe(before[count - 2]);
  });

  it('removes a question and a slide from the session', async () => {
    const question = items().filter({ hasText: 'Who directed Psycho?' });
    await question.getByRole('button', { name: /^Remove item/ }).click();
    await expectToast(page, 'Question removed from session');
    await waitGone(question);

    const slide = items().filter({ hasText: 'Break Slide' });
    await slide.getByRole('button', { name: /^Remove item/ }).click();
    await expectToast(page, 'Item removed from session');
    await waitGone(slide);
    expect(await items().count()).toBe(7);
    expect((await itemTexts()).map((t) => t.charAt(0))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });
});
