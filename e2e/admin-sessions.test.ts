import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { alertDialog, closeByEscape, dialog, expectToast, pickOption, sessionCard, stopSession, texts, waitGone } from './support/ui.js';

let h: WebHarness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('sessions tab', () => {
  it('shows the empty text, then creates a session through the dialog', async () => {
    await h.api.createAuditorium('Screen 7');
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await page.getByText('No sessions yet. Create your first session!').waitFor();

    await page.getByRole('button', { name: 'Create Session' }).click();
    const form = dialog(page, 'Create New Session');
    await form.waitFor();
    const submit = form.getByRole('button', { name: 'Create Session' });
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Session Title').fill('   ');
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Session Title').fill('Opening Night');
    await pickOption(form, 'Auditorium (optional)', 'Screen 7');
    await form.getByLabel('Media Items per Transition').fill('4');
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();

    await expectToast(page, 'Session created successfully');
    await waitGone(form);
    const card = sessionCard(page, 'Opening Night');
    await card.waitFor();
    expect(await card.getByTestId('status-badge').innerText()).toBe('DRAFT');
    expect(await card.innerText()).toContain('Created');
    expect(await card.innerText()).toContain('Screen 7');
    const stored = (await h.api.request<any[]>('GET', '/api/admin/sessions')).find((s) => s.title === 'Opening Night');
    expect(stored).toMatchObject({ mediaItemsPerTransition: 4, status: 'draft' });
  });

  it('edits a session and shows the new title', async () => {
    await h.api.createSession({ title: 'Before Edit' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'Before Edit').getByRole('button', { name: 'Edit' }).click();
    const form = dialog(page, 'Edit Session');
    expect(await form.getByLabel('Session Title').inputValue()).toBe('Before Edit');
    await form.getByLabel('Session Title').fill('After Edit');
    await form.getByLabel('Return Message (optional)').fill('Please come to the theatre');
    await form.getByRole('button', { name: 'Update Session' }).click();
    await expectToast(page, 'Session updated successfully');
    await sessionCard(page, 'After Edit').waitFor();
    expect(await sessionCard(page, 'Before Edit').count()).toBe(0);
  });

  it('duplicates a session as a draft copy', async () => {
    await h.api.createSession({ title: 'Original Quiz' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'Original Quiz').getByRole('button', { name: 'Duplicate' }).click();
    await expectToast(page, 'Session duplicated successfully');
    const copy = sessionCard(page, 'Original Quiz (Copy)');
    await copy.waitFor();
    expect(await copy.getByTestId('status-badge').innerText()).toBe('DRAFT');
  });

  it('deletes a session after confirmation', async () => {
    await h.api.createSession({ title: 'Doomed Session' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'Doomed Session').getByRole('button', { name: 'Delete' }).click();
    const confirm = alertDialog(page, 'Delete Session');
    expect(await confirm.innerText()).toContain('Doomed Session');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Session deleted successfully');
    await waitGone(sessionCard(page, 'Doomed Session'));
  });

  it("shows the server's message when a delete is refused", async () => {
    const session = await h.api.createSession({ title: 'Goes Live Meanwhile' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'Goes Live Meanwhile').getByRole('button', { name: 'Delete' }).click();
    await h.api.request('POST', `/api/admin/sessions/${session.id}/start`);
    await alertDialog(page, 'Delete Session').getByRole('button', { name: 'Delete' }).click();
    const text = await expectToast(page, 'Error');
    expect(text).not.toContain('409');
    expect(text.length).toBeGreaterThan('Error'.length + 5);
    await h.api.request('POST', `/api/admin/sessions/${session.id}/stop`);
  });

  it('starts, stops and restarts a session with toasts, badges, buttons and the live counter', async () => {
    const session = await h.api.createSession({ title: 'Lifecycle Night' });
    const question = await h.api.createQuestion();
    await h.api.addQuestionToSession(session.id, question.id);
    const page = await h.newPage();
    await openDashboard(page, h.api);
    const card = sessionCard(page, 'Lifecycle Night');
    await card.waitFor();
    expect(await page.getByText(/LIVE SESSIONS?$/).count()).toBe(0);

    await card.getByRole('button', { name: 'Start' }).click();
    await expectToast(page, 'Session started');
    await card.getByTestId('status-badge').filter({ hasText: 'LIVE' }).waitFor();
    await page.getByText('1 LIVE SESSION', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Start' }).count()).toBe(0);
    expect(await card.getByText('Live Controls').isVisible()).toBe(true);

    await stopSession(card);
    await expectToast(page, 'Session stopped');
    await card.getByTestId('status-badge').filter({ hasText: 'FINISHED' }).waitFor();
    await waitGone(page.getByText('1 LIVE SESSION', { exact: true }));
    expect(await card.getByRole('button', { name: 'Edit' }).isVisible()).toBe(true);

    await card.getByRole('button', { name: 'Restart' }).click();
    const confirm = alertDialog(page, 'Restart Session');
    await confirm.getByRole('button', { name: 'Restart' }).click();
    await expectToast(page, 'Session restarted. All scores and answers have been cleared.');
    await card.getByTestId('status-badge').filter({ hasText: 'LIVE' }).waitFor();
    await stopSession(card);
    await expectToast(page, 'Session stopped');
  });

  it('counts several live sessions in the header', async () => {
    const a = await h.api.createSession({ title: 'Live A' });
    const b = await h.api.createSession({ title: 'Live B' });
    await h.api.request('POST', `/api/admin/sessions/${a.id}/start`);
    await h.api.request('POST', `/api/admin/sessions/${b.id}/start`);
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await page.getByText('2 LIVE SESSIONS', { exact: true }).waitFor();
    await h.api.request('POST', `/api/admin/sessions/${a.id}/stop`);
    await h.api.request('POST', `/api/admin/sessions/${b.id}/stop`);
  });

  it('shows the join link and its QR code in the Player QR Code dialog', async () => {
    const session = await h.api.createSession({ title: 'QR Night' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'QR Night').getByRole('button', { name: 'QR Code' }).click();
    const qr = dialog(page, 'Player QR Code');
    await qr.getByText('Scan this code to join QR Night').waitFor();
    expect(await qr.getByText('Scan to join the game').isVisible()).toBe(true);
    expect(await qr.getByText('Or manually enter this URL on your phone:').isVisible()).toBe(true);
    const link = qr.getByTestId('join-link');
    await link.filter({ hasText: '/player/' }).waitFor();
    // Signed, as the display's (DESIGN §15).
    expect(await link.innerText()).toMatch(new RegExp(`^${h.server.baseUrl}/player/${session.id}\\?t=\\d+&sig=[0-9a-f]{64}$`));
    const canvas = qr.locator('canvas');
    expect(await canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([300, 300]);
    // Drawn black on white, with a white quiet zone around the code.
    const colours = await canvas.evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      const corner = `${data[0]},${data[1]},${data[2]}`;
      return { seen: [...seen].sort(), corner };
    });
    expect(colours.seen).toEqual(['0,0,0', '255,255,255']);
    expect(colours.corner).toBe('255,255,255');
    await closeByEscape(qr);
  });

  it('opens the display screen of a session in a new tab', async () => {
    const session = await h.api.createSession({ title: 'Display Night' });
    const page = await h.newPage();
    await openDashboard(page, h.api);
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      sessionCard(page, 'Display Night').getByRole('button', { name: 'Display' }).click(),
    ]);
    await tab.waitForURL(/\/display\//);
    expect(new URL(tab.url()).pathname).toBe(`/display/${session.id}`);
    // With the display key that lets the screen show join codes (DESIGN §15).
    expect(new URL(tab.url()).searchParams.get('key')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('lists every session as a card with its title and status', async () => {
    const page = await h.newPage();
    await openDashboard(page, h.api);
    await sessionCard(page, 'Opening Night').waitFor();
    const titles = await texts(page.getByTestId('session-card').locator('h3'));
    const all = (await h.api.request<any[]>('GET', '/api/admin/sessions')).map((s) => s.title);
    expect(titles.sort()).toEqual([...all].sort());
  });
});
