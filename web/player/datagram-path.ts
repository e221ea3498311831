/**
 * The phone's end of the datagram path (docs/REALTIME.md "The datagram path"): one WebRTC data
 * channel beside the socket, unordered and without retransmissions, offered by the server to a
 * slow phone. Nothing on it is resent by the transport: the phone pings it and repeats its pick
 * every 250 ms, the server sends the question again when it hears the phone, so after a loss of
 * signal they come through sooner than TCP's backed-off resends (docs/PERFORMANCE.md).
 *
 * The server is the offerer and creates the channel; the phone answers on its socket at once,
 * without waiting for its own candidates (Chromium hides host addresses behind mDNS names and may
 * never finish gathering; the server learns the phone's address from its connectivity checks).
 * The server's candidates come after the reply (`datagram_candidates`): the phone's checks start
 * only once the server has taken its answer.
 * Nothing here ever throws: a path that cannot open just leaves the phone on TCP.
 *
 * While open, the path is pinged every DATAGRAM_REPEAT_MS (unless a pick is being repeated on it:
 * its repeats are the pings then, PING_QUIET_AFTER_SEND_MS) with a 25-byte message: a loss of signal never fills SCTP's
 * window with them, so the first one after it gets through at once. On any message on the path the
 * server sends again the question the phone has not acknowledged, and answers a ping with a pong;
 * the phone sends its waiting pick at once when the path opens or brings a pong (`onLinkUp`).
 *
 * Plain class with the peer connection injected, so it is tested without a browser.
 */
import type { DatagramCandidatesMessage, DatagramReplyMessage, PingMessage, QuestionSeenMessage, ServerMessage, SubmitAnswerMessage } from '../../protocol/index.js';
import { packPathPick } from '../../protocol/path-pick.js';
import { DATAGRAM_REPEAT_MS, takeDatagram } from '../common/realtime/timings.js';

export interface DatagramPathDeps {
  /** A new peer connection; by default the browser's, with no STUN/TURN (the server has a public address). */
  createPeer?: () => RTCPeerConnection;
  /** Sends the phone's answer to the offer on the socket; false when it could not go out. */
  signal(message: DatagramReplyMessage): boolean;
  /** A message that came on the path and is taken (takeDatagram). */
  onMessage(message: ServerMessage): void;
  /** The newest `serverTime` of any session_state the phone has had, on either path. */
  newestStateServerTime(): number | null;
  /** The path opened, or brought a pong: it is up now. */
  onLinkUp?(): void;
  setInterval?(callback: () => void, ms: number): unknown;
  clearInterval?(handle: unknown): void;
}

/**
 * A socket whose oldest unanswered ping is this old, while the path brings pongs, is presumed
 * dead: the network works, that connection does not (a middlebox dropped it, say). Without this
 * a phone whose picks the path confirms would never look at its socket, and would miss every
 * reveal, score and leaderboard, which travel on the socket only. Longer than TCP takes to resend
 * after a 4 s loss of signal (its backed-off resend can leave a live socket silent some 8 s).
 */
export const DEAD_SOCKET_MS = 10_000;

/** Whether the socket is presumed dead when the path is heard at `nowMs` (DEAD_SOCKET_MS). */
export function socketDeadBesidePath(oldestUnansweredPingAtMs: number | undefined, nowMs: number): boolean {
  return oldestUnansweredPingAtMs !== undefined && nowMs - oldestUnansweredPingAtMs >= DEAD_SOCKET_MS;
}

/**
 * No ping goes while something else went on the path this recently: a pick repeated every
 * DATAGRAM_REPEAT_MS stands in for the pings, on its own timer. Half an interval let a ping slip in
 * beside about every other repeat, and pings and picks together sent into a 4 s loss of signal
 * overfill SCTP's window (docs/PERFORMANCE.md, session 38).
 */
export const PING_QUIET_AFTER_SEND_MS = 1.5 * DATAGRAM_REPEAT_MS;

function browserPeer(): RTCPeerConnection {
  return new RTCPeerConnection({ iceServers: [] });
}

/** Closing what the browser has already torn down may throw; it is closed either way. */
function quietly(close: () => void): void {
  try {
    close();
  } catch {
    // already gone
  }
}

export class DatagramPath {
  private readonly createPeer: (() => RTCPeerConnection) | null;
  private peer: RTCPeerConnection | null = null;
  private channel: RTCDataChannel | null = null;
  private pingTimer: unknown = null;
  private pingId = 0;
  /** When a message other than a ping last went on the path. */
  private sentAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: DatagramPathDeps) {
    // An old browser without WebRTC: offers are ignored and the phone stays on TCP.
    this.createPeer = deps.createPeer ?? (typeof RTCPeerConnection === 'undefined' ? null : browserPeer);
  }

  get open(): boolean {
    return this.channel?.readyState === 'open';
  }

  /**
   * The server's offer: answer it on a new peer connection, replacing any path the phone has. The
   * server offers only when it holds no path for this player, so an old one that still looks open
   * is dead (the server closed it during a loss of signal). Resolves once the reply is signalled or
   * the setup given up; never rejects.
   */
  async offer(sdp: string): Promise<void> {
    if (this.createPeer === null) return;
    this.close();
    let peer: RTCPeerConnection | null = null;
    try {
      peer = this.createPeer();
      this.peer = peer;
      const own = peer;
      own.ondatachannel = (event) => this.adopt(own, event.channel);
      own.onconnectionstatechange = () => {
        if (own.connectionState === 'failed' || own.connectionState === 'closed') this.closeIfCurrent(own);
      };
      await own.setRemoteDescription({ type: 'offer', sdp });
      const answer = await own.createAnswer();
      await own.setLocalDescription(answer);
      if (this.peer !== own) return; // closed or replaced meanwhile
      const localSdp = own.localDescription?.sdp ?? answer.sdp;
      if (!localSdp || !this.deps.signal({ type: 'datagram_reply', sdp: localSdp })) this.closeIfCurrent(own);
    } catch {
      if (peer) this.closeIfCurrent(peer);
    }
  }

  /** The server's candidates for the path being set up: the phone's checks start. */
  async candidates(message: DatagramCandidatesMessage): Promise<void> {
    const peer = this.peer;
    if (!peer) return;
    for (const candidate of message.candidates) {
      try {
        await peer.addIceCandidate({ candidate, sdpMid: message.mid });
      } catch {
        // A candidate the browser cannot use (another address family, say): the others may do.
      }
      if (this.peer !== peer) return; // closed or replaced meanwhile
    }
  }

  /** Sends one message on the path if it is open; false when it could not go out. */
  send(message: SubmitAnswerMessage | QuestionSeenMessage | PingMessage): boolean {
    const channel = this.channel;
    if (!channel || channel.readyState !== 'open') return false;
    try {
      // A pick goes packed (packPathPick): it is repeated into losses of signal, so its size counts.
      channel.send(message.type === 'submit_answer' ? packPathPick(message) : JSON.stringify(message));
      if (message.type !== 'ping') this.sentAtMs = Date.now();
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.stopPings();
    const { peer, channel } = this;
    this.peer = null;
    this.channel = null;
    if (channel) {
      channel.onmessage = null;
      channel.onclose = null;
      quietly(() => channel.close());
    }
    if (peer) {
      peer.ondatachannel = null;
      peer.onconnectionstatechange = null;
      quietly(() => peer.close());
    }
  }

  private closeIfCurrent(peer: RTCPeerConnection): void {
    if (this.peer === peer) this.close();
    else quietly(() => peer.close());
  }

  private adopt(peer: RTCPeerConnection, channel: RTCDataChannel): void {
    if (this.peer !== peer) {
      quietly(() => channel.close());
      return;
    }
    const previous = this.channel;
    if (previous) {
      previous.onclose = null;
      quietly(() => previous.close());
    }
    this.channel = channel;
    channel.onmessage = (event: MessageEvent) => this.receive(event.data);
    channel.onclose = () => this.closeIfCurrent(peer);
    if (channel.readyState === 'open') this.opened(channel);
    else channel.onopen = () => this.opened(channel);
  }

  private opened(channel: RTCDataChannel): void {
    if (this.channel !== channel) return;
    this.stopPings();
    const every = this.deps.setInterval ?? ((callback: () => void, ms: number) => setInterval(callback, ms));
    this.pingTimer = every(() => {
      if (Date.now() - this.sentAtMs >= PING_QUIET_AFTER_SEND_MS) this.send({ type: 'ping', id: ++this.pingId });
    }, DATAGRAM_REPEAT_MS);
    this.deps.onLinkUp?.();
  }

  private stopPings(): void {
    if (this.pingTimer === null) return;
    const clear = this.deps.clearInterval ?? ((handle: unknown) => clearInterval(handle as ReturnType<typeof setInterval>));
    clear(this.pingTimer);
    this.pingTimer = null;
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return; // the server sends text frames only
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || typeof message.type !== 'string') return;
    if (message.type === 'pong') {
      this.deps.onLinkUp?.();
      return;
    }
    // Every copy of a question is acknowledged, taken or not: the server sends it again until it hears this.
    if (message.type === 'session_state' && message.phase === 'question' && message.question) {
      this.send({ type: 'question_seen', questionId: message.question.id });
    }
    if (takeDatagram(message, this.deps.newestStateServerTime())) this.deps.onMessage(message);
  }
}
