import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GameHarness, startGameHarness, waitForStyle } from './game-support.js';

/** An operator fixing the theme or the title during the show sees the big screen follow at once. */
describe('display follows session edits without a reload', () => {
  let harness: GameHarness;
  beforeAll(async () => {
    harness = await startGameHarness();
  });
  afterAll(() => harness?.close());

  it('restyles and renames the live display when the admin saves', async () => {
    const { id } = await harness.api.seedSession({ title: 'Friday Night Trivia', items: [{ slide: 'intro' }] });
    const page = await harness.display(id);
    await page.getByText('Friday Night Trivia').waitFor();
    await waitForStyle(page, '[data-testid="display-screen"]', '--mq-primary', '#E74C52');
    let loads = 0;
    page.on('load', () => loads++);

    await harness.api.request('PUT', `/api/admin/sessions/${id}`, { theme: { primaryColor: '#00AAFF' } });
    await waitForStyle(page, '[data-testid="display-screen"]', '--mq-primary', '#00AAFF');
    await harness.api.request('PUT', `/api/admin/sessions/${id}`, { title: 'Saturday Late Show' });
    await page.getByText('Saturday Late Show').waitFor();
    expect(loads).toBe(0);
  });
});
