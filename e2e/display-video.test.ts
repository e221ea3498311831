import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GameHarness, startGameHarness } from './game-support.js';

/**
 * A short real video (recorded from a canvas by the browser itself, WebM), to check what a cinema
 * expects of trailers between questions: they start by themselves, silent, and loop.
 */
async function recordWebm(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const ctx = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const done = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 25; frame++) {
      ctx.fillStyle = `hsl(${frame * 14}, 80%, 50%)`;
      ctx.fillRect(0, 0, 160, 90);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    recorder.stop();
    await done;
    return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
  });
  return Buffer.from(bytes);
}

describe('videos on the big screen', () => {
  let harness: GameHarness;
  beforeAll(async () => {
    harness = await startGameHarness();
  });
  afterAll(() => harness?.close());

  it('autoplay muted and loop between questions', async () => {
    const { id } = await harness.api.seedSession({ title: 'Trailer Night', items: [{ mediaBlock: 1 }] });
    const recorder = await harness.display(id);
    const webm = await recordWebm(recorder);
    expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // an EBML (WebM) header

    const { uploadURL } = await harness.api.request<{ uploadURL: string }>('POST', '/api/media/upload', { kind: 'media' });
    const put = await fetch(uploadURL, { method: 'PUT', headers: { 'content-type': 'video/webm' }, body: new Uint8Array(webm) });
    expect(put.ok).toBe(true);
    const filePath = `/media/${new URL(uploadURL).pathname.split('/').pop()}`;
    const media = await harness.api.request<{ id: string }>('POST', '/api/media', { filePath, fileType: 'video', duration: 30 });
    await harness.api.assignMedia(id, media.id);

    const page = await harness.display(id);
    // Before Start the display is the lobby (DESIGN §17): the session's media block plays the video.
    await page.getByTestId('display-lobby').waitFor();
    await harness.api.start(id);
    const video = page.getByTestId('media-video');
    await video.waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="media-video"]');
      return !!v && !v.paused && v.currentTime > 0;
    });
    const state = await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, loop: v.loop, src: v.getAttribute('src') }));
    expect(state).toEqual({ muted: true, loop: true, src: filePath });
  });
});
