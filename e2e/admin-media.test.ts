import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { smallMp4, tinyPng } from '../server/domain/media/testing/fixtures.js';
import { openDashboard, startWebHarness, type WebHarness } from './support/app.js';
import { alertDialog, dialog, expectToast, openTab, waitGone } from './support/ui.js';

let h: WebHarness;
let page: Page;
let sessionA: { id: string };

beforeAll(async () => {
  h = await startWebHarness();
  sessionA = await h.api.createSession({ title: 'Session A' });
  // A long title: the assignment list must still show every session's status badge.
  await h.api.createSession({ title: 'Session B, the extraordinarily long Saturday afternoon Hollywood classics championship' });
  page = await h.newPage();
  await openDashboard(page, h.api);
  await openTab(page, 'Media');
  await page.getByRole('heading', { name: 'Media Library' }).waitFor();
});
afterAll(async () => {
  await h?.close();
});

const uploadDialog = () => dialog(page, 'Upload Media');
/** The hidden file input of one Uppy dashboard, as a drop or a file pick would fill it. */
const fileInput = (slot: string): Locator =>
  uploadDialog().getByRole('group', { name: slot }).locator('input[type=file]').first();
const cards = () => page.getByTestId('media-card');

async function upload(slot: string, name: string, mimeType: string, buffer: Buffer, confirmation: string) {
  await fileInput(slot).setInputFiles({ name, mimeType, buffer });
  await expectToast(page, confirmation);
}

// One library, built up step by step as an operator would.
describe('media library', () => {
  it('shows the empty text', async () => {
    await page.getByText('No media uploaded yet. Upload images or videos to display between questions.').waitFor();
  });

  it('uploads display and phone images through the uploader and saves the media', async () => {
    await page.getByRole('button', { name: 'Upload Media' }).click();
    const save = uploadDialog().getByRole('button', { name: 'Save Media' });
    await fileInput('Display Media (required)').waitFor({ state: 'attached' });
    expect(await save.isDisabled()).toBe(true);
    expect(await uploadDialog().getByLabel('Duration (seconds)').inputValue()).toBe('3');

    await upload('Display Media (required)', 'poster.png', 'image/png', tinyPng(64, 36), 'Display media uploaded');
    await upload('Phone Media (optional)', 'poster-phone.png', 'image/png', tinyPng(36, 64), 'Phone media uploaded');
    await uploadDialog().getByLabel('Promotional Link (optional)').fill('https://example.com/offer');
    await uploadDialog().getByLabel('Duration (seconds)').fill('5');
    expect(await save.isEnabled()).toBe(true);
    await save.click();

    const text = await expectToast(page, 'Media created');
    expect(text).toContain('Image has been added to the media library.');
    await waitGone(uploadDialog());
    const card = cards().first();
    await card.waitFor();
    expect(await card.innerText()).toContain('Image');
    expect(await card.innerText()).toContain('https://example.com/offer');
    expect(await card.getByLabel('Duration (seconds)').inputValue()).toBe('5');
    const src = await card.locator('img').first().getAttribute('src');
    expect(src).toMatch(/^\/media\/[0-9a-f-]{36}$/);
    // The stored file is really served at that path.
    const served = await page.evaluate(async (path) => {
      const res = await fetch(path);
      return [res.status, res.headers.get('content-type')];
    }, src!);
    expect(served).toEqual([200, 'image/png']);
    const [stored] = await h.api.request<any[]>('GET', '/api/media');
    expect(stored).toMatchObject({ fileType: 'image', duration: 5, promotionalLink: 'https://example.com/offer' });
    expect(stored.phoneFilePath).toMatch(/^\/media\//);
  });

  it('uploads a video, shown with player controls', async () => {
    await page.getByRole('button', { name: 'Upload Media' }).click();
    await fileInput('Display Media (required)').waitFor({ state: 'attached' });
    await upload('Display Media (required)', 'trailer.mp4', 'video/mp4', smallMp4(), 'Display media uploaded');
    await uploadDialog().getByRole('button', { name: 'Save Media' }).click();
    const text = await expectToast(page, 'Media created');
    expect(text).toContain('Video has been added to the media library.');
    await waitGone(uploadDialog());
    const video = cards().filter({ hasText: 'Video' }).locator('video');
    await video.waitFor();
    expect(await video.getAttribute('controls')).not.toBeNull();
  });

  it('tells the operator when the server refuses an upload', async () => {
    await page.getByRole('button', { name: 'Upload Media' }).click();
    await fileInput('Display Media (required)').waitFor({ state: 'attached' });
    // Declared as a PNG but not one: the server sniffs the bytes and refuses it.
    await fileInput('Display Media (required)').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is plain text, not an image at all'),
    });
    const text = await expectToast(page, 'Upload failed');
    expect(text).toContain('Failed to upload display media. Please try again.');
    expect(await uploadDialog().getByRole('button', { name: 'Save Media' }).isDisabled()).toBe(true);
    // The dialog's own Cancel, at the bottom (the uploader has Cancel buttons of its own above it).
    await uploadDialog().getByRole('button', { name: 'Cancel', exact: true }).last().click();
    await waitGone(uploadDialog());
  });

  it('saves a changed duration on blur, and ignores zero', async () => {
    const card = cards().filter({ hasText: 'Image' });
    const field = card.getByLabel('Duration (seconds)');
    await field.fill('8');
    await field.blur();
    await expectToast(page, 'Duration updated');
    const image = (await h.api.request<any[]>('GET', '/api/media')).find((m) => m.fileType === 'image');
    expect(image.duration).toBe(8);

    await field.fill('0');
    await field.blur();
    expect(await field.inputValue()).toBe('8');
    expect((await h.api.request<any[]>('GET', '/api/media')).find((m) => m.fileType === 'image').duration).toBe(8);
  });

  it('assigns media to sessions and removes the assignment, sending only the differences', async () => {
    const card = cards().filter({ hasText: 'Image' });
    await card.getByRole('button', { name: 'Assign to Sessions' }).click();
    const save = card.getByRole('button', { name: 'Save Assignments' });
    expect(await card.getByText('DRAFT').count()).toBe(2);
    const cardBox = (await card.boundingBox())!;
    for (const badge of await card.getByTestId('status-badge').all()) {
      const box = (await badge.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    await card.getByLabel(/Session A/).click();
    await save.click();
    await expectToast(page, 'Assignments updated');
    const mediaId = (await h.api.request<any[]>('GET', '/api/media')).find((m) => m.fileType === 'image').id;
    const assigned = await h.api.request<any[]>('GET', `/api/admin/sessions/${sessionA.id}/media`);
    expect(assigned.map((a) => a.mediaId)).toEqual([mediaId]);
    expect(await card.getByRole('checkbox', { name: /Session A/ }).getAttribute('aria-checked')).toBe('true');

    await card.getByLabel(/Session A/).click();
    await save.click();
    await expectToast(page, 'Assignments updated');
    expect(await h.api.request<any[]>('GET', `/api/admin/sessions/${sessionA.id}/media`)).toEqual([]);
  });

  it('deletes media after confirmation', async () => {
    const before = await cards().count();
    const card = cards().filter({ hasText: 'Video' });
    await card.getByRole('button', { name: /^Delete media/ }).click();
    await alertDialog(page, 'Delete Media').getByRole('button', { name: 'Delete' }).click();
    const text = await expectToast(page, 'Media deleted');
    expect(text).toContain('The media has been removed from all sessions.');
    await waitGone(card);
    expect(await cards().count()).toBe(before - 1);
  });
});
