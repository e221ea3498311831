/**
 * One phone on a bad network, end to end (DESIGN §14): a real server on the real clock, the
 * phone's own answer path (web/player/answer-sender.ts) over a shaping TCP proxy with 300 ms each
 * way, and a 4 s loss of signal right as the player taps. The socket is not closed by the loss
 * (TCP keeps it up), so the phone must notice the silence itself, reconnect with the pick in the
 * new socket's upgrade request (as the phone's socket hook does), send it over HTTP meanwhile, and
 * resend it on the new socket; the server must credit the tap with the player's true reaction time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PLAYER_ANSWER_PATH, type PlayerAnswerBody, type ServerMessage } from '../../../protocol/index.js';
import { AnswerSender, type AnswerStatus, BEACON_TIMEOUT_MS } from '../../../web/player/answer-sender.js';
import { attemptUrl } from '../../../web/common/realtime/timings.js';
import { pointsForCorrectAnswer } from '../../game/engine/index.js';
import { TestApi } from '../../testing/api.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { ShapedLink } from '../../testing/shaped-link.js';
import { type Game, createGame } from './testing/setup.js';

const ONE_WAY_MS = 300;
const OUTAGE_MS = 4_000;
const REACTION_MS = 2_000;

/** The phone: a socket through the proxy, reopened when the answer path finds it dead. */
class ShapedPhone {
  socket: WebSocket | null = null;
  readonly statuses: AnswerStatus[] = [];
  readonly messages: ServerMessage[] = [];
  /** The URL of every connection attempt. */
  readonly urls: string[] = [];
  private waiters: (() => void)[] = [];
  readonly sender: AnswerSender;
  /** The HTTP status of every pick sent over HTTP (0: given up). */
  readonly beacons: Promise<number>[] = [];

  constructor(private readonly url: string) {
    let ids = 0;
    this.sender = new AnswerSender({
      send: (message) => {
        if (this.socket?.readyState !== WebSocket.OPEN) return false;
        this.socket.send(JSON.stringify(message));
        return true;
      },
      reconnect: () => this.connect(),
      beacon: (message) => {
        // As the phone's fetch: over the same shaped link, on a connection of its own.
        const q = new URL(this.url).searchParams;
        const body: PlayerAnswerBody = { sessionId: q.get('sessionId') ?? '', playerId: q.get('playerId') ?? '', playerToken: q.get('playerToken') ?? '', answer: message };
        this.beacons.push(
          fetch(new URL(PLAYER_ANSWER_PATH, this.url.replace(/^ws/, 'http')), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(BEACON_TIMEOUT_MS),
          }).then(
            (response) => {
              this.sender.beaconAnswered(message.answerId, response.status);
              return response.status;
            },
            () => 0,
          ),
        );
      },
      now: () => performance.now(),
      setTimer: (callback, ms) => setTimeout(callback, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      newId: () => `tap-${++ids}`,
      onStatus: (status) => this.statuses.push(status),
    });
  }

  connect(): void {
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined);
    this.socket?.terminate();
    const extra = this.sender.upgradeParams();
    const url = attemptUrl(this.url, extra);
    this.urls.push(url);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.on('error', () => undefined);
    socket.on('open', () => this.sender.socketOpened());
    socket.on('close', () => {
      if (this.socket === socket) this.sender.socketClosed();
    });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      this.messages.push(message);
      this.sender.heard();
      if (message.type === 'session_state' && message.phase === 'question' && message.question) this.sender.questionShown(message.question.id);
      this.sender.onMessage(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  async waitFor<T extends ServerMessage>(match: (m: ServerMessage) => m is T, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; got ${this.messages.map((m) => `${m.type}${'phase' in m ? `:${m.phase}` : ''}`).join(', ')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  close(): void {
    this.sender.dispose();
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined);
    this.socket?.terminate();
  }
}

describe('a phone on a weak link that loses signal as it taps', () => {
  let server: TestServer;
  let proxy: ShapedLink;
  let proxyPort: number;
  let game: Game;

  beforeAll(async () => {
    // The real clock: the server measures this phone's delay in wall-clock time. Fast probes so
    // the test does not depend on where the outage falls between two of them.
    server = await startTestServer({ dialect: 'sqlite', realtime: { linkProbeIntervalMs: 250, rehearsalPlayers: 0 } });
    const api = new TestApi(server);
    await api.login();
    game = await createGame(server, api, { items: [{ question: { text: 'Which year?', correctIndex: 1, points: 100, timeLimitSeconds: 10 } }], players: 1 });
    const port = Number(new URL(server.baseUrl).port);
    proxy = new ShapedLink(port, { name: 'weak link', oneWayMs: ONE_WAY_MS, jitterMs: 0, loss: 0, signalLossMs: OUTAGE_MS });
    proxyPort = await proxy.listen();
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('notices the silent socket, reconnects, resends, and is credited its true reaction time', async () => {
    const [p] = game.players;
    const query = new URLSearchParams({ type: 'player', sessionId: game.sessionId, playerId: p.id, playerToken: p.playerToken });
    const phone = new ShapedPhone(`ws://127.0.0.1:${proxyPort}/ws?${query}`);
    try {
      phone.connect();
      await phone.waitFor((m): m is ServerMessage => m.type === 'session_state');
      const api = new TestApi(server);
      await api.login();
      expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`, {})).status).toBeLessThan(300);
      const question = await phone.waitFor((m): m is Extract<ServerMessage, { type: 'session_state' }> => m.type === 'session_state' && m.phase === 'question');

      await new Promise((resolve) => setTimeout(resolve, REACTION_MS));
      proxy.cutOff(OUTAGE_MS);
      phone.sender.pick(question.question!.id, 1);

      // The result reaches the phone as answer_result, or (when the first socket got it during the
      // loss of signal) in the new socket's state.
      const found = await phone.waitFor(
        (m): m is ServerMessage => m.type === 'answer_result' || (m.type === 'session_state' && m.view === 'player' && m.answerResult !== null),
      );
      const result = found.type === 'answer_result' ? found : (found as Extract<ServerMessage, { view: 'player' }>).answerResult!;
      // The tap counted, for the points a 2 s reaction earns on a perfect network (±1 for timer slack).
      expect(result.isCorrect).toBe(true);
      expect(Math.abs(result.pointsEarned - pointsForCorrectAnswer(100, 10, REACTION_MS))).toBeLessThanOrEqual(1);
      // Honest on screen: sent, then saved offline while the socket was silent, then confirmed.
      expect(phone.statuses).toEqual(expect.arrayContaining(['sending', 'offline', 'counted']));
      expect(phone.statuses.indexOf('offline')).toBeLessThan(phone.statuses.indexOf('counted'));
      expect(phone.statuses.at(-1)).toBe('counted');
      // While the socket was down the pick went out over HTTP too, and a request that got through was taken.
      expect(phone.beacons.length).toBeGreaterThan(0);
      expect(await Promise.all(phone.beacons)).toContain(202);
      // The reconnect carried the pick in its upgrade request: the same message, id and reaction.
      const carried = phone.urls.slice(1).map((url) => new URL(url).searchParams.get('answer'));
      expect(carried.length).toBeGreaterThan(0);
      for (const answer of carried) {
        expect(JSON.parse(answer!)).toMatchObject({ type: 'submit_answer', questionId: question.question!.id, selectedIndex: 1, answerId: 'tap-1' });
      }
    } finally {
      phone.close();
    }
  }, 30_000);
});
