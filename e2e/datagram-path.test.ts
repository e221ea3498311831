import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/testing/server.js';
import { BUILT_WEB_DIR, GameApi, PHONE_VIEWPORT, joinThroughForm, shot } from './game-support.js';
import { launchBrowser } from './support/browser.js';

/**
 * The datagram path (docs/REALTIME.md "The datagram path") in a real Chromium: a phone that
 * reported a round trip gets a WebRTC data channel beside its socket; then its socket loses the
 * signal both ways (TCP keeps it open and holds what it carries), it cannot dial a new one and its
 * picks over HTTP fail. The question still appears, the tap is still counted and the phone says
 * so, because both travelled on the path. When the signal comes back the result shows.
 *
 * Every phone that reports a round trip gets a path here (RTC_MIN_RTT_MS 0). The server's only
 * candidate is 127.0.0.1: Chromium gathers on loopback only with --allow-loopback-in-peer-connection
 * (without it the checks still reach 127.0.0.1 from the machine's other address, when it has one).
 * The phone sends no candidates of its own, so its mDNS names need no unmasking: the server learns
 * its address from its checks.
 */
const QUESTION = {
  text: 'Which studio made My Neighbor Totoro?',
  choices: ['Pixar', 'Studio Ghibli', 'Aardman', 'Laika'],
  correctIndex: 1,
  // Long enough that the question is still up on a loaded machine: it closes when the one player has answered.
  timeLimitSeconds: 45,
};
const COUNTED = 'Answer submitted! Waiting for results...'; // phoneMoments DELIVERY_TEXT.counted, SPEC's player screen

const text = (page: Page, value: string) => page.getByText(value, { exact: true });
const asText = (message: string | Buffer) => (typeof message === 'string' ? message : message.toString('utf8'));
const isQuestionState = (frame: string) => frame.includes('"type":"session_state"') && frame.includes('"phase":"question"');

/** What the phone's data channel carries, both ways, recorded in the page without changing it. */
function recordThePath(): void {
  const w = window as unknown as { __path: { received: string[]; sent: string[] }; RTCPeerConnection: typeof RTCPeerConnection };
  const record = { received: [] as string[], sent: [] as string[] };
  w.__path = record;
  const Native = w.RTCPeerConnection;
  if (typeof Native === 'undefined') return;
  w.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      this.addEventListener('datachannel', (event) => {
        event.channel.addEventListener('message', (message) => record.received.push(String(message.data)));
      });
    }
  };
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (this: RTCDataChannel, data: Parameters<RTCDataChannel['send']>[0]) {
    record.sent.push(String(data));
    return send.call(this, data as never);
  } as RTCDataChannel['send'];
}

const pathRecord = (page: Page) => page.evaluate(() => (window as unknown as { __path: { received: string[]; sent: string[] } }).__path);

describe('the datagram path in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let api: GameApi;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { RTC_MIN_RTT_MS: '0', RTC_ADDRESS: '127.0.0.1', RTC_MAX_PEERS: '50' }, webDir: BUILT_WEB_DIR });
    try {
      browser = await launchBrowser(['--allow-loopback-in-peer-connection']);
    } catch (error) {
      await server.close();
      throw error;
    }
    api = new GameApi(server.baseUrl, server.adminUsername, server.adminPassword);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.close();
  });

  it('a phone whose socket and HTTP are silent still sees the question and gets its tap counted', async () => {
    const { id } = await api.seedSession({ title: 'Basement Night', autoRotate: false, items: [{ question: QUESTION }] });
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.addInitScript(recordThePath);

    // Picks over HTTP never get through: only the path is left once the socket is silent.
    await page.route('**/api/player/answer', (route) => route.abort('connectionfailed'));

    // Every socket goes through a switch that can lose the signal both ways, as a weak signal does:
    // TCP keeps the socket open and holds what it carries, delivering it in order once the signal
    // is back. Dials made meanwhile hang in their handshake until then.
    let quiet = false;
    let signalBack: () => void = () => undefined;
    const back = new Promise<void>((resolve) => (signalBack = resolve));
    const flushes: Array<() => void> = [];
    let dials = 0;
    let questionFramesToPage = 0; // question states the phone's sockets delivered to it
    let questionFramesHeld = 0; // ... and those the server sent on them while the signal was lost
    let framesHeldToServer = 0;
    await page.routeWebSocket(/\/ws\?/, async (ws) => {
      dials++;
      if (dials > 1) await back;
      const upstream = ws.connectToServer();
      const heldToPage: Array<string | Buffer> = [];
      const heldToServer: Array<string | Buffer> = [];
      const toPage = (message: string | Buffer) => {
        if (isQuestionState(asText(message))) questionFramesToPage++;
        ws.send(message);
      };
      flushes.push(() => {
        for (const message of heldToServer.splice(0)) upstream.send(message);
        for (const message of heldToPage.splice(0)) toPage(message);
      });
      ws.onMessage((message) => {
        if (!quiet) return upstream.send(message);
        framesHeldToServer++;
        heldToServer.push(message);
      });
      upstream.onMessage((message) => {
        if (!quiet) return toPage(message);
        if (isQuestionState(asText(message))) questionFramesHeld++;
        heldToPage.push(message);
      });
    });
    const signalReturns = () => {
      quiet = false;
      for (const flush of flushes) flush();
      signalBack();
    };

    await joinThroughForm(page, id, 'Dana', 'dana@example.com');
    await text(page, "You're in, Dana!").waitFor();
    const playerId = await page.evaluate(() => localStorage.getItem('player_id'));
    expect(playerId).toBeTruthy();

    // The phone reports its first round trip right after its first pong: the server offers, the
    // phone replies on its socket, ICE and DTLS run over UDP on 127.0.0.1.
    const datagrams = server.server.realtime.hub.datagrams;
    expect(datagrams).not.toBeNull();
    await expect.poll(() => datagrams!.isOpen(id, playerId!), { timeout: 20_000, interval: 100 }).toBe(true);

    // Loss of signal on TCP: nothing crosses the socket any more, either way.
    quiet = true;
    await api.start(id);

    // The question is on the phone, though its socket brought it no frame: it came on the path.
    await text(page, QUESTION.text).waitFor();
    expect(await page.getByTestId('answer-button').count()).toBe(4);
    await expect.poll(() => questionFramesHeld, { timeout: 10_000 }).toBeGreaterThanOrEqual(1); // the socket did carry it, to the switch
    expect(questionFramesToPage).toBe(0);
    const afterQuestion = await pathRecord(page);
    expect(afterQuestion.received.some((frame) => isQuestionState(frame) && frame.includes(QUESTION.text))).toBe(true);
    // Every copy of the question that came on the path was acknowledged there.
    expect(afterQuestion.sent.some((frame) => frame.includes('"type":"question_seen"'))).toBe(true);
    await shot(page, 'phone-datagram-question');

    // The tap: counted, and the phone says so, with no socket and no HTTP.
    await page.getByTestId('answer-button').filter({ hasText: 'Studio Ghibli' }).click();
    await text(page, COUNTED).waitFor();
    expect(await page.getByTestId('player-status').getAttribute('data-delivery')).toBe('counted');
    expect(await page.getByTestId('answer-button').evaluateAll((buttons) => buttons.every((b) => (b as HTMLButtonElement).disabled))).toBe(true);
    expect(await page.locator('[data-testid="answer-button"][data-chosen]').innerText()).toContain('Studio Ghibli');
    await shot(page, 'phone-datagram-counted');

    // The server has it: stored as this player's pick, correct.
    await expect
      .poll(async () => (await api.request<{ answers: Array<{ selectedIndex: number; isCorrect: boolean }> }>('GET', `/api/admin/sessions/${id}/results/players/${playerId}`)).answers, {
        timeout: 10_000,
      })
      .toMatchObject([{ selectedIndex: 1, isCorrect: true }]);

    // And it was the path that carried it: the pick went out on it and its acceptance came back on it,
    // while the socket stayed silent both ways and every HTTP attempt failed.
    const afterPick = await pathRecord(page);
    // (packed on the path: ["p", the question's id's start, the choice, the pick's id, its reaction])
    const packedPicks = afterPick.sent.filter((frame) => frame.startsWith('["p"')).map((frame) => JSON.parse(frame) as unknown[]);
    expect(packedPicks.length).toBeGreaterThanOrEqual(1);
    expect(packedPicks[0]).toEqual(['p', expect.any(String), 1, expect.stringMatching(/^[0-9a-v]{10}$/), expect.any(Number)]);
    expect(afterPick.received.some((frame) => frame.includes('"type":"answer_accepted"'))).toBe(true);
    expect(questionFramesToPage).toBe(0);
    expect(framesHeldToServer).toBeGreaterThanOrEqual(1); // the pick went onto the silent socket too, and is stuck there
    // The server has no other socket of this phone: any new one the phone tried is still in its handshake.
    expect([...server.server.realtime.hub.playerClients(id, playerId!)]).toHaveLength(1);

    // The signal comes back: what TCP held arrives (or the phone's new socket opens) and the result
    // of the question, closed since the pick (the only player has answered), shows; nothing on
    // screen goes backwards: still this pick, counted, never "too late".
    signalReturns();
    const result = page.getByText(/^Correct! \+\d+ points$/).first();
    await result.waitFor({ timeout: 30_000 });
    const points = Number(/\+(\d+)/.exec(await result.innerText())![1]);
    expect(points).toBeGreaterThan(0);
    await expect.poll(async () => Number(await page.getByTestId('player-score').innerText())).toBe(points);
    expect(await text(page, 'Too late: time was up before your answer arrived').count()).toBe(0);
    expect(await page.getByTestId('toast').count()).toBe(0);
    const { answers } = await api.request<{ answers: unknown[] }>('GET', `/api/admin/sessions/${id}/results/players/${playerId}`);
    expect(answers).toHaveLength(1); // the pick held on the socket, delivered late, was a harmless repeat
    await shot(page, 'phone-datagram-result');
  }, 150_000);

  it('a phone whose socket went dead while its path still works opens a new socket', async () => {
    const { id } = await api.seedSession({ title: 'Dead Socket Night', autoRotate: false, items: [{ question: QUESTION }] });
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);

    // The first socket can be cut off for good (a middlebox dropped the connection: the browser
    // still calls it open); any socket dialled after it works.
    let firstDead = false;
    let dials = 0;
    const questionFramesBySocket: number[] = [];
    await page.routeWebSocket(/\/ws\?/, (ws) => {
      const socket = dials++;
      questionFramesBySocket.push(0);
      const upstream = ws.connectToServer();
      ws.onMessage((message) => {
        if (!(socket === 0 && firstDead)) upstream.send(message);
      });
      upstream.onMessage((message) => {
        if (socket === 0 && firstDead) return;
        if (isQuestionState(asText(message))) questionFramesBySocket[socket]++;
        ws.send(message);
      });
    });

    await joinThroughForm(page, id, 'Eli', 'eli@example.com');
    await text(page, "You're in, Eli!").waitFor();
    const playerId = await page.evaluate(() => localStorage.getItem('player_id'));
    const datagrams = server.server.realtime.hub.datagrams!;
    await expect.poll(() => datagrams.isOpen(id, playerId!), { timeout: 20_000, interval: 100 }).toBe(true);
    expect(dials).toBe(1);

    // The socket dies in the lobby, where no pick waits to notice it: its pings go unanswered
    // while the path's pongs keep coming, so the phone dials again.
    firstDead = true;
    await expect.poll(() => dials, { timeout: 40_000, interval: 200 }).toBe(2);

    // The game goes on through the new socket: the question comes on it, and the result after the tap.
    await api.start(id);
    await text(page, QUESTION.text).waitFor();
    await expect.poll(() => questionFramesBySocket[1], { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(questionFramesBySocket[0]).toBe(0);
    await page.getByTestId('answer-button').filter({ hasText: 'Studio Ghibli' }).click();
    await page.getByText(/^Correct! \+\d+ points$/).first().waitFor({ timeout: 30_000 });
  }, 150_000); // a join, a path's setup and DEAD_SOCKET_MS of silence: longer than the default on a loaded machine
});
