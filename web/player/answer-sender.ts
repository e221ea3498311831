/**
 * The phone's answer path on a bad network (DESIGN §14). A pick gets a random `answerId` and its
 * `reactionMs` (monotonic clock, from the question shown to the tap) and is sent until the server
 * confirms it with an `answer_accepted` naming that id. The socket is not trusted blindly: no
 * confirmation within max(1.5 s, 3 × the measured round trip), or nothing at all heard on the
 * socket for 1.5 s while the pick waits (a running question sends a tick every second), means the
 * socket is treated as dead (the screen says so). A second path is tried sooner, once, at 1.5 s
 * unconfirmed even on a slow link, still shown as "sending": a pick lost to a dropped packet may
 * otherwise meet a loss of signal before its TCP resend. Either way a new socket is opened and the
 * same pick goes out again: in the new socket's upgrade request itself (`upgradeParams`, one round
 * trip sooner than a message after the handshake) and once more on it when it opens (the server
 * answers resends of an id with the same acceptance, so sending twice is harmless); until that
 * socket opens, the pick also goes out over plain HTTP on fresh connections (`startBeacons`). The
 * pick is given up only when its question is over.
 *
 * Before the tap a silent socket is left alone (measured: replacing it at once made things
 * worse): once the signal is back, a pick sent on it goes straight through, as long as the phone
 * sent nothing into the outage. So the phone does not ping while a countdown runs (`wantsPing`).
 *
 * States shown on the phone:
 * - sending: on its way, not confirmed yet;
 * - offline: saved here, the socket is down or silent; it goes out as soon as one is back;
 * - counted: the server confirmed it;
 * - late: the question closed before the server took it, or the server refused it as late.
 *
 * A slow phone may also have the datagram path (docs/REALTIME.md "The datagram path"): a data
 * channel without retransmissions, so the pick goes out on it at the tap and again every
 * DATAGRAM_REPEAT_MS until settled (and at once when the path opens or brings a pong, `pathHeard`),
 * and the first copy after a loss of signal arrives one one-way delay later instead of waiting on
 * TCP's backoff. Everything above runs as before beside it.
 *
 * Plain class with injected time and transport, so it is tested with fake timers.
 */
import type { ServerMessage, SubmitAnswerMessage } from '../../protocol/index.js';
import { DATAGRAM_REPEAT_MS } from '../common/realtime/timings.js';

/** How many characters a pick's `answerId` has (base 32: 50 random bits, plenty for one player's picks). */
export const ANSWER_ID_CHARS = 10;

/**
 * A random `answerId`. Short, as it rides in every packed pick on the datagram path (whose size
 * counts, protocol/path-pick.ts); it only has to tell one player's picks of a question apart.
 */
export function newAnswerId(): string {
  const bytes = new Uint8Array(ANSWER_ID_CHARS);
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let id = '';
  for (const byte of bytes) id += (byte & 31).toString(32);
  return id;
}

export type AnswerStatus = 'idle' | 'sending' | 'offline' | 'counted' | 'late';

/** The least time a pick waits for its confirmation before the socket is presumed dead. */
export const MIN_ACK_TIMEOUT_MS = 1_500;
/** ... or this many round trips, on a slow link. */
export const ACK_TIMEOUT_ROUND_TRIPS = 3;
/**
 * A socket that has brought nothing at all for this long while a pick waits is presumed dead
 * without waiting out the round trips: while a question runs the server sends a tick every
 * second, so this much silence is a loss of signal (or a lost packet TCP is still resending),
 * and the sooner a new connection is tried, the sooner its SYN gets through once the signal is
 * back. A false alarm costs one extra connection: the silent socket is kept (RETIRED_SOCKET_MS).
 */
export const SILENT_SOCKET_MS = 1_500;
/**
 * A new socket for a waiting pick that has not opened after this long (or this many round trips,
 * on a slow link) is dialled again. Its SYN went into a loss of signal, and TCP resends a SYN after
 * 1, 3 and 7 s: once the signal is back the phone could wait up to 4 s for the next one. Dialled
 * again, a SYN leaves at most about 1.5 s after the signal returns. (A kernel that resends its
 * first SYNs every second, as the bench machine's does with `tcp_syn_linear_timeouts`, gains
 * nothing from it on average and loses nothing: docs/PERFORMANCE.md, session 33.)
 */
export const REDIAL_MS = 2_500;
export const REDIAL_ROUND_TRIPS = 2.5;
/**
 * Each further redial of the same pick waits this much longer: a server that is slow to accept
 * (a reconnect storm after a restart) is not met with a fresh dial from every waiting phone every
 * 2.5 s.
 */
export const REDIAL_GROWTH = 1.5;
/**
 * While a pick waits with its socket down or presumed dead, it also goes out over plain HTTP
 * (`POST /api/player/answer`) this often, each request on a fresh connection given up after
 * BEACON_TIMEOUT_MS (so about four at once). A browser dials one WebSocket to a host at a time,
 * and that dial's SYN is resent only every second or more; these requests race their own
 * handshakes, so once the signal is back the first that gets through carries the pick, and a
 * packet lost from one handshake does not hold the pick up (docs/REALTIME.md).
 */
export const BEACON_INTERVAL_MS = 750;
export const BEACON_TIMEOUT_MS = 3_000;
/**
 * A pick sends this many at that pace (enough to span a loss of signal of a few seconds); each
 * further one waits BEACON_GROWTH times longer, and none goes out once the server has answered
 * one. A server that is merely slow (every phone's confirmation late at once) is not met with a
 * request from every waiting phone every 0.75 s for as long as it stays slow.
 */
export const BEACONS_AT_FULL_PACE = 5;
export const BEACON_GROWTH = 1.5;
/** The phone measures its round trip this often while connected (usePlayerGame's pings). */
export const RTT_PING_INTERVAL_MS = 3_000;
/** What a waiting pick's timer looks at next, and when. */
interface Check {
  atMs: number;
  what: 'dead' | 'early' | 'offline' | 'redial';
}

/** Round trips remembered: the worst recent one sizes the wait. */
const RTT_WINDOW = 4;

export interface AnswerSenderDeps {
  /** Sends one message on the current socket; false when no socket is open. */
  send(message: unknown): boolean;
  /** The socket is presumed dead: close it and open a new one. */
  reconnect(): void;
  /**
   * Sends the pick over HTTP on a fresh connection, abandoned after BEACON_TIMEOUT_MS; reports the
   * response's status with `beaconAnswered` (none when the request failed or was given up).
   */
  beacon(message: SubmitAnswerMessage): void;
  /** A monotonic clock in ms (performance.now). */
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** A fresh random id for a pick. */
  newId(): string;
  onStatus(status: AnswerStatus): void;
  /** Sends the pick on the datagram path; false when no path is open (then it is tried again next repeat). */
  datagram?: (message: SubmitAnswerMessage) => boolean;
}

interface Pending {
  questionId: string;
  selectedIndex: number;
  answerId: string;
  reactionMs: number;
}

export class AnswerSender {
  private status: AnswerStatus = 'idle';
  private pending: Pending | null = null;
  private shown: { questionId: string; atMs: number } | null = null;
  private checkTimer: unknown = null;
  /** The question whose ticks are due (the countdown runs): silence on the socket means trouble. */
  private ticking: string | null = null;
  private readonly rtts: number[] = [];
  private socketOpen = false;
  /** When the current socket last brought anything (a message, a pong), or opened. */
  private heardAtMs: number | null = null;
  /** When the pending pick last went out on a socket. */
  private sentAtMs = 0;
  /** The pending pick has had its early second path (a new socket after 1.5 s unconfirmed). */
  private secondPathTried = false;
  /** When this sender last asked for a new socket, or the socket went down: a redial is timed from it. */
  private dialledAtMs: number | null = null;
  /** Redials of the pending pick so far. */
  private redials = 0;
  /** The pick goes out over HTTP every BEACON_INTERVAL_MS until a socket opens or it is settled. */
  private beaconTimer: unknown = null;
  /** The pending pick's HTTP requests so far, and whether the server answered one (then no more). */
  private beacons = 0;
  private beaconAnswer = false;
  /** The pending pick goes out on the datagram path every DATAGRAM_REPEAT_MS until settled. */
  private datagramTimer: unknown = null;
  /** When the pending pick last went out on the path. */
  private datagramAtMs: number | null = null;

  constructor(private readonly deps: AnswerSenderDeps) {}

  get current(): AnswerStatus {
    return this.status;
  }

  /**
   * Whether the phone should measure its round trip now (usePlayerGame's pings): not while a
   * question's countdown runs. A ping sent into a loss of signal puts the socket's TCP into its
   * resend backoff, and a pick sent after it waits behind it for seconds; round trips measured
   * between questions size the wait as well.
   */
  get wantsPing(): boolean {
    return this.ticking === null;
  }

  /** The round trip to wait on: the worst recent one; null before any was measured. */
  get rttMs(): number | null {
    return this.rtts.length ? Math.max(...this.rtts) : null;
  }

  ackTimeoutMs(): number {
    return Math.max(MIN_ACK_TIMEOUT_MS, ACK_TIMEOUT_ROUND_TRIPS * (this.rttMs ?? 0));
  }

  redialMs(): number {
    return Math.max(REDIAL_MS, REDIAL_ROUND_TRIPS * (this.rttMs ?? 0)) * REDIAL_GROWTH ** this.redials;
  }

  observeRtt(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.rtts.push(ms);
    if (this.rtts.length > RTT_WINDOW) this.rtts.shift();
  }

  /** A question appeared on screen: the reaction time of a pick counts from here (once per question). */
  questionShown(questionId: string): void {
    if (this.shown?.questionId === questionId) return;
    this.shown = { questionId, atMs: this.deps.now() };
    this.ticking = questionId;
    if (this.pending && this.pending.questionId !== questionId) this.settle('late');
    else if (!this.pending) this.setStatus('idle');
  }

  /** The player tapped a choice. */
  pick(questionId: string, selectedIndex: number): void {
    if (this.pending || this.status === 'counted') return;
    const shownAtMs = this.shown?.questionId === questionId ? this.shown.atMs : this.deps.now();
    this.pending = { questionId, selectedIndex, answerId: this.deps.newId(), reactionMs: Math.max(0, Math.round(this.deps.now() - shownAtMs)) };
    this.secondPathTried = false;
    this.redials = 0;
    this.beacons = 0;
    this.beaconAnswer = false;
    this.transmit();
    this.datagramAtMs = null;
    this.startDatagrams();
  }

  /** The datagram path opened or brought a pong: a waiting pick goes out on it now, unless it just did. */
  pathHeard(): void {
    const message = this.message();
    if (!message || !this.deps.datagram) return;
    if (this.datagramAtMs !== null && this.deps.now() - this.datagramAtMs < DATAGRAM_REPEAT_MS) return;
    this.sendOnPath(message);
  }

  private sendOnPath(message: SubmitAnswerMessage): void {
    if (this.deps.datagram?.(message)) this.datagramAtMs = this.deps.now();
  }

  /**
   * The server answered one of the pick's HTTP requests (`status`). 202: it has the pick, whose
   * confirmation comes on a socket; a refusal (4xx) will not change by asking again. Either way no
   * more requests for this pick; a server error (5xx) leaves them going.
   */
  beaconAnswered(answerId: string | undefined, status: number): void {
    if (answerId === undefined || this.pending?.answerId !== answerId || status >= 500) return;
    this.beaconAnswer = true;
    this.stopBeacons();
  }

  /** Anything arrived on the current socket (every message, pongs included): it is alive. */
  heard(): void {
    this.heardAtMs = this.deps.now();
  }

  /**
   * Query parameters for the next socket's upgrade request: the pending pick, as the same
   * `submit_answer` message the socket would carry (docs/REALTIME.md), so the server has it as
   * soon as the request arrives. Undefined when no pick waits.
   */
  upgradeParams(): Record<string, string> | undefined {
    const message = this.message();
    return message ? { answer: JSON.stringify(message) } : undefined;
  }

  socketOpened(): void {
    this.socketOpen = true;
    this.heardAtMs = this.deps.now();
    this.stopBeacons(); // the new socket carries the pick (and carried it in its upgrade request)
    if (this.pending) this.transmit();
  }

  socketClosed(): void {
    this.socketOpen = false;
    this.dialledAtMs = this.deps.now();
    if (this.pending) {
      this.setStatus('offline');
      this.startBeacons();
    }
    this.watch();
  }

  /** The question is over (question_end, or the phone learnt it moved on): a pick not confirmed is too late. */
  questionClosed(questionId: string): void {
    if (this.pending?.questionId === questionId) this.settle('late');
  }

  onMessage(message: ServerMessage): void {
    // Ticks come every second until the last one (1 s left); then the reveal, which may be held.
    if (message.type === 'timer_tick') this.ticking = message.timeRemaining > 1 ? message.questionId : null;
    else if (message.type === 'question_end' || (message.type === 'session_state' && message.phase !== 'question')) this.ticking = null;
    const pending = this.pending;
    if (!pending) return;
    if (message.type === 'answer_accepted' && message.questionId === pending.questionId) {
      // Confirmed by id; an acceptance without one (another tab of this player) settles it too.
      if (message.answerId === undefined || message.answerId === pending.answerId) this.settle('counted');
    } else if (message.type === 'error' && message.questionId === pending.questionId) {
      // The server holds a different pick of this player (another tab): that one counts.
      if (message.code === 'answer/duplicate') this.settle('counted');
      else if (message.code.startsWith('answer/') || message.code === 'session/not_live') this.settle('late');
    } else if (message.type === 'session_state' && message.view === 'player' && message.question?.id === pending.questionId && message.answered) {
      this.settle('counted'); // a new socket learnt the server already has it
    } else if (message.type === 'answer_result' && message.questionId === pending.questionId) {
      this.settle('counted');
    } else if (message.type === 'question_end' && message.questionId === pending.questionId) {
      this.settle('late');
    }
  }

  dispose(): void {
    this.stopTimer();
    this.stopBeacons();
    this.stopDatagrams();
  }

  private message(): SubmitAnswerMessage | null {
    const pending = this.pending;
    if (!pending) return null;
    const { questionId, selectedIndex, answerId, reactionMs } = pending;
    return { type: 'submit_answer', questionId, selectedIndex, answerId, reactionMs };
  }

  private transmit(): void {
    const message = this.message();
    if (!message) return;
    this.stopTimer();
    const sent = this.socketOpen && this.deps.send(message);
    if (!sent) {
      this.setStatus('offline');
      this.startBeacons();
      return;
    }
    this.sentAtMs = this.deps.now();
    this.setStatus('sending');
    this.watch();
  }

  /**
   * The next thing to check while a pick waits, and when. On the open socket: dead when its
   * confirmation is overdue (the ack timeout) or it is silent; before that, at 1.5 s, a second
   * path once per pick (`early`). While the replacement connects after the second path: the
   * screen says offline at the ack timeout.
   */
  private nextCheck(): Check | null {
    if (!this.pending) return null;
    const ackDueMs = this.sentAtMs + this.ackTimeoutMs();
    if (!this.socketOpen) {
      const redial: Check | null = this.dialledAtMs === null ? null : { atMs: this.dialledAtMs + this.redialMs(), what: 'redial' };
      if (this.status === 'sending' && (redial === null || ackDueMs < redial.atMs)) return { atMs: ackDueMs, what: 'offline' };
      return redial;
    }
    let next: Check = { atMs: ackDueMs, what: 'dead' };
    if (this.heardAtMs !== null && this.heardAtMs + SILENT_SOCKET_MS < next.atMs) next = { atMs: this.heardAtMs + SILENT_SOCKET_MS, what: 'dead' };
    if (!this.secondPathTried && this.sentAtMs + MIN_ACK_TIMEOUT_MS < next.atMs) next = { atMs: this.sentAtMs + MIN_ACK_TIMEOUT_MS, what: 'early' };
    return next;
  }

  /** (Re)arms the one check of the pick: looked at again when due (heard meanwhile: the silence restarted). */
  private watch(): void {
    this.stopTimer();
    const next = this.nextCheck();
    if (next === null) return;
    const waitMs = next.atMs - this.deps.now();
    if (waitMs > 0) {
      this.checkTimer = this.deps.setTimer(() => {
        this.checkTimer = null;
        this.watch();
      }, waitMs);
      return;
    }
    if (next.what === 'offline') {
      this.setStatus('offline');
      this.watch(); // then the redial, if the new socket still has not opened
      return;
    }
    // A new socket, the pick in its upgrade request and again on it once open; the old one is
    // kept (RETIRED_SOCKET_MS) and its confirmation still counts.
    this.socketOpen = false;
    if (next.what === 'dead') {
      this.setStatus('offline'); // a silent socket is a dead one: say so
    } else if (next.what === 'early') {
      // Merely slow so far (a lost packet TCP will resend, or a loss of signal starting): still
      // "sending" on two paths until the ack timeout says otherwise.
      this.secondPathTried = true;
    }
    // 'redial': the socket dialled last has not opened; it is dropped for a new one.
    if (next.what === 'redial') this.redials++;
    this.dialledAtMs = this.deps.now();
    this.deps.reconnect();
    this.startBeacons();
    this.watch();
  }

  private settle(status: 'counted' | 'late'): void {
    this.pending = null;
    this.stopTimer();
    this.stopBeacons();
    this.stopDatagrams();
    this.setStatus(status);
  }

  /**
   * Sends the pick over HTTP now and again every BEACON_INTERVAL_MS (later ones further apart),
   * unless already doing so or the server has answered one.
   */
  private startBeacons(): void {
    if (this.beaconTimer !== null || this.beaconAnswer) return;
    const beacon = () => {
      const message = this.message();
      if (!message) {
        this.beaconTimer = null;
        return;
      }
      this.deps.beacon(message);
      this.beacons++;
      const slower = Math.max(0, this.beacons - BEACONS_AT_FULL_PACE);
      this.beaconTimer = this.deps.setTimer(beacon, BEACON_INTERVAL_MS * BEACON_GROWTH ** slower);
    };
    beacon();
  }

  private stopBeacons(): void {
    if (this.beaconTimer !== null) this.deps.clearTimer(this.beaconTimer);
    this.beaconTimer = null;
  }

  /**
   * Sends the pick on the datagram path now and every DATAGRAM_REPEAT_MS while it waits, path open
   * or not yet: nothing on the path is resent by the transport, and an offer may open it mid-pick.
   */
  private startDatagrams(): void {
    const datagram = this.deps.datagram;
    if (!datagram) return;
    this.stopDatagrams();
    const repeat = () => {
      const message = this.message();
      if (!message) {
        this.datagramTimer = null;
        return;
      }
      this.sendOnPath(message);
      this.datagramTimer = this.deps.setTimer(repeat, DATAGRAM_REPEAT_MS);
    };
    repeat();
  }

  private stopDatagrams(): void {
    if (this.datagramTimer !== null) this.deps.clearTimer(this.datagramTimer);
    this.datagramTimer = null;
  }

  private stopTimer(): void {
    if (this.checkTimer !== null) this.deps.clearTimer(this.checkTimer);
    this.checkTimer = null;
  }

  private setStatus(status: AnswerStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.deps.onStatus(status);
  }
}

