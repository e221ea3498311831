/**
 * The datagram path (docs/REALTIME.md "The datagram path"): a slow phone gets a WebRTC data
 * channel beside its socket, the question is repeated on it until the phone has it, and a pick
 * sent on it is taken and confirmed there. Real sockets, a real data channel (libdatachannel as
 * the phone, on loopback), a fake game clock.
 */
import dgram from 'node:dgram';
import { PeerConnection, type DataChannel } from 'node-datachannel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, packPathPick } from '../../../protocol/index.js';
import { FakeClock } from '../../game/rooms/fake-clock.js';
import { TestApi } from '../../testing/api.js';
import { type TestServer, startTestServer } from '../../testing/server.js';
import { pathCopy, withoutCandidates } from './datagram.js';
import { TestSocket, type AnyMessage } from './testing/client.js';
import { type Game, createGame, display } from './testing/setup.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The phone's end of a path: libdatachannel answering the server's offer, as the browser does. */
class PhonePath {
  readonly received: AnyMessage[] = [];
  channel: DataChannel | null = null;
  readonly pc = new PeerConnection('phone', { iceServers: [], bindAddress: '127.0.0.1' });

  constructor() {
    this.pc.onDataChannel((channel) => {
      this.channel = channel;
      channel.onMessage((data) => this.received.push(JSON.parse(String(data))));
    });
  }

  /** The server's candidates, once they came (after the reply). */
  candidates: string[] = [];

  /** Takes the offer; resolves with the answer to send back. */
  answer(offer: string): Promise<string> {
    const answered = new Promise<string>((resolve) => this.pc.onLocalDescription((sdp) => resolve(sdp)));
    this.pc.setRemoteDescription(offer, 'offer');
    return answered;
  }

  /** The server's `datagram_candidates`: the checks start. */
  addCandidates(message: AnyMessage): void {
    this.candidates = message.candidates as string[];
    for (const candidate of this.candidates) this.pc.addRemoteCandidate(candidate, message.mid as string);
  }

  get isOpen(): boolean {
    return this.channel?.isOpen() ?? false;
  }

  send(message: unknown): void {
    this.channel?.sendMessage(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async waitFor(match: (m: AnyMessage) => boolean, from = 0, timeoutMs = 5_000): Promise<AnyMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`nothing matching on the path; got: ${this.received.map((m) => m.type).join(', ')}`);
      await sleep(20);
    }
  }

  close(): void {
    this.channel?.close();
    this.pc.close();
  }
}

describe('the datagram path', () => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer;
  let api: TestApi;
  let game: Game;
  let questionId: string;
  const paths: PhonePath[] = [];
  const sockets: TestSocket[] = [];

  const join = async (index: number) => {
    const socket = await TestSocket.join(server.baseUrl, {
      type: 'player',
      sessionId: game.sessionId,
      playerId: game.players[index].id,
      playerToken: game.players[index].playerToken,
    });
    sockets.push(socket);
    return socket;
  };
  /** A phone reports a slow round trip and answers the path it is offered; resolves with that offer's phone end. */
  const answerOffer = async (socket: TestSocket, tamper = (sdp: string) => sdp) => {
    const offered = socket.next('datagram_offer');
    socket.send({ type: 'ping', id: 7, rttMs: 450 });
    const { sdp } = await offered;
    const path = new PhonePath();
    paths.push(path);
    const candidates = socket.next('datagram_candidates');
    socket.send({ type: 'datagram_reply', sdp: tamper(await path.answer(sdp)) });
    path.addCandidates(await candidates);
    return path;
  };
  const playerOf = (socket: TestSocket) => new URL(socket.ws.url).searchParams.get('playerId')!;
  /** Until the phone's end opens, or fails; then until the server's end is open too. */
  const settled = async (path: PhonePath, socket: TestSocket) => {
    const deadline = Date.now() + 15_000;
    while (!path.isOpen && path.pc.state() !== 'failed' && path.pc.state() !== 'closed' && Date.now() < deadline) await sleep(10);
    while (path.isOpen && !datagrams().isOpen(game.sessionId, playerOf(socket)) && Date.now() < deadline) await sleep(10);
    return path.isOpen && datagrams().isOpen(game.sessionId, playerOf(socket));
  };
  /** A phone opens the path it is offered, at the first try. */
  const openPath = async (socket: TestSocket) => {
    const path = await answerOffer(socket);
    expect(await settled(path, socket), `phone peer state ${path.pc.state()}/${path.pc.iceState()}`).toBe(true);
    return path;
  };
  const answerOf = (index: number) => {
    const phase = server.server.realtime.rooms.get(game.sessionId)?.engineState?.phase;
    return phase && 'answers' in phase ? phase.answers.get(game.players[index].id) : undefined;
  };
  const datagrams = () => server.server.realtime.hub.datagrams!;

  beforeAll(async () => {
    server = await startTestServer({ env: { RTC_MAX_PEERS: '5' }, realtime: { clock } });
    clock.settle = () => server.server.realtime.rooms.whenIdle();
    api = new TestApi(server);
    await api.login();
    game = await createGame(server, api, { items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1, timeLimitSeconds: 10 } }], players: 6 });
    questionId = game.questions[0].id;
  });
  afterAll(async () => {
    for (const path of paths) path.close();
    await Promise.all(sockets.map((s) => s.close()));
    await server?.close();
  });

  it('is offered once, on the server’s loopback port, to a phone reporting a slow round trip and to no other', async () => {
    const fast = await join(0);
    fast.send({ type: 'ping', id: 1, rttMs: 120 });
    await fast.next('pong');
    const slow = await join(1);
    const offered = slow.next('datagram_offer');
    slow.send({ type: 'ping', id: 1, rttMs: 450 });
    const { sdp } = await offered;
    // The candidates wait for the reply (see the next test).
    expect(sdp).toContain('a=fingerprint:');
    expect(sdp).not.toContain('a=candidate:');
    // Asked again while the offer waits: no second offer.
    slow.send({ type: 'ping', id: 2, rttMs: 900 });
    await slow.next('pong');
    await sleep(200);
    expect(slow.types().filter((t) => t === 'datagram_offer')).toHaveLength(1);
    expect(fast.types()).not.toContain('datagram_offer');
  });

  it('sends the question on the path, again on each ping until the phone has it, and takes and confirms a pick sent there', async () => {
    const socket = await join(2);
    const path = await openPath(socket);
    expect(datagrams().isOpen(game.sessionId, game.players[2].id)).toBe(true);
    // The server's candidate, sent after the reply: its loopback address, on the HTTP port's number.
    expect(path.candidates).toEqual([expect.stringMatching(new RegExp(`^candidate:.* 127\\.0\\.0\\.1 ${new URL(server.baseUrl).port} typ host`))]);
    const screen = await display(server, game);
    sockets.push(screen);
    const shown = screen.next('session_state', (m) => m.phase === 'question');
    await api.post(`/api/admin/sessions/${game.sessionId}/start`, {});
    await shown;
    const first = await path.waitFor((m) => m.type === 'session_state' && m.phase === 'question');
    expect(first.question).toMatchObject({ id: questionId });
    expect(first.question).not.toHaveProperty('correctIndex');
    // Sent once: nothing more while the phone is silent (copies sent into a loss of signal would fill SCTP's window).
    await sleep(600);
    expect(path.received.filter((m) => m.type === 'session_state')).toHaveLength(1);
    // A path that opens while the question is up gets it at once (its handshake may take seconds on a bad link).
    const late = await openPath(await join(0));
    expect((await late.waitFor((m) => m.type === 'session_state' && m.phase === 'question')).question).toMatchObject({ id: questionId });
    // A ping shows the link is up: a pong on the path, and the state again while not acknowledged.
    let from = path.received.length;
    path.send({ type: 'ping', id: 41 });
    expect(await path.waitFor((m) => m.type === 'pong', from)).toMatchObject({ id: 41 });
    await path.waitFor((m) => m.type === 'session_state' && m.question?.id === questionId, from);
    path.send({ type: 'question_seen', questionId });
    await sleep(300);
    from = path.received.length;
    path.send({ type: 'ping', id: 42 });
    await path.waitFor((m) => m.type === 'pong' && m.id === 42, from);
    await sleep(300);
    expect(path.received.slice(from).map((m) => m.type)).toEqual(['pong']);

    await clock.advance(3_000);
    // The phone packs its pick on the path, naming the question by the start of its id.
    const before = path.received.length;
    path.send(packPathPick({ type: 'submit_answer', questionId, selectedIndex: 1, answerId: 'dg-1', reactionMs: 2_900 }));
    expect(await path.waitFor((m) => m.type === 'answer_accepted', before)).toMatchObject({ questionId, selectedIndex: 1, answerId: 'dg-1' });
    await socket.waitFor((m) => m.type === 'answer_accepted' && m.answerId === 'dg-1');
    expect(answerOf(2)).toMatchObject({ selectedIndex: 1, isCorrect: true });
    // The phone repeats it (its confirmation may have been lost), here in full: confirmed on the path again.
    const again = path.received.length;
    path.send({ type: 'submit_answer', questionId, selectedIndex: 1, answerId: 'dg-1', reactionMs: 2_900 });
    await path.waitFor((m) => m.type === 'answer_accepted', again);
    expect(answerOf(2)).toMatchObject({ selectedIndex: 1 });
  });

  it('refuses bad signalling and bad messages on the path with an error on the socket, changing nothing', async () => {
    const socket = await join(3);
    expect((await socket.expectError({ type: 'datagram_reply', sdp: 'v=0' })).code).toBe(ERROR_CODES.invalidMessage);
    expect((await socket.expectError({ type: 'datagram_reply', sdp: 'x'.repeat(9_000) })).message).toMatch(/at most 8000/);
    expect((await socket.expectError({ type: 'question_seen' })).code).toBe(ERROR_CODES.invalidMessage);
    const offered = socket.next('datagram_offer');
    socket.send({ type: 'ping', id: 3, rttMs: 450 });
    const { sdp } = await offered;
    expect((await socket.expectError({ type: 'datagram_reply', sdp: 'not an sdp at all' })).message).toMatch(/not an answer/);
    expect(socket.types()).not.toContain('datagram_candidates'); // a refused reply brings none
    const path = new PhonePath();
    paths.push(path);
    const candidates = socket.next('datagram_candidates');
    socket.send({ type: 'datagram_reply', sdp: await path.answer(sdp) });
    path.addCandidates(await candidates);
    // The reply was taken: a second one is refused.
    expect((await socket.expectError({ type: 'datagram_reply', sdp: 'v=0' })).message).toMatch(/no datagram offer/);
    expect(await settled(path, socket)).toBe(true);

    const onSocket = async (message: unknown) => {
      const error = socket.next('error');
      path.send(message);
      return error;
    };
    expect((await onSocket('not json')).code).toBe(ERROR_CODES.invalidJson);
    expect((await onSocket({ type: 'admin_pause' })).code).toBe(ERROR_CODES.forbidden);
    expect((await onSocket({ type: 'datagram_reply', sdp: 'v=0' })).message).toMatch(/Only ping, submit_answer and question_seen/);
    expect((await onSocket({ type: 'submit_answer', questionId, selectedIndex: 9 })).code).toBe(ERROR_CODES.invalidMessage);
    expect((await onSocket(['p', questionId.slice(0, 8), 9, 'dg-3', 100])).message).toMatch(/selectedIndex must be from 0 to 3/);
    expect((await onSocket(['p', questionId.slice(0, 8)])).message).toMatch(/A packed pick is/);
    // A packed pick naming another question than the open one: refused as such, with that reference.
    expect(await onSocket(['p', 'ffffffff', 1, 'dg-3', 100])).toMatchObject({ code: ERROR_CODES.wrongQuestion, questionId: 'ffffffff', answerId: 'dg-3' });
    expect(answerOf(3)).toBeUndefined();
    // A flood is dropped on the path, never answered, and the socket stays open.
    const errorsBefore = socket.types().filter((t) => t === 'error').length;
    for (let i = 0; i < 200; i++) path.send({ type: 'question_seen', questionId: 'nope' });
    for (let i = 0; i < 100; i++) path.send('garbage');
    await sleep(500);
    expect(socket.types().filter((t) => t === 'error').length - errorsBefore).toBeLessThanOrEqual(40);
    expect(socket.isOpen).toBe(true);
  });

  it('stays with the player across a replaced socket, closes with the last one, and opens no more than RTC_MAX_PEERS paths', async () => {
    const first = await join(4);
    const path = await openPath(first);
    const second = await join(4);
    await first.close();
    expect(datagrams().isOpen(game.sessionId, game.players[4].id)).toBe(true);
    const before = path.received.length;
    path.send({ type: 'submit_answer', questionId, selectedIndex: 2, answerId: 'dg-4', reactionMs: 1_000 });
    await path.waitFor((m) => m.type === 'answer_accepted', before);
    // Taken as the open socket's message: its confirmation went there.
    await second.waitFor((m) => m.type === 'answer_accepted' && m.answerId === 'dg-4');
    expect(answerOf(4)).toMatchObject({ selectedIndex: 2 });

    // Players 0, 1, 2, 3 and 4 hold or were offered paths: a sixth slow phone is over the limit of 5.
    const fifth = await join(5);
    fifth.send({ type: 'ping', id: 1, rttMs: 900 });
    await fifth.next('pong');
    await sleep(300);
    expect(fifth.types()).not.toContain('datagram_offer');

    await second.close();
    const deadline = Date.now() + 2_000;
    while (datagrams().isOpen(game.sessionId, game.players[4].id) && Date.now() < deadline) await sleep(20);
    expect(datagrams().isOpen(game.sessionId, game.players[4].id)).toBe(false);
  });

  it('offers a failed path again once at the phone’s next report, then not for a minute', async () => {
    // A reply whose DTLS fingerprint is not the phone's: the handshake fails on the server.
    const wrongFingerprint = (sdp: string) => sdp.replace(/(a=fingerprint:sha-256 )([0-9A-F]{2})/, (_, head: string, byte: string) => `${head}${byte === 'AA' ? 'BB' : 'AA'}`);
    const socket = await join(5);
    const first = await answerOffer(socket, wrongFingerprint);
    expect(await settled(first, socket)).toBe(false);
    const deadline = Date.now() + 5_000;
    while (datagrams().size >= 5 && Date.now() < deadline) await sleep(10); // the server closed its end
    const second = await answerOffer(socket, wrongFingerprint);
    expect(await settled(second, socket)).toBe(false);
    await sleep(300);
    socket.send({ type: 'ping', id: 9, rttMs: 900 });
    await socket.next('pong');
    await sleep(300);
    expect(socket.types().filter((t) => t === 'datagram_offer')).toHaveLength(2);
  });

  it('sends a question without the leaderboard and media list, in one packet where the socket’s copy needs two', () => {
    const uuid = (n: number) => `${String(n).padStart(8, '0')}-6c1b-4f7e-9a55-2f0c8b7d3e21`;
    const media = Array.from({ length: 3 }, (_, i) => ({ id: uuid(i), filePath: `/media/${uuid(i)}.mp4`, phoneFilePath: `/media/${uuid(i)}-phone.mp4`, fileType: 'video', duration: 15, promotionalLink: 'https://example.com/tickets' }));
    const state = {
      type: 'session_state', view: 'audience', sessionId: uuid(99), status: 'live', phase: 'question', serverTime: 1_795_793_829_019, endsAt: 1_795_793_839_019, timeRemaining: 10,
      slide: null, reveal: null, mediaItemCount: 2, questionNumber: 3, totalQuestions: 10,
      leaderboard: Array.from({ length: 10 }, (_, i) => ({ player: { id: uuid(i), name: `Player number ${i}` }, score: { pointsTotal: 900 - i } })),
      media,
      question: { id: uuid(7), text: 'Which film won the first Academy Award for Best Picture, in 1929?', choices: ['Wings', 'Sunrise', 'The Racket', '7th Heaven'], points: 100, timeLimitSeconds: 10, categories: ['History'], media: media[0] },
    };
    const copy = JSON.parse(pathCopy(state)) as typeof state;
    expect(copy).toEqual({ ...state, leaderboard: [], media: [] });
    // A 1,500-byte link less IP, UDP, DTLS and SCTP headers leaves about 1,180 bytes for a message in one packet.
    expect(JSON.stringify(state).length).toBeGreaterThan(1_180);
    expect(pathCopy(state).length).toBeLessThan(1_000);
  });

  it('drops the candidates a phone names: the server answers only the phone’s own checks', () => {
    const sdp = ['v=0', 'a=ice-ufrag:abcd', 'a=candidate:1 1 UDP 2122260223 203.0.113.9 5000 typ host', 'a=end-of-candidates', 'a=mid:0'].join('\r\n');
    expect(withoutCandidates(sdp)).toBe(['v=0', 'a=ice-ufrag:abcd', 'a=mid:0'].join('\r\n'));
  });
});

describe('the datagram path on a UDP port already taken', () => {
  it('offers nothing and keeps the socket working, with one warning', async () => {
    const taken = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => taken.bind(0, '127.0.0.1', resolve));
    const warnings: string[] = [];
    const server = await startTestServer({
      env: { RTC_UDP_PORT: String(taken.address().port), RTC_MAX_PEERS: '5' },
      logger: { level: 'warn', stream: { write: (line: string) => warnings.push(line) } },
    });
    try {
      const api = new TestApi(server);
      await api.login();
      const game = await createGame(server, api, { items: [{ question: { text: 'Q?', correctIndex: 0 } }], players: 1 });
      const socket = await TestSocket.join(server.baseUrl, { type: 'player', sessionId: game.sessionId, playerId: game.players[0].id, playerToken: game.players[0].playerToken });
      for (const id of [1, 2, 3]) {
        socket.send({ type: 'ping', id, rttMs: 900 });
        expect(await socket.next('pong')).toMatchObject({ id });
      }
      await sleep(300);
      expect(socket.types()).not.toContain('datagram_offer');
      expect(warnings.filter((line) => line.includes('could not bind its UDP port'))).toHaveLength(1);
      await socket.close();
    } finally {
      await server.close();
      taken.close();
    }
  });
});
