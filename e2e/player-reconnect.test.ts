import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinThroughForm, shot, startGameHarness, type GameHarness } from './game-support.js';

/**
 * Dropping off the network mid-question (issue 6 "Done when"): a phone goes offline, picks,
 * comes back; the pick is sent once the socket is back, exactly once, and after a reload the
 * phone is restored to its locked pick. The display drops and recovers too.
 */
const QUESTION = { text: 'Which studio made Spirited Away?', choices: ['Pixar', 'Studio Ghibli', 'Aardman', 'DreamWorks'], correctIndex: 1, timeLimitSeconds: 20 };

const text = (page: Page, value: string) => page.getByText(value, { exact: true });

/** Counts the answers a page puts on the wire, across reconnects and reloads. */
function countSubmissions(page: Page): () => number {
  let count = 0;
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      if (String(payload).includes('"submit_answer"')) count++;
    });
  });
  return () => count;
}

/** Picks the phone sent over HTTP (DESIGN §14): requests started, whether or not they got through. */
function countHttpPicks(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/player/answer') count++;
  });
  return () => count;
}

describe('reconnecting phones and display', () => {
  let h: GameHarness;
  beforeAll(async () => {
    h = await startGameHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a pick made offline is sent once when the phone is back, and survives a reload', { timeout: 90_000 }, async () => {
    const { id } = await h.api.seedSession({ title: 'Anime Night', items: [{ question: QUESTION }] });
    const display = await h.display(id);
    await display.getByTestId('display-lobby').waitFor();
    const [ana, ben] = await Promise.all([h.phone(), h.phone()]);
    const submissions = countSubmissions(ana.page);
    const httpPicks = countHttpPicks(ana.page);
    await Promise.all([joinThroughForm(ana.page, id, 'Ana', 'ana@example.com'), joinThroughForm(ben.page, id, 'Ben', 'ben@example.com')]);
    await text(ana.page, "You're in, Ana!").waitFor();
    await text(ben.page, "You're in, Ben!").waitFor();

    await h.api.start(id);
    await text(ana.page, QUESTION.text).waitFor();
    await text(display, QUESTION.text).waitFor();

    // Offline: the phone says so, and a pick locks at once but cannot go out.
    await ana.context.setOffline(true);
    await ana.page.getByTestId('connection-note').getByText(/offline/).waitFor();
    await ana.page.getByTestId('answer-button').filter({ hasText: 'Studio Ghibli' }).click();
    // Honest wording: the pick is on this phone only until the socket is back (DESIGN §17).
    await text(ana.page, "Saved — it will be sent when you're back online").waitFor();
    expect(await ana.page.getByTestId('answer-button').evaluateAll((b) => b.every((x) => (x as HTMLButtonElement).disabled))).toBe(true);
    await shot(ana.page, 'phone-offline-pick');
    await ana.page.waitForTimeout(1500);
    expect(submissions()).toBe(0);
    // Meanwhile it keeps trying over HTTP too, on fresh connections (refused here: the phone is offline).
    expect(httpPicks()).toBeGreaterThanOrEqual(2);

    // The display drops too, keeps its picture, and says it is reconnecting.
    await display.context().setOffline(true);
    await display.getByTestId('connection-badge').waitFor();
    await text(display, QUESTION.text).waitFor();
    await shot(display, 'display-reconnecting');

    // Back online: the socket returns and the pick goes out, once.
    await ana.context.setOffline(false);
    await display.context().setOffline(false);
    await ana.page.getByTestId('connection-note').waitFor({ state: 'detached' });
    await display.getByTestId('connection-badge').waitFor({ state: 'detached' });
    await expect.poll(submissions, { timeout: 5000 }).toBe(1);
    await text(ana.page, 'Answer submitted! Waiting for results...').waitFor();
    const httpPicksBack = httpPicks();
    await ana.page.waitForTimeout(1500);
    expect(submissions()).toBe(1);
    // Confirmed: no more tries over HTTP.
    expect(httpPicks()).toBe(httpPicksBack);

    // A reload mid-question: the server's state restores the lock and the pick, nothing is resent.
    await ana.page.reload();
    await text(ana.page, QUESTION.text).waitFor();
    await text(ana.page, 'Answer submitted! Waiting for results...').waitFor();
    const chosen = ana.page.locator('[data-testid="answer-button"][data-chosen]');
    expect(await chosen.innerText()).toContain('Studio Ghibli');
    expect(await ana.page.getByTestId('answer-button').evaluateAll((b) => b.every((x) => (x as HTMLButtonElement).disabled))).toBe(true);
    expect(submissions()).toBe(1);

    // Ben answers, everyone has: the question closes and Ana's one answer is scored.
    await ben.page.getByTestId('answer-button').filter({ hasText: 'Pixar' }).click();
    await ana.page.locator('[data-testid="answer-button"][data-result="correct"]').waitFor();
    const line = await ana.page.getByText(/^Correct! \+\d+ points$/).innerText();
    const points = Number(/\+(\d+)/.exec(line)![1]);
    expect(points).toBeGreaterThanOrEqual(5);
    expect(points).toBeLessThanOrEqual(10);
    expect(Number(await ana.page.getByTestId('player-score').innerText())).toBe(points);
    await display.locator('[data-testid="display-choice"][data-correct]').filter({ hasText: 'Studio Ghibli' }).waitFor();
    expect(await display.getByTestId('top-player').first().innerText()).toMatch(new RegExp(`Ana\\s+${points}$`));
    expect(await ana.page.getByTestId('toast').count()).toBe(0);
    expect(submissions()).toBe(1);
    await shot(ana.page, 'phone-after-reconnect-result');
  });

  it('a question reaching the socket the phone gave up on is shown before its replacement opens', { timeout: 90_000 }, async () => {
    const second = { ...QUESTION, text: 'Who directed Paprika?', choices: ['Satoshi Kon', 'Mamoru Hosoda', 'Makoto Shinkai', 'Isao Takahata'], correctIndex: 0 };
    // Held after each reveal: the operator's Next below is what brings the second question.
    const { id } = await h.api.seedSession({ title: 'Weak Signal Night', autoRotate: false, items: [{ question: QUESTION }, { question: second }] });
    const cleo = await h.phone();
    // The phone's first socket goes through a switch that can go quiet both ways, as a weak
    // signal does (TCP keeps the socket open); every later dial hangs in its handshake.
    let quiet = false;
    let dials = 0;
    const replacements: WebSocketRoute[] = [];
    await cleo.page.routeWebSocket(/\/ws\?/, (ws) => {
      dials++;
      if (dials > 1) {
        replacements.push(ws);
        return new Promise<void>(() => undefined); // never connected, never opened
      }
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        if (!quiet) server.send(message);
      });
      server.onMessage((message) => {
        if (!quiet) ws.send(message);
      });
    });
    await joinThroughForm(cleo.page, id, 'Cleo', 'cleo@example.com');
    await text(cleo.page, "You're in, Cleo!").waitFor();
    await h.api.start(id);
    await text(cleo.page, QUESTION.text).waitFor();

    // Quiet: the pick is lost on the socket, the phone gives it up (silent) and dials a new one,
    // which hangs; the pick gets through over HTTP.
    quiet = true;
    const overHttp = cleo.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/player/answer' && r.status() === 202);
    await cleo.page.getByTestId('answer-button').filter({ hasText: 'Studio Ghibli' }).click();
    await overHttp;
    await expect.poll(() => replacements.length).toBeGreaterThanOrEqual(1);

    // The old socket comes back to life; the next question travels on it and is shown, while the
    // replacement is still in its handshake.
    quiet = false;
    const admin = await h.api.adminSocket(id);
    admin.next();
    await text(cleo.page, second.text).waitFor();
    // Fresh choices at once: none still fading out of the last reveal's green.
    const backgrounds = await cleo.page.getByTestId('answer-button').evaluateAll((buttons) => buttons.map((b) => getComputedStyle(b).backgroundColor));
    expect(backgrounds).toHaveLength(4);
    expect(new Set(backgrounds).size).toBe(1);
    await cleo.page.getByTestId('connection-note').getByText('Reconnecting...').waitFor();
    await shot(cleo.page, 'phone-question-on-retired-socket');
    expect(dials).toBe(1 + replacements.length);
    admin.close();
  });
});
