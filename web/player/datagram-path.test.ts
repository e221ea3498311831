import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AudienceSessionState, DatagramReplyMessage, ServerMessage } from '../../protocol/index';
import { audienceState } from '../common/realtime/testing/testFixtures';
import { DATAGRAM_REPEAT_MS } from '../common/realtime/timings';
import { DEAD_SOCKET_MS, DatagramPath, PING_QUIET_AFTER_SEND_MS, socketDeadBesidePath } from './datagram-path';

/** A data channel as the server's side would open it: what the phone sends is recorded. */
class FakeChannel {
  readyState: RTCDataChannelState = 'open';
  sent: unknown[] = [];
  failSends = false;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  send(data: string): void {
    if (this.failSends) throw new Error('InvalidStateError');
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.readyState = 'closed';
  }
  /** A frame from the server. */
  deliver(data: unknown): void {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
}

/** Just what DatagramPath uses of an RTCPeerConnection. */
class FakePeer {
  remote: RTCSessionDescriptionInit | null = null;
  localDescription: { type: string; sdp: string } | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  closed = false;
  candidates: RTCIceCandidateInit[] = [];
  ondatachannel: ((event: { channel: FakeChannel }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  constructor(private readonly failRemote = false) {}
  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    if (this.failRemote) throw new Error('cannot parse the offer');
    this.remote = description;
  }
  async createAnswer(): Promise<{ type: 'answer'; sdp: string }> {
    return { type: 'answer', sdp: `answer-to-${this.remote?.sdp}` };
  }
  async setLocalDescription(description: { type: string; sdp: string }): Promise<void> {
    this.localDescription = description;
  }
  async addIceCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    if (candidate.candidate?.includes('unusable')) throw new Error('OperationError');
    this.candidates.push(candidate);
  }
  close(): void {
    this.closed = true;
    this.connectionState = 'closed';
  }
  /** The server's channel arrives. */
  openChannel(): FakeChannel {
    const channel = new FakeChannel();
    this.ondatachannel?.({ channel });
    return channel;
  }
  becomes(state: RTCPeerConnectionState): void {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

function harness(options: { failRemote?: boolean; createThrows?: boolean; signalled?: boolean } = {}) {
  const peers: FakePeer[] = [];
  const signalled: DatagramReplyMessage[] = [];
  const taken: ServerMessage[] = [];
  const newest: { serverTime: number | null } = { serverTime: null };
  // The path's ping timers, run by hand (`tick`); a cleared one is a no-op.
  const timers: (() => void)[] = [];
  const tick = () => timers.forEach((run) => run());
  let linkUp = 0;
  const path = new DatagramPath({
    setInterval: (callback) => timers.push(callback) - 1,
    clearInterval: (handle) => {
      timers[handle as number] = () => undefined;
    },
    onLinkUp: () => linkUp++,
    createPeer: () => {
      if (options.createThrows) throw new Error('RTCPeerConnection is not supported');
      const peer = new FakePeer(options.failRemote);
      peers.push(peer);
      return peer as unknown as RTCPeerConnection;
    },
    signal: (message) => {
      signalled.push(message);
      return options.signalled ?? true;
    },
    onMessage: (message) => taken.push(message),
    newestStateServerTime: () => newest.serverTime,
  });
  return { path, peers, signalled, taken, newest, tick, linkUp: () => linkUp };
}

const question = (serverTime: number, overrides: Partial<AudienceSessionState> = {}) => audienceState({ serverTime, ...overrides });

describe('the phone’s datagram path', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('pings the open path on a timer, reports the link up when it opens and on each pong, and stops pinging when closed', async () => {
    const { path, peers, taken, tick, linkUp } = harness();
    await path.offer('o');
    tick();
    expect(linkUp()).toBe(0);
    const channel = peers[0].openChannel();
    expect(linkUp()).toBe(1);
    tick();
    tick();
    expect(channel.sent).toEqual([
      { type: 'ping', id: 1 },
      { type: 'ping', id: 2 },
    ]);
    channel.deliver({ type: 'pong', id: 2, serverTime: 5 });
    expect(linkUp()).toBe(2);
    expect(taken).toEqual([]); // a pong is the path's own business
    path.close();
    tick();
    expect(channel.sent).toHaveLength(2);
  });

  it('sends no ping beside a pick being repeated, and pings again once the repeats stop', async () => {
    vi.useFakeTimers({ now: 100_000 });
    try {
      const { path, peers, tick } = harness();
      await path.offer('o');
      const channel = peers[0].openChannel();
      const pick = { type: 'submit_answer' as const, questionId: 'q1', selectedIndex: 2, answerId: 'a1', reactionMs: 800 };
      // The pick goes every 250 ms on its own timer; the ping timer fires between its repeats.
      for (let repeat = 0; repeat < 8; repeat++) {
        path.send(pick);
        vi.advanceTimersByTime(DATAGRAM_REPEAT_MS * (repeat % 2 === 0 ? 0.6 : 0.2));
        tick();
        vi.advanceTimersByTime(DATAGRAM_REPEAT_MS * (repeat % 2 === 0 ? 0.4 : 0.8));
      }
      expect(channel.sent).toHaveLength(8);
      expect(channel.sent.every((message) => Array.isArray(message))).toBe(true);
      // Settled: no more repeats, and the pings come back.
      vi.advanceTimersByTime(PING_QUIET_AFTER_SEND_MS);
      tick();
      expect(channel.sent.at(-1)).toEqual({ type: 'ping', id: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers the server’s offer on the socket at once, with the answer’s SDP', async () => {
    const { path, peers, signalled } = harness();
    await path.offer('server-offer');
    expect(peers).toHaveLength(1);
    expect(peers[0].remote).toEqual({ type: 'offer', sdp: 'server-offer' });
    expect(signalled).toEqual([{ type: 'datagram_reply', sdp: 'answer-to-server-offer' }]);
    expect(path.open).toBe(false); // not until the server's channel arrives
    peers[0].openChannel();
    expect(path.open).toBe(true);
  });

  it('takes the server’s candidates after its reply, skipping one the browser refuses, and none once the path is closed', async () => {
    const { path, peers } = harness();
    await path.candidates({ type: 'datagram_candidates', mid: '0', candidates: ['candidate:1 1 UDP 1 127.0.0.1 4000 typ host'] });
    expect(peers).toHaveLength(0); // nothing offered: nothing to add to
    await path.offer('o');
    await path.candidates({
      type: 'datagram_candidates',
      mid: '0',
      candidates: ['candidate:1 1 UDP 2 unusable 4000 typ host', 'candidate:2 1 UDP 1 127.0.0.1 4000 typ host'],
    });
    expect(peers[0].candidates).toEqual([{ candidate: 'candidate:2 1 UDP 1 127.0.0.1 4000 typ host', sdpMid: '0' }]);
    path.close();
    await path.candidates({ type: 'datagram_candidates', mid: '0', candidates: ['candidate:3 1 UDP 1 127.0.0.1 4001 typ host'] });
    expect(peers[0].candidates).toHaveLength(1);
  });

  it('takes only the confirmation and newer question states from the channel', async () => {
    const { path, peers, taken, newest } = harness();
    await path.offer('o');
    const channel = peers[0].openChannel();
    newest.serverTime = 1_000;
    channel.deliver({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1, answerId: 'a1' });
    channel.deliver(question(1_500));
    channel.deliver(question(1_000)); // no newer than what the phone has
    channel.deliver(question(900)); // a late repeat
    channel.deliver(question(2_000, { phase: 'reveal' }));
    channel.deliver({ type: 'timer_tick', questionId: 'q1', timeRemaining: 3, serverTime: 2_000, endsAt: 5_000 });
    expect(taken.map((m) => (m.type === 'session_state' ? `state@${m.serverTime}` : m.type))).toEqual(['answer_accepted', 'state@1500']);
  });

  it('acknowledges every question state on the path, taken or not, and nothing else', async () => {
    const { path, peers, taken, newest } = harness();
    await path.offer('o');
    const channel = peers[0].openChannel();
    newest.serverTime = 5_000;
    channel.deliver(question(4_000, { question: { ...audienceState().question!, id: 'q7' } })); // refused, still acknowledged
    channel.deliver(question(6_000, { phase: 'reveal' }));
    channel.deliver(question(4_500, { question: null })); // no question to acknowledge
    channel.deliver({ type: 'answer_accepted', questionId: 'q7', selectedIndex: 0 });
    expect(channel.sent).toEqual([{ type: 'question_seen', questionId: 'q7' }]);
    expect(taken.map((m) => m.type)).toEqual(['answer_accepted']);
  });

  it('ignores a frame that is not JSON, or not a message, and keeps going', async () => {
    const { path, peers, taken } = harness();
    await path.offer('o');
    const channel = peers[0].openChannel();
    expect(() => channel.deliver('{not json')).not.toThrow();
    channel.deliver('"just a string"');
    channel.deliver('null');
    channel.onmessage?.({ data: new ArrayBuffer(4) });
    expect(taken).toEqual([]);
    expect(channel.sent).toEqual([]);
    channel.deliver({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1 });
    expect(taken).toHaveLength(1);
  });

  it('sends JSON on the channel while it is open, a pick packed, and says false when it cannot', async () => {
    const { path, peers } = harness();
    const pick = { type: 'submit_answer' as const, questionId: '0e1d6f8a-6c1b-4f7e-9a55-2f0c8b7d3e21', selectedIndex: 2, answerId: 'a1', reactionMs: 800 };
    expect(path.send(pick)).toBe(false); // no path yet
    await path.offer('o');
    const channel = peers[0].openChannel();
    expect(path.send(pick)).toBe(true);
    // The question by the start of its id: a pick repeated into a loss of signal stays about a ping's size.
    expect(channel.sent).toEqual([['p', '0e1d6f8a', 2, 'a1', 800]]);
    expect(path.send({ type: 'ping', id: 4 })).toBe(true);
    expect(channel.sent[1]).toEqual({ type: 'ping', id: 4 });
    channel.sent.length = 1;
    channel.failSends = true;
    expect(path.send(pick)).toBe(false);
    channel.readyState = 'closing';
    channel.failSends = false;
    expect(path.send(pick)).toBe(false);
    expect(channel.sent).toHaveLength(1);
  });

  it('never throws when WebRTC cannot be set up, and signals nothing', async () => {
    const throwing = harness({ createThrows: true });
    await expect(throwing.path.offer('o')).resolves.toBeUndefined();
    expect(throwing.signalled).toEqual([]);
    expect(throwing.path.open).toBe(false);
    expect(throwing.path.send({ type: 'question_seen', questionId: 'q1' })).toBe(false);

    const refused = harness({ failRemote: true });
    await expect(refused.path.offer('garbled')).resolves.toBeUndefined();
    expect(refused.signalled).toEqual([]);
    expect(refused.peers[0].closed).toBe(true);
  });

  it('does nothing with an offer in a browser without WebRTC', async () => {
    vi.stubGlobal('RTCPeerConnection', undefined);
    const signal = vi.fn(() => true);
    const path = new DatagramPath({ signal, onMessage: () => undefined, newestStateServerTime: () => null });
    await path.offer('o');
    expect(signal).not.toHaveBeenCalled();
    expect(path.open).toBe(false);
  });

  it('closes the peer connection when the socket cannot carry the reply', async () => {
    const { path, peers, signalled } = harness({ signalled: false });
    await path.offer('o');
    expect(signalled).toHaveLength(1);
    expect(peers[0].closed).toBe(true);
    peers[0].openChannel();
    expect(path.open).toBe(false);
  });

  it('answers every offer on a new peer connection, closing the old path even when it still looks open', async () => {
    // The server offers only when it holds no path for the player: the phone's, however open it
    // looks (a loss of signal hides the server closing it), is dead.
    const { path, peers, signalled } = harness();
    await path.offer('first');
    await path.offer('second'); // the first never opened: it is replaced
    expect(peers).toHaveLength(2);
    expect(peers[0].closed).toBe(true);
    expect(signalled.map((m) => m.sdp)).toEqual(['answer-to-first', 'answer-to-second']);
    peers[1].openChannel();
    expect(path.open).toBe(true);
    await path.offer('third');
    expect(peers).toHaveLength(3);
    expect(peers[1].closed).toBe(true);
    expect(path.open).toBe(false);
    expect(signalled.map((m) => m.sdp)).toEqual(['answer-to-first', 'answer-to-second', 'answer-to-third']);
  });

  it('takes nothing from a channel that arrives on a replaced peer connection', async () => {
    const { path, peers, taken } = harness();
    await path.offer('first');
    await path.offer('second');
    const stale = peers[0].openChannel();
    expect(path.open).toBe(false);
    stale.deliver({ type: 'answer_accepted', questionId: 'q1', selectedIndex: 1 });
    expect(taken).toEqual([]);
  });

  it('closes the path when the connection fails, and on close()', async () => {
    const { path, peers } = harness();
    await path.offer('o');
    const channel = peers[0].openChannel();
    peers[0].becomes('disconnected'); // may come back on its own
    expect(path.open).toBe(true);
    peers[0].becomes('failed');
    expect(path.open).toBe(false);
    expect(peers[0].closed).toBe(true);
    expect(channel.readyState).toBe('closed');

    await path.offer('again');
    const second = peers[1].openChannel();
    path.close();
    expect(path.open).toBe(false);
    expect(peers[1].closed).toBe(true);
    expect(second.readyState).toBe('closed');
    expect(path.send({ type: 'question_seen', questionId: 'q1' })).toBe(false);
  });

  it('gives up the path when its channel closes', async () => {
    const { path, peers } = harness();
    await path.offer('o');
    const channel = peers[0].openChannel();
    channel.readyState = 'closed';
    channel.onclose?.();
    expect(peers[0].closed).toBe(true);
    expect(path.open).toBe(false);
  });

  it('presumes the socket dead only when a ping of it has gone unanswered for DEAD_SOCKET_MS', () => {
    expect(socketDeadBesidePath(undefined, 1_000_000)).toBe(false); // nothing asked of the socket: silence proves nothing
    expect(socketDeadBesidePath(50_000, 50_000 + DEAD_SOCKET_MS - 1)).toBe(false); // TCP may still be resending after a loss of signal
    expect(socketDeadBesidePath(50_000, 50_000 + DEAD_SOCKET_MS)).toBe(true);
    expect(DEAD_SOCKET_MS).toBeGreaterThanOrEqual(8_000);
  });
});
