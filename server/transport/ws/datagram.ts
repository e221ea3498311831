/**
 * The datagram path (docs/REALTIME.md "The datagram path"): a WebRTC data channel, unordered and
 * without retransmissions, beside a slow phone's socket. After a loss of signal TCP holds a
 * question or a pick behind its backed-off resends; here the phone pings every 250 ms, and what
 * the other side lacks is sent again as soon as a ping (or its pong) shows the link is back.
 *
 * Why not simply repeat everything every 250 ms: SCTP still runs congestion control under an
 * unreliable channel. Data sent into a loss of signal fills the window (one packet after a resend
 * timeout), and nothing more leaves until the next timeout, whose backoff doubles: question states
 * repeated into a 4 s outage arrived up to 7.7 s late on the bench (docs/PERFORMANCE.md). Pings of
 * 25 bytes do not fill it, so the first one after the signal returns gets through at once.
 *
 * One path per player (not per socket: a phone replacing a silent socket keeps it), offered by
 * the server on the first ping reporting a slow round trip, all paths of the instance on one UDP
 * port (ICE UDP mux). The library (libdatachannel, native) is loaded on the first offer, so an
 * instance whose phones are all fast never starts its threads. What goes out here: the question's
 * state (again whenever the phone is heard, until it says `question_seen` or the question ends), pongs and
 * the player's `answer_accepted`. What comes in is handed to the socket server as a message of the
 * player's socket (`receive`).
 */
import { type ClientMessage, ERROR_CODES, type ErrorMessage, type ServerMessage, errorMessage } from '../../../protocol/index.js';
import type { RoomLog } from '../../game/rooms/index.js';
import type { Client } from './client.js';
import { refilledTokens } from './token-bucket.js';

/** The little of node-datachannel used here. */
interface DataChannel {
  onOpen(callback: () => void): void;
  onClosed(callback: () => void): void;
  onMessage(callback: (message: string | Buffer | ArrayBuffer) => void): void;
  sendMessage(message: string): boolean;
  isOpen(): boolean;
  close(): void;
}
interface PeerConnection {
  onGatheringStateChange(callback: (state: string) => void): void;
  onStateChange(callback: (state: string) => void): void;
  localDescription(): { type: string; sdp: string } | null;
  setRemoteDescription(sdp: string, type: 'answer'): void;
  createDataChannel(label: string, init: { unordered: boolean; maxRetransmits: number }): DataChannel;
  close(): void;
}
interface RtcConfig {
  iceServers: string[];
  enableIceUdpMux: boolean;
  portRangeBegin: number;
  portRangeEnd: number;
  bindAddress?: string;
}
interface Library {
  PeerConnection: new (name: string, config: RtcConfig) => PeerConnection;
}

/** A question's state is sent again on a phone's ping at most this often, until the phone has it. */
export const QUESTION_RESEND_MS = 200;
/** A path offered and not open this long after is closed (the phone never replied, or UDP is blocked). */
export const OPEN_TIMEOUT_MS = 20_000;
/**
 * A path that failed (or never opened) is offered again at the phone's next report, once: a
 * setup can fail for a passing reason (a lost reply, a network change). A second failure within
 * this long waits it out: a phone whose UDP is blocked is not offered a path every 3 s.
 */
export const REOFFER_AFTER_MS = 60_000;
/** A question is sent again at most this long (a paused question's state has no deadline). */
const MAX_REPEAT_MS = 60_000;
/**
 * Messages a phone may send on its path: a ping every 250 ms, a waiting pick again on each pong,
 * and a `question_seen` per question copy is 12 a second at most; more is dropped (never answered,
 * never closing anything).
 */
export const PATH_MESSAGES_PER_SECOND = 16;
export const PATH_MESSAGE_BURST = 48;

export interface DatagramOptions {
  /** The UDP port every path of this instance shares (read at the first offer: the HTTP port may be chosen at listen). */
  udpPort: () => number;
  /** Where the server's candidates are gathered; null: every interface. */
  address: string | null;
  /** A phone reporting a round trip of at least this gets a path. */
  minRttMs: number;
  /** Paths open (or being opened) at once on this instance. */
  maxPeers: number;
}

export interface DatagramDeps {
  log: RoomLog;
  /** Sends a message on one socket (the offer). */
  signal(client: Client, message: ServerMessage): void;
  /** A message that came on a player's path, to be taken as a message of that player's socket. */
  receive(client: Client, raw: string): void;
  /** The player's open sockets (a path outlives the socket it was offered on). */
  playerClients(sessionId: string, playerId: string): Iterable<Client>;
}

interface Peer {
  readonly key: string;
  readonly sessionId: string;
  readonly playerId: string;
  /** The player's socket the path's messages are taken as: the newest. */
  owner: Client;
  readonly pc: PeerConnection;
  readonly channel: DataChannel;
  open: boolean;
  /** The phone's reply was taken: a second one is refused. */
  replied: boolean;
  /** The server's candidates, held back from the offer until the reply is taken (`datagram_candidates`). */
  candidates: { mid: string; candidates: string[] } | null;
  openTimer: NodeJS.Timeout;
  tokens: number;
  refilledAtMs: number;
  /** The open question's state, sent again on the phone's pings until it has it. */
  resend: { questionId: string; payload: string; untilMs: number; sentAtMs: number } | null;
}

function keyOf(sessionId: string, playerId: string): string {
  return `${sessionId} ${playerId}`;
}

/**
 * An SDP without its candidate lines. A reply's are dropped: the server learns the phone's address
 * from the phone's own checks, and sends checks to no address a client names. The offer's are
 * sent after the reply is taken (`candidatesOf`, `datagram_candidates`).
 */
export function withoutCandidates(sdp: string): string {
  return sdp
    .split(/\r?\n/)
    .filter((line) => !line.startsWith('a=candidate:') && line !== 'a=end-of-candidates')
    .join('\r\n');
}

/**
 * The candidates of an SDP (as `candidate:` attributes, without `a=`) and its media section's id;
 * null when it has no candidate.
 */
export function candidatesOf(sdp: string): { mid: string; candidates: string[] } | null {
  const lines = sdp.split(/\r?\n/);
  const candidates = lines.filter((line) => line.startsWith('a=candidate:')).map((line) => line.slice(2));
  const mid = lines.find((line) => line.startsWith('a=mid:'))?.slice(6);
  return candidates.length > 0 && mid !== undefined ? { mid, candidates } : null;
}

export class DatagramPaths {
  private library: Promise<Library | null> | null = null;
  private readonly peers = new Map<string, Peer>();
  private readonly bySession = new Map<string, Set<Peer>>();
  /** Each session's open question while the instance has paths: a path that opens during the question gets it too. */
  private readonly openQuestions = new Map<string, { questionId: string; payload: string; untilMs: number }>();
  /** Keys being set up (the library loading): no second offer meanwhile. */
  private readonly opening = new Set<string>();
  /** A player's paths that failed: how many in a row, and when the last did (swept as they grow). */
  private readonly failures = new Map<string, { count: number; atMs: number }>();
  /** The library could not load, or the port could not be bound: no more offers on this instance. */
  private disabled = false;
  private closed = false;

  constructor(
    private readonly options: DatagramOptions,
    private readonly deps: DatagramDeps,
  ) {}

  get size(): number {
    return this.peers.size;
  }

  /** The path of the player whose socket `client` is, if any. */
  private peerOf(client: Client): Peer | undefined {
    return client.playerId === null ? undefined : this.peers.get(keyOf(client.sessionId, client.playerId));
  }

  /** Whether this player has an open path (tests, diagnostics). */
  isOpen(sessionId: string, playerId: string): boolean {
    return this.peers.get(keyOf(sessionId, playerId))?.open ?? false;
  }

  /** A player socket reported its round trip (ping's `rttMs`): a slow one is offered a path. */
  consider(client: Client, rttMs: number): void {
    if (this.disabled || this.closed || client.playerId === null || rttMs < this.options.minRttMs) return;
    const key = keyOf(client.sessionId, client.playerId);
    if (this.peers.has(key) || this.opening.has(key)) return;
    if (this.peers.size + this.opening.size >= this.options.maxPeers) return;
    const failed = this.failures.get(key);
    if (failed && failed.count >= 2) {
      if (Date.now() - failed.atMs < REOFFER_AFTER_MS) return;
      this.failures.delete(key);
    }
    this.opening.add(key);
    this.open(client, key)
      .catch((err) => this.deps.log.warn({ err, connectionId: client.id }, 'the datagram path could not be offered'))
      .finally(() => this.opening.delete(key));
  }

  /** A new socket of a player with a path takes it over. */
  adopt(client: Client): void {
    const peer = this.peerOf(client);
    if (peer) peer.owner = client;
  }

  /** A player socket closed (already out of the hub): its path goes to the player's other socket, or closes. */
  released(client: Client): void {
    const peer = this.peerOf(client);
    if (!peer || peer.owner !== client || client.playerId === null) return;
    for (const other of this.deps.playerClients(client.sessionId, client.playerId)) {
      if (other !== client) {
        peer.owner = other;
        return;
      }
    }
    this.close(peer, false);
  }

  /** The phone's `datagram_reply`: null when taken, else the error to answer with. */
  reply(client: Client, sdp: string): ErrorMessage | null {
    const peer = this.peerOf(client);
    if (!peer || peer.replied) return errorMessage(ERROR_CODES.invalidMessage, 'Invalid datagram_reply: no datagram offer is waiting for a reply');
    try {
      peer.pc.setRemoteDescription(withoutCandidates(sdp), 'answer');
    } catch {
      return errorMessage(ERROR_CODES.invalidMessage, 'Invalid datagram_reply: the SDP is not an answer to the offer');
    }
    peer.replied = true;
    // Only now may the phone's checks reach this end (see `open`).
    if (peer.candidates) this.deps.signal(client, { type: 'datagram_candidates', ...peer.candidates });
    return null;
  }

  /** The phone has the question (`question_seen`, on either path): not sent again. */
  seen(client: Client, questionId: string): void {
    const peer = this.peerOf(client);
    if (peer?.resend?.questionId === questionId) peer.resend = null;
  }

  /**
   * A valid message came on the player's path: the link is up. A `question_seen` stops the
   * question's resends, a ping is answered with a pong there (the phone sends a waiting pick on
   * it), and the open question goes again if the phone has not said it has it.
   */
  heard(client: Client, message: ClientMessage): void {
    const peer = this.peerOf(client);
    if (!peer?.open) return;
    const nowMs = Date.now();
    if (message.type === 'question_seen' && peer.resend?.questionId === message.questionId) peer.resend = null;
    if (message.type === 'ping') this.sendOn(peer, JSON.stringify({ type: 'pong', id: message.id, serverTime: nowMs }));
    const resend = peer.resend;
    if (!resend) return;
    if (nowMs >= resend.untilMs) peer.resend = null;
    else if (nowMs - resend.sentAtMs >= QUESTION_RESEND_MS) {
      resend.sentAtMs = nowMs;
      this.sendOn(peer, resend.payload);
    }
  }

  /** A frame broadcast to a session's players: a question's state goes out on their paths (again on pings until seen); the next state or its end stops that. */
  toSession(sessionId: string, frame: Buffer): void {
    if (this.peers.size === 0) return;
    // Ticks and the like go by unparsed: only a state or a question's end changes what the paths carry.
    // Every session's open question is kept (not only those with a path now): a path that opens
    // during it gets it, and a packed pick's question is named against it (`questionIdFor`).
    const message = parseFrame(frame, STATE_TYPES);
    if (!message) return;
    const peers = this.bySession.get(sessionId) ?? [];
    if (message.type === 'session_state' && message.phase === 'question' && message.question) {
      const nowMs = Date.now();
      const question = {
        questionId: message.question.id,
        payload: pathCopy(message),
        untilMs: Math.min(typeof message.endsAt === 'number' ? message.endsAt : Number.POSITIVE_INFINITY, nowMs + MAX_REPEAT_MS),
      };
      this.openQuestions.set(sessionId, question);
      for (const peer of peers) if (peer.open) this.sendQuestion(peer, question, nowMs);
    } else if (message.type === 'question_end' || message.type === 'session_state') {
      this.openQuestions.delete(sessionId);
      for (const peer of peers) peer.resend = null;
    }
  }

  /** The open question of the session whose id starts with `reference` (a packed pick's), else the reference itself. */
  questionIdFor(sessionId: string, reference: string): string {
    const open = this.openQuestions.get(sessionId)?.questionId;
    return open?.startsWith(reference) ? open : reference;
  }

  /** A frame for one player: its `answer_accepted` goes out on the player's path too. */
  toPlayer(sessionId: string, playerId: string, frame: Buffer | string): void {
    if (this.peers.size === 0) return;
    const peer = this.peers.get(keyOf(sessionId, playerId));
    if (!peer?.open) return;
    const message = parseFrame(frame, ACCEPTED_TYPES);
    if (message?.type === 'answer_accepted') this.sendOn(peer, typeof frame === 'string' ? frame : frame.toString('utf8'));
  }

  /** Closes every path (shutdown). */
  closeAll(): void {
    this.closed = true;
    for (const peer of [...this.peers.values()]) this.close(peer, false);
    this.failures.clear();
  }

  private loadLibrary(): Promise<Library | null> {
    this.library ??= import('node-datachannel').then(
      (module) => module as unknown as Library,
      (err: unknown) => {
        this.deps.log.warn({ err }, 'the WebRTC library could not load: no datagram paths on this instance');
        this.disabled = true;
        return null;
      },
    );
    return this.library;
  }

  private async open(client: Client, key: string): Promise<void> {
    const library = await this.loadLibrary();
    const playerId = client.playerId;
    if (!library || this.closed || this.disabled || playerId === null || client.socket.readyState !== client.socket.OPEN) return;
    const port = this.options.udpPort();
    const config: RtcConfig = { iceServers: [], enableIceUdpMux: true, portRangeBegin: port, portRangeEnd: port };
    if (this.options.address !== null) config.bindAddress = this.options.address;
    const pc = new library.PeerConnection(`marquee ${client.id}`, config);
    let peer: Peer | null = null;
    // Set before the channel: creating it starts the offer and the gathering at once.
    pc.onGatheringStateChange((state) => {
      if (state !== 'complete' || !peer || this.peers.get(key) !== peer) return;
      const description = pc.localDescription();
      const candidates = description ? candidatesOf(description.sdp) : null;
      if (!description || !candidates) {
        // Nothing to offer: the port is taken, or no address to gather on.
        this.deps.log.warn({ port, address: this.options.address }, 'the datagram path gathered no address: no datagram paths on this instance');
        this.disabled = true;
        this.close(peer, true);
        return;
      }
      // The candidates wait for the reply. libdatachannel (0.24.5) gives an answer to the ICE
      // agent before it keeps it for the DTLS fingerprint check: a phone whose checks had already
      // arrived could finish ICE and send its certificate in between, and the handshake failed
      // ("certificate verify failed"), often on a busy instance. A phone that does not know where
      // to send its checks yet cannot.
      peer.candidates = candidates;
      this.deps.signal(peer.owner, { type: 'datagram_offer', sdp: withoutCandidates(description.sdp) });
    });
    pc.onStateChange((state) => {
      if ((state === 'failed' || state === 'closed') && peer && this.peers.get(key) === peer) this.close(peer, true);
    });
    let channel: DataChannel;
    try {
      channel = pc.createDataChannel('marquee', { unordered: true, maxRetransmits: 0 });
    } catch (err) {
      // The library gathers at once and throws when it cannot bind (the UDP port is taken).
      this.deps.log.warn({ err, port, address: this.options.address }, 'the datagram path could not bind its UDP port: no datagram paths on this instance');
      this.disabled = true;
      pc.close();
      return;
    }
    const nowMs = Date.now();
    const created: Peer = {
      key,
      sessionId: client.sessionId,
      playerId,
      owner: client,
      pc,
      channel,
      open: false,
      replied: false,
      candidates: null,
      openTimer: setTimeout(() => {
        if (!created.open && this.peers.get(key) === created) this.close(created, true);
      }, OPEN_TIMEOUT_MS),
      tokens: PATH_MESSAGE_BURST,
      refilledAtMs: nowMs,
      resend: null,
    };
    peer = created;
    created.openTimer.unref();
    this.peers.set(key, created);
    let group = this.bySession.get(client.sessionId);
    if (!group) this.bySession.set(client.sessionId, (group = new Set()));
    group.add(created);
    channel.onOpen(() => {
      created.open = true;
      clearTimeout(created.openTimer);
      // A path that opens during a question (its handshake can take seconds on a bad link) gets it at once.
      const question = this.openQuestions.get(created.sessionId);
      if (question) this.sendQuestion(created, question, Date.now());
    });
    channel.onClosed(() => {
      if (this.peers.get(key) === created) this.close(created, !created.open);
    });
    channel.onMessage((data) => {
      if (typeof data !== 'string' || this.peers.get(key) !== created || !this.withinRate(created)) return;
      this.deps.receive(created.owner, data);
    });
  }

  /** The open question on a path, and again whenever the phone is heard until it says it has it. */
  private sendQuestion(peer: Peer, question: { questionId: string; payload: string; untilMs: number }, nowMs: number): void {
    if (nowMs >= question.untilMs) return;
    peer.resend = { ...question, sentAtMs: nowMs };
    this.sendOn(peer, question.payload);
  }

  private withinRate(peer: Peer): boolean {
    const nowMs = Date.now();
    peer.tokens = refilledTokens(peer.tokens, peer.refilledAtMs, nowMs, PATH_MESSAGES_PER_SECOND, PATH_MESSAGE_BURST);
    peer.refilledAtMs = nowMs;
    if (peer.tokens < 1) return false;
    peer.tokens -= 1;
    return true;
  }

  private sendOn(peer: Peer, payload: string): void {
    try {
      if (peer.channel.isOpen()) peer.channel.sendMessage(payload);
    } catch {
      // A datagram that could not leave is a datagram lost: it goes again on a ping, TCP carries it too.
    }
  }

  private close(peer: Peer, failed: boolean): void {
    if (this.peers.get(peer.key) !== peer) return;
    this.peers.delete(peer.key);
    const group = this.bySession.get(peer.sessionId);
    group?.delete(peer);
    if (group?.size === 0) this.bySession.delete(peer.sessionId);
    // With no path left, broadcasts are no longer read: what is kept could go stale.
    if (this.peers.size === 0) this.openQuestions.clear();
    peer.resend = null;
    clearTimeout(peer.openTimer);
    if (failed && !this.closed) {
      const count = (this.failures.get(peer.key)?.count ?? 0) + 1;
      this.failures.set(peer.key, { count, atMs: Date.now() });
      this.deps.log.info({ sessionId: peer.sessionId, playerId: peer.playerId, failures: count }, 'a datagram path failed');
    } else if (peer.open) {
      this.failures.delete(peer.key); // it worked: a later failure starts the count again
    }
    if (this.failures.size > 10_000) this.sweepFailures();
    try {
      peer.channel.close();
      peer.pc.close();
    } catch {
      // Closing twice (the library closed it first) is fine.
    }
  }

  private sweepFailures(): void {
    const nowMs = Date.now();
    for (const [key, failed] of this.failures) if (nowMs - failed.atMs >= REOFFER_AFTER_MS) this.failures.delete(key);
  }
}

/**
 * The path's copy of a question's state: without the leaderboard and the media list (the phone
 * shows neither while a question runs; the socket's copy brings them). So it is one packet, not
 * two: after losses SCTP lets one packet out per round trip, and a lost piece loses the whole
 * message (docs/PERFORMANCE.md, session 38).
 */
export function pathCopy(message: object): string {
  return JSON.stringify({ ...message, leaderboard: [], media: [] });
}

/** How the message types the paths act on look in a serialized frame (a cheap look before parsing). */
const STATE_TYPES = ['"type":"session_state"', '"type":"question_end"'];
const ACCEPTED_TYPES = ['"type":"answer_accepted"'];

/**
 * The fields of a frame the path looks at; null when it is not one of ours, or cannot be of one of
 * `types` (a frame is parsed only if it holds one of them: a false hit is parsed and checked).
 */
function parseFrame(frame: Buffer | string, types: string[]): { type?: string; phase?: string; question?: { id: string } | null; endsAt?: number | null } | null {
  if (!types.some((type) => frame.includes(type))) return null;
  try {
    const parsed: unknown = JSON.parse(typeof frame === 'string' ? frame : frame.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}
