import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tinyPng } from '../server/domain/media/testing/fixtures.js';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { dialog, expectToast, sessionCard, waitGone } from './support/ui.js';

let h: WebHarness;
let page: Page;
let session: { id: string };

beforeAll(async () => {
  h = await startWebHarness();
  session = await h.api.createSession({ title: 'Themed Night' });
  page = await h.newPage();
  await openDashboard(page, h.api);
});
afterAll(async () => {
  await h?.close();
});

const editor = () => dialog(page, 'Theme Editor');
const storedTheme = async () => (await h.api.request<any>('GET', `/api/admin/sessions/${session.id}`)).theme;

async function openEditor() {
  await sessionCard(page, 'Themed Night').getByRole('button', { name: 'Theme' }).click();
  await editor().waitFor();
}

describe('theme editor', () => {
  it('loads a preset (with the note to click Save Theme), previews it, and saves it', async () => {
    await openEditor();
    await editor().getByRole('button', { name: 'Retro Arcade' }).click();
    const text = await expectToast(page, 'Preset loaded');
    expect(text).toContain('Click Save Theme');
    expect(await editor().getByLabel('Primary Color', { exact: true }).inputValue()).toBe('#FF00FF');
    expect(await editor().getByLabel('Question Text Size').innerText()).toBe('Extra Large');
    expect(await editor().getByRole('switch', { name: 'Backdrop Blur' }).getAttribute('aria-checked')).toBe('false');
    // The live preview draws with the preset's colours before anything is saved.
    const preview = editor().getByRole('figure', { name: 'Theme preview' });
    expect(await preview.getByText('Top Players').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 0, 255)');
    expect((await storedTheme())?.primaryColor).not.toBe('#FF00FF');

    await editor().getByRole('button', { name: 'Save Theme' }).click();
    await expectToast(page, 'Theme updated successfully');
    await waitGone(editor());
    expect(await storedTheme()).toMatchObject({
      primaryColor: '#FF00FF',
      questionTextSize: 'xlarge',
      questionFontWeight: 'black',
      backgroundOverlay: 'dark',
      backdropBlur: false,
    });
  });

  it('edits single fields with a live preview', async () => {
    await openEditor();
    expect(await editor().getByLabel('Primary Color', { exact: true }).inputValue()).toBe('#FF00FF');
    await editor().getByLabel('Primary Color', { exact: true }).fill('#123456');
    const preview = editor().getByRole('figure', { name: 'Theme preview' });
    expect(await preview.getByText('Top Players').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(18, 52, 86)');
    await editor().getByLabel('Question Font Weight').click();
    await page.getByRole('option', { name: 'Normal' }).click();
    await editor().getByRole('button', { name: 'Save Theme' }).click();
    await expectToast(page, 'Theme updated successfully');
    expect(await storedTheme()).toMatchObject({ primaryColor: '#123456', questionFontWeight: 'normal' });
  });

  it('uploads a logo through the image dialog, which clears and closes on success', async () => {
    await openEditor();
    await editor().getByRole('button', { name: 'Upload', exact: true }).first().click();
    const upload = dialog(page, 'Upload Logo');
    await upload.getByText('PNG or SVG with a transparent background is recommended.', { exact: false }).first().waitFor();
    const input = upload.locator('input[type=file]').first();
    await input.waitFor({ state: 'attached' });
    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng(32, 32) });
    await expectToast(page, 'Upload successful');
    await waitGone(upload);
    const thumbnail = editor().getByRole('img', { name: 'Logo preview' });
    await thumbnail.waitFor();
    const src = await thumbnail.getAttribute('src');
    expect(src).toMatch(/^\/media\/[0-9a-f-]{36}$/);

    await editor().getByRole('button', { name: 'Save Theme' }).click();
    await expectToast(page, 'Theme updated successfully');
    expect((await storedTheme()).logo).toBe(src);
  });

  it("shows the server's message when a theme is refused", async () => {
    await openEditor();
    await editor().getByLabel('Text Color', { exact: true }).fill('not a colour; {}');
    await editor().getByRole('button', { name: 'Save Theme' }).click();
    const text = await expectToast(page, 'Error');
    expect(text).toMatch(/colou?r/i);
    expect(text).not.toMatch(/^Error\s*400/);
    expect(await editor().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await waitGone(editor());
  });
});
