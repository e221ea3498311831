import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { alertDialog, dialog, eventually, expectToast, openTab, pickOption, texts, waitGone } from './support/ui.js';

let h: WebHarness;
let sessionA: { id: string };
beforeAll(async () => {
  h = await startWebHarness();
  sessionA = await h.api.createSession({ title: 'Session A' });
  const finished = await h.api.createSession({ title: 'Finished Session' });
  await h.api.request('POST', `/api/admin/sessions/${finished.id}/start`);
  await h.api.request('POST', `/api/admin/sessions/${finished.id}/stop`);
  await h.api.createSession({ title: 'Session B' });
});
afterAll(async () => {
  await h?.close();
});

async function openBank(): Promise<Page> {
  const page = await h.newPage();
  await openDashboard(page, h.api);
  await openTab(page, 'Questions');
  await page.getByRole('heading', { name: 'Question Bank' }).waitFor();
  return page;
}
const cards = (page: Page) => page.getByTestId('question-card');
const card = (page: Page, text: string) => cards(page).filter({ hasText: text });

describe('question bank', () => {
  it('shows the empty text, refuses blank fields, then creates a question', async () => {
    const page = await openBank();
    await page.getByText('No questions found. Create your first question to get started!').waitFor();
    await page.getByRole('button', { name: 'Add Question' }).click();
    const form = dialog(page, 'Add Question');
    expect(await form.getByLabel('Points').inputValue()).toBe('10');
    expect(await form.getByLabel('Time Limit (seconds)').inputValue()).toBe('30');
    expect(await form.getByLabel('Question Text').getAttribute('rows')).toBe('3');

    await form.getByLabel('Question Text').fill('Which studio made Toy Story?');
    await form.getByLabel('Choice A', { exact: true }).fill('DreamWorks');
    await form.getByLabel('Choice B', { exact: true }).fill('Pixar');
    await form.getByLabel('Choice C', { exact: true }).fill('   ');
    await form.getByRole('button', { name: 'Create Question' }).click();
    const text = await expectToast(page, 'Validation Error');
    expect(text).toContain('Please fill in all fields');
    expect(await form.isVisible()).toBe(true);

    await form.getByLabel('Choice C', { exact: true }).fill('Laika');
    await form.getByLabel('Choice D', { exact: true }).fill('  Ghibli  ');
    await form.getByLabel('Choice B is correct').check();
    // Categories: Enter and the Add button add, duplicates and blanks are ignored, a click removes.
    const category = form.getByLabel('Categories (optional)');
    await category.fill(' Animation ');
    await category.press('Enter');
    await category.fill('Animation');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await category.fill('Oops');
    await category.press('Enter');
    await category.fill('90s');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('button', { name: 'Remove category Oops' }).click();
    expect(await texts(form.getByRole('list', { name: 'Categories' }).getByRole('listitem'))).toEqual(['Animation', '90s']);
    await form.getByLabel('Points').fill('25');
    await form.getByLabel('Time Limit (seconds)').fill('20');
    await form.getByRole('button', { name: 'Create Question' }).click();

    await expectToast(page, 'Question created');
    await waitGone(form);
    const created = card(page, 'Which studio made Toy Story?');
    await created.waitFor();
    const body = await created.innerText();
    for (const part of ['#1', 'Animation', '90s', '25 points', '20s', 'A.', 'DreamWorks', 'B.', 'Pixar', 'D.', 'Ghibli']) {
      expect(body).toContain(part);
    }
    expect(await created.locator('li', { hasText: '✓ Correct' }).innerText()).toContain('Pixar');
    const [stored] = await h.api.request<any[]>('GET', '/api/admin/questions');
    expect(stored).toMatchObject({ choices: ['DreamWorks', 'Pixar', 'Laika', 'Ghibli'], correctIndex: 1, mediaId: null });
  });

  it('edits a question', async () => {
    await h.api.createQuestion({ text: 'Edit me please', categories: ['Temp'] });
    const page = await openBank();
    await card(page, 'Edit me please').getByRole('button', { name: /^Edit question/ }).click();
    const form = dialog(page, 'Edit Question');
    expect(await form.getByLabel('Question Text').inputValue()).toBe('Edit me please');
    await form.getByLabel('Question Text').fill('Edited question text');
    await form.getByLabel('Choice D is correct').check();
    await form.getByRole('button', { name: 'Update Question' }).click();
    await expectToast(page, 'Question updated');
    const edited = card(page, 'Edited question text');
    await edited.waitFor();
    expect(await edited.locator('li', { hasText: '✓ Correct' }).innerText()).toContain('Metropolis');
  });

  it('filters by category and by session', async () => {
    const inA = await h.api.createQuestion({ text: 'Only in session A', categories: ['Sci-Fi'] });
    await h.api.addQuestionToSession(sessionA.id, inA.id);
    const page = await openBank();
    await card(page, 'Only in session A').waitFor();
    const total = await cards(page).count();
    expect(total).toBeGreaterThan(1);

    await pickOption(page, 'Filter by category', 'Sci-Fi');
    await eventually(async () => (await cards(page).count()) === 1);
    expect(await cards(page).first().innerText()).toContain('Only in session A');
    await pickOption(page, 'Filter by category', 'All categories');
    await eventually(async () => (await cards(page).count()) === total);

    await pickOption(page, 'Filter by session', 'Session B');
    await page.getByText('No questions found. Create your first question to get started!').waitFor();
    await pickOption(page, 'Filter by session', 'Session A');
    await eventually(async () => (await cards(page).count()) === 1);
    expect(await cards(page).first().innerText()).toContain('Only in session A');
    await pickOption(page, 'Filter by session', 'All questions');
    await eventually(async () => (await cards(page).count()) === total);
  });

  it('assigns a question to a session and removes it again; finished sessions are not offered', async () => {
    await h.api.createQuestion({ text: 'Assign me' });
    const page = await openBank();
    await card(page, 'Assign me').getByRole('button', { name: /^Assign question/ }).click();
    const assign = dialog(page, 'Assign Question');
    await assign.getByText('Not assigned to any session yet.').waitFor();
    await assign.getByLabel('Assign to Session').click();
    const options = await texts(page.getByRole('option'));
    expect(options.sort()).toEqual(['Session A', 'Session B']);
    await page.getByRole('option', { name: 'Session B' }).click();
    await assign.getByRole('button', { name: 'Assign', exact: true }).click();
    await expectToast(page, 'Question assigned to session');
    await assign.getByRole('button', { name: 'Remove from Session B' }).waitFor();
    const links = await h.api.request<any[]>('GET', `/api/admin/sessions/${(await sessionId('Session B'))}/questions`);
    expect(links).toHaveLength(1);

    await assign.getByRole('button', { name: 'Remove from Session B' }).click();
    await expectToast(page, 'Question removed from session');
    await assign.getByText('Not assigned to any session yet.').waitFor();
  });

  it('deletes a question after confirmation', async () => {
    await h.api.createQuestion({ text: 'Delete this one' });
    const page = await openBank();
    await card(page, 'Delete this one').getByRole('button', { name: /^Delete question/ }).click();
    await alertDialog(page, 'Delete Question').getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Question deleted');
    await waitGone(card(page, 'Delete this one'));
  });
});

async function sessionId(title: string): Promise<string> {
  const all = await h.api.request<any[]>('GET', '/api/admin/sessions');
  return all.find((s) => s.title === title).id;
}
