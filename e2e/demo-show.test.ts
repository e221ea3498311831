import WebSocket from 'ws';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTIONS, DEMO_TITLE } from '../server/domain/demo/demo-content.js';
import { openDashboard } from './support/app.js';
import { joinThroughForm, startGameHarness, type GameHarness } from './game-support.js';

/**
 * A newcomer's first start (issue 16): the demo show is on the dashboard, Start plays it on the
 * display and a phone, through all ten questions to the final standings. The operator's Next
 * (an admin socket, as Live Controls send it) skips slides and pauses so the test stays short.
 */
interface AdminState {
  type: 'session_state';
  phase: string;
  question: { text: string } | null;
  slide: { slideType: string } | null;
  session: { autoRotate: boolean };
}

class AdminFeed {
  states: AdminState[] = [];
  questionEnds = 0;
  private waiters: (() => void)[] = [];
  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'session_state') this.states.push(message);
      if (message.type === 'question_end') this.questionEnds++;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
  static async open(origin: string, sessionId: string, token: string): Promise<AdminFeed> {
    const socket = new WebSocket(`ws://${new URL(origin).host}/ws?${new URLSearchParams({ sessionId, type: 'admin', token })}`);
    const feed = new AdminFeed(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return feed;
  }
  get latest(): AdminState | undefined {
    return this.states.at(-1);
  }
  /** Waits for a state after the `from`-th that matches. */
  async waitFor(match: (s: AdminState) => boolean, from = 0, timeoutMs = 20_000): Promise<AdminState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.states.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching state; phases seen: ${this.states.map((s) => s.phase).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  /** Pause: items run to their end and wait for Next, so only the test moves the game on (no race with the timer). */
  async pause(): Promise<void> {
    const from = this.states.length;
    this.socket.send(JSON.stringify({ type: 'admin_pause' }));
    await this.waitFor((s) => s.session.autoRotate === false, from);
  }
  /** Next, then wait until the game has moved on. */
  async next(): Promise<void> {
    const from = this.states.length;
    this.socket.send(JSON.stringify({ type: 'admin_next_question' }));
    await this.waitFor(() => true, from);
  }
  close() {
    this.socket.close();
  }
}

describe('the demo show on a first start', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness({ DEMO_CONTENT: 'true' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is started from the dashboard and played to the final standings on a display and a phone', { timeout: 240_000 }, async () => {
    const admin: Page = await (await h.browser.newContext({ baseURL: h.server.baseUrl, viewport: { width: 1280, height: 800 } })).newPage();
    await openDashboard(admin, h.api);
    const card = admin.getByRole('article', { name: `Session ${DEMO_TITLE}` });
    await card.waitFor();
    const sessions = await h.api.request<{ id: string; title: string }[]>('GET', '/api/admin/sessions');
    expect(sessions.map((s) => s.title)).toEqual([DEMO_TITLE]);
    const id = sessions[0]!.id;

    const display = await h.display(id);
    await display.getByText(DEMO_TITLE, { exact: true }).waitFor();
    // The gold theme of the demo is on the big screen.
    expect(await display.getByTestId('display-screen').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');

    await card.getByRole('button', { name: 'Start' }).click();
    await card.getByRole('button', { name: 'Stop' }).waitFor();
    const { token } = await h.api.login();
    const feed = await AdminFeed.open(h.server.baseUrl, id, token);
    await feed.pause();
    const phone = await h.phone();
    await joinThroughForm(phone.page, id, 'Ana', 'ana@example.com');

    try {
      let score = 0;
      for (const question of DEMO_QUESTIONS) {
        // Skip slides and pauses until this question is up.
        await feed.waitFor(() => true);
        while (!(feed.latest!.phase === 'question' && feed.latest!.question?.text === question.text)) {
          expect(feed.latest!.phase).not.toBe('finished');
          await feed.next();
        }
        await phone.page.getByText(question.text, { exact: true }).waitFor();
        await display.getByText(question.text, { exact: true }).waitFor();
        await phone.page.getByTestId('answer-button').filter({ hasText: question.choices[question.correctIndex]! }).click();
        await phone.page.getByText(/^Correct! \+\d+ points$/).waitFor();
        // The question closes early: everyone connected has answered.
        await expect.poll(() => feed.questionEnds, { timeout: 20_000 }).toBe(DEMO_QUESTIONS.indexOf(question) + 1);
        const shown = Number(await phone.page.getByTestId('player-score').innerText());
        expect(shown).toBeGreaterThan(score);
        score = shown;
      }
      // After the last question: the final leaderboard slide with Ana on top.
      while (!(feed.latest!.phase === 'slide' && feed.latest!.slide?.slideType === 'leaderboard')) await feed.next();
      const standings = display.getByRole('region', { name: 'Current Standings' });
      await standings.waitFor();
      await standings.getByText('Ana', { exact: true }).waitFor();
      await standings.getByText(String(score), { exact: true }).waitFor();
      // Ten correct answers of 100 points each: between half and all of 1,000.
      expect(score).toBeGreaterThanOrEqual(500);
      expect(score).toBeLessThanOrEqual(1000);
    } finally {
      feed.close();
    }
  });
});
