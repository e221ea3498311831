/**
 * `npm run bench -- networks [phones] [--questions 3] [--client old|new|both] [--shaper netns|proxy]
 * [--no-datagram]`: a full auditorium on four network profiles (shaper.ts), 10 s questions, every
 * phone tapping the right answer at a human reaction time of 1–7 s after the question appeared on
 * it (if its own countdown still runs then). Scored against the points that reaction earns on a
 * perfect network. `--no-datagram`: the server offers no datagram path (networks-run.ts).
 *
 * `old` plays main's phone: the pick sent once (again only after its socket closed and reopened),
 * no id, no reaction time, no wait for the confirmation. `new` plays web/player/answer-sender.ts
 * itself, and web/player/datagram-path.ts for the datagram path (docs/REALTIME.md "The datagram
 * path"), on node-datachannel's W3C RTCPeerConnection bound to the phone's shaped address: its
 * pings report `rttMs`, it answers the server's offer, takes the question and the acceptance from
 * the path as well, and its picks go out on it too. The server is the same (`npm start`'s),
 * its clock the phones' clock (one machine).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { PeerConnection, cleanup } from 'node-datachannel';
import { RTCPeerConnection as NodeRTCPeerConnection } from 'node-datachannel/polyfill';
import WebSocket from 'ws';
import {
  MAX_REPORTED_RTT_MS,
  PLAYER_ANSWER_PATH,
  type PlayerAnswerBody,
  type ServerMessage,
  type SubmitAnswerMessage,
} from '../protocol/index.js';
import { AnswerSender, BEACON_TIMEOUT_MS, RTT_PING_INTERVAL_MS, newAnswerId } from '../web/player/answer-sender.js';
import { RETIRED_SOCKET_MS, attemptUrl, takeFromRetired } from '../web/common/realtime/timings.js';
import { DatagramPath, socketDeadBesidePath } from '../web/player/datagram-path.js';
import { pointsForCorrectAnswer } from '../server/game/engine/scoring.js';
import { PROFILES, type NetworkProfile } from './shaper.js';
import { distribution, round, type Distribution } from './stats.js';
import { sleep } from './wait.js';

export const QUESTION_SECONDS = 10;
const POINTS = 100;
const CORRECT = 0;

export type ClientKind = 'old' | 'new';

interface Asking {
  questionId: string;
  shownAtMs: number;
  endsAt: number;
  tappedAtMs: number | null;
  /** Filled from the server's stored answers after the run (the phone may have missed its result). */
  counted?: { points: number };
  /** The tap was made while the phone's own countdown still ran. */
  inTime: boolean;
  reactionMs: number;
  points: number | null;
  accepted: boolean;
}

/** A phone's shaped link: the namespace's (netns.ts, the default) or the TCP proxy fallback (shaped-link.ts). */
export interface PhoneLink {
  readonly profile: NetworkProfile;
  /** The source address the phone's sockets bind to (the namespace's per-phone address). */
  readonly localAddress?: string;
  readonly cutOffNow: boolean;
  readonly cutOffEndsAtMs: number;
  cutOff(ms: number): void;
  close(): Promise<void>;
}

/** One phone: a socket through its own shaped link, reopened as its client would. */
export class BenchPhone {
  socket: WebSocket | null = null;
  readonly askings = new Map<string, Asking>();
  private sender: AnswerSender | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly retired: WebSocket[] = [];
  /** The phone's round-trip pings on its current socket (usePlayerGame's: every 3 s while open, none while a countdown runs). */
  private pingTimer: NodeJS.Timeout | null = null;
  private readonly pings = new Map<number, number>();
  private pingId = 0;
  /**
   * Questions whose first acceptance reached the phone after that question's end on the same
   * socket. Either a resend's repeat of an acceptance the phone missed (fine) or an answer taken
   * after question_end: the figures count those the server did not store (profileFigures).
   */
  readonly acceptedAfterEnd = new Set<string>();
  /** What happened on this phone and when (NETWORKS_TRACE=1 prints it for taps short of their points). */
  readonly events: Array<{ atMs: number; what: string }> = [];
  /** Questions some socket has brought an acceptance of (a path's acceptance says nothing of a socket's order). */
  private readonly acceptedOnSocket = new Set<string>();
  /** The datagram path: the phone's own (datagram-path.ts); kind 'new' only. */
  private readonly path: DatagramPath | null = null;
  /** The newest `serverTime` of any session_state handled, from either path: a late repeat on the path is refused by it. */
  private newestStateServerTime: number | null = null;
  /** The pick last sent on the path (its repeats are not noted). */
  private pathAnswerId: string | null = null;
  /** When the phone first dialled and when its path first opened (Date.now(); null: not yet). */
  firstConnectAtMs: number | null = null;
  datagramOpenedAtMs: number | null = null;
  /** The server offered it a datagram path. */
  datagramOffered = false;
  /** Questions shown, and acceptances taken, from the path before any socket brought them. */
  readonly questionsFirstOnPath = new Set<string>();
  readonly acceptedFirstOnPath = new Set<string>();

  constructor(
    private readonly url: string,
    readonly link: PhoneLink,
    private readonly kind: ClientKind,
  ) {
    if (kind === 'new') {
      this.sender = new AnswerSender({
        send: (message) => this.send(message),
        reconnect: () => this.connect(),
        beacon: (message) => this.beacon(message),
        now: () => performance.now(),
        setTimer: (callback, ms) => setTimeout(callback, ms),
        clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
        newId: newAnswerId,
        onStatus: (status) => this.note(status),
        datagram: (message) => this.sendOnPath(message),
      });
      this.path = new DatagramPath({
        createPeer: () => {
          const bound = new PeerConnection('phone', { iceServers: [], ...(link.localAddress ? { bindAddress: link.localAddress } : {}) });
          return new NodeRTCPeerConnection({ iceServers: [], peerConnection: bound }) as unknown as RTCPeerConnection;
        },
        signal: (message) => this.send(message),
        onMessage: (message) => this.fromPath(message),
        newestStateServerTime: () => this.newestStateServerTime,
        onLinkUp: () => {
          if (this.datagramOpenedAtMs === null) {
            this.note('path open');
            this.datagramOpenedAtMs = Date.now();
          }
          this.sender?.pathHeard();
          // As usePlayerGame: a socket that left a ping unanswered for long beside a working path is dead.
          if (socketDeadBesidePath(this.pings.values().next().value, performance.now())) {
            this.note('socket presumed dead');
            this.pings.clear();
            this.connect();
          }
        },
      });
    }
  }

  note(what: string): void {
    this.events.push({ atMs: Date.now(), what });
  }

  get profile(): NetworkProfile {
    return this.link.profile;
  }

  /** In the game: its socket open and, if it was offered a datagram path, that path open. */
  get joined(): boolean {
    return this.socket?.readyState === WebSocket.OPEN && (!this.datagramOffered || this.datagramOpenedAtMs !== null);
  }

  connect(): void {
    if (this.stopped) return;
    this.firstConnectAtMs ??= Date.now();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const old = this.socket;
    if (old?.readyState === WebSocket.CONNECTING) {
      // Never opened: dropped, as the phone's socket hook drops it (a browser dials one socket
      // to a host at a time).
      old.removeAllListeners('open');
      old.removeAllListeners('close');
      old.terminate();
    } else if (old) {
      // Left open, as the phone's socket hook leaves a silent one (useSessionSocket.ts): what it
      // already carries (the pick) still goes through once the signal is back, and what it
      // delivers (the acceptance) still counts; it is no longer the phone's socket for sending.
      old.removeAllListeners('open');
      old.removeAllListeners('close');
      setTimeout(() => old.close(), RETIRED_SOCKET_MS).unref();
      this.retired.push(old);
    }
    this.stopPings();
    // As the phone's socket hook does: an unconfirmed pick rides in the upgrade request.
    const extra = this.sender?.upgradeParams();
    const socket = new WebSocket(attemptUrl(this.url, extra), { localAddress: this.link.localAddress });
    this.socket = socket;
    this.note(extra ? 'connect with the pick' : 'connect');
    socket.on('error', () => undefined);
    socket.on('open', () => {
      this.note('open');
      this.sender?.socketOpened();
      if (this.sender) this.startPings(socket);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.note('close');
      this.stopPings();
      this.sender?.socketClosed();
      this.reconnectTimer = setTimeout(() => this.connect(), 500);
    });
    // Questions this socket has delivered the end of: a first acceptance after it would be an answer taken late.
    const endedHere = new Set<string>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'question_end') endedHere.add(message.questionId);
      if (message.type === 'answer_accepted') {
        if (endedHere.has(message.questionId) && !this.acceptedOnSocket.has(message.questionId)) this.acceptedAfterEnd.add(message.questionId);
        this.acceptedOnSocket.add(message.questionId);
      }
      // The phone hears from its current socket; a retired one as useSessionSocket takes it: all
      // of the newest while its replacement has not opened, then only the acceptance.
      if (this.socket === socket) this.sender?.heard();
      else if (this.sender) {
        const newestRetired = this.retired.at(-1) === socket;
        if (!takeFromRetired({ newestRetired, replacementOpen: this.socket?.readyState === WebSocket.OPEN, accepted: message.type === 'answer_accepted' })) return;
        this.sender.heard();
      }
      if (message.type === 'pong') {
        const sentAt = this.pings.get(message.id);
        this.pings.delete(message.id);
        const firstRtt = this.sender?.rttMs === null;
        if (sentAt !== undefined) this.sender?.observeRtt(performance.now() - sentAt);
        this.note('pong');
        // As the phone does: the first round trip is reported at once, so a slow phone's path opens within a few round trips of joining.
        if (firstRtt && this.sender?.rttMs != null) this.ping(socket);
        return;
      }
      if (message.type === 'datagram_offer') {
        this.note('path offer');
        this.datagramOffered = true;
        void this.path?.offer(message.sdp);
        return;
      }
      if (message.type === 'datagram_candidates') {
        void this.path?.candidates(message);
        return;
      }
      this.onMessage(message);
    });
  }

  private startPings(socket: WebSocket): void {
    this.stopPings();
    this.pings.clear(); // a replaced socket's pings will never be answered
    this.ping(socket);
    this.pingTimer = setInterval(() => this.ping(socket), RTT_PING_INTERVAL_MS);
  }

  /** One round-trip ping on `socket` if it is still the phone's, reporting the worst recent round trip (a slow phone is offered the path). */
  private ping(socket: WebSocket): void {
    if (this.socket !== socket || socket.readyState !== WebSocket.OPEN || !this.sender?.wantsPing) return;
    this.pingId += 1;
    this.pings.set(this.pingId, performance.now());
    if (this.pings.size > 8) this.pings.delete(this.pings.keys().next().value as number);
    const rttMs = this.sender.rttMs;
    socket.send(JSON.stringify(rttMs === null ? { type: 'ping', id: this.pingId } : { type: 'ping', id: this.pingId, rttMs: Math.min(MAX_REPORTED_RTT_MS, Math.round(rttMs)) }));
    this.note('ping');
  }

  /** A message the phone's path took (datagram-path.ts): noted when it came there first, then handled as a socket's. */
  private fromPath(message: ServerMessage): void {
    if (message.type === 'session_state' && message.question && !this.askings.has(message.question.id)) {
      this.questionsFirstOnPath.add(message.question.id);
      this.note('question first on path');
    }
    if (message.type === 'answer_accepted') {
      const asking = this.askings.get(message.questionId);
      if (asking && !asking.accepted) {
        this.acceptedFirstOnPath.add(message.questionId);
        this.note('accepted first on path');
      }
    }
    this.onMessage(message);
  }

  /** The pick on the path, noted once per pick (its repeats are not). */
  private sendOnPath(message: SubmitAnswerMessage): boolean {
    if (!this.path?.send(message)) return false;
    if (message.answerId !== this.pathAnswerId) {
      this.pathAnswerId = message.answerId ?? null;
      this.note('path submit_answer');
    }
    return true;
  }

  private stopPings(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** As the phone's fetch does: POST /api/player/answer on a connection of its own, abandoned after BEACON_TIMEOUT_MS. */
  private beacon(message: SubmitAnswerMessage): void {
    const ws = new URL(this.url);
    const q = ws.searchParams;
    const answer: PlayerAnswerBody = { sessionId: q.get('sessionId') ?? '', playerId: q.get('playerId') ?? '', playerToken: q.get('playerToken') ?? '', answer: message };
    const body = JSON.stringify(answer);
    this.note('beacon');
    const request = http.request(
      {
        host: ws.hostname,
        port: ws.port,
        path: PLAYER_ANSWER_PATH,
        method: 'POST',
        agent: false,
        localAddress: this.link.localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(BEACON_TIMEOUT_MS),
      },
      (response) => {
        this.note(`beacon ${response.statusCode}`);
        this.sender?.beaconAnswered(message.answerId, response.statusCode ?? 0);
        response.resume();
      },
    );
    request.on('error', () => undefined);
    request.end(body);
  }

  private send(message: unknown): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.note(`send ${(message as { type: string }).type}`);
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private onMessage(message: ServerMessage): void {
    const nowMs = Date.now();
    if (message.type === 'session_state') this.newestStateServerTime = Math.max(this.newestStateServerTime ?? message.serverTime, message.serverTime);
    if (message.type === 'session_state' && message.question) {
      const { id } = message.question;
      if (message.phase === 'question' && !this.askings.has(id)) this.show(id, nowMs, message.endsAt ?? nowMs);
      const asking = this.askings.get(id);
      if (message.phase === 'question') this.sender?.questionShown(id);
      if (asking && message.view === 'player') {
        // A new socket's state: the result, or (main's phone) a pick the server has not got goes out again.
        if (message.answerResult) asking.points = message.answerResult.pointsEarned;
        if (this.kind === 'old' && asking.tappedAtMs !== null && !message.answered && message.phase === 'question') this.sendOld(asking);
      }
    }
    if (message.type === 'answer_result') {
      const asking = this.askings.get(message.questionId);
      if (asking) asking.points = message.pointsEarned;
    }
    if (message.type === 'answer_accepted') {
      const asking = this.askings.get(message.questionId);
      if (asking) asking.accepted = true;
      this.note('answer_accepted');
    }
    this.sender?.onMessage(message);
  }

  private show(questionId: string, nowMs: number, endsAt: number): void {
    const reactionMs = Math.round(1_000 + Math.random() * 6_000);
    this.note('shown');
    const asking: Asking = { questionId, shownAtMs: nowMs, endsAt, tappedAtMs: null, inTime: nowMs + reactionMs < endsAt, reactionMs, points: null, accepted: false };
    this.askings.set(questionId, asking);
    if (!asking.inTime) return; // the countdown ran out first: no tap
    setTimeout(() => {
      asking.tappedAtMs = Date.now();
      this.note('tap');
      // The true reaction: the timer may fire late on a busy bench process, and the phone measures the real tap.
      asking.reactionMs = asking.tappedAtMs - asking.shownAtMs;
      if (this.sender) this.sender.pick(questionId, CORRECT);
      else this.sendOld(asking);
    }, reactionMs);
  }

  private sendOld(asking: Asking): void {
    this.send({ type: 'submit_answer', questionId: asking.questionId, selectedIndex: CORRECT });
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopPings();
    this.sender?.dispose();
    this.path?.close();
    for (const socket of [...this.retired, this.socket]) {
      socket?.removeAllListeners();
      socket?.on('error', () => undefined);
      socket?.terminate();
    }
  }
}

/**
 * Ends libdatachannel's threads once every phone has stopped (its peer connections closed):
 * without it the process may not exit. The library starts again if a later run needs it.
 */
export function releaseDatagramLibrary(): void {
  cleanup();
}

/**
 * Where a phone stood when a question closed (`question_end` at `closedAtMs`): still in its loss
 * of signal; back too late for even one packet to arrive (less than a one-way delay plus its
 * jitter before the close, the cut-off ones included); back too late for a new connection to
 * carry anything (less than three one-way delays: SYN, SYN-ACK, then the request; the unreachable
 * ones included). The last is a lower bound: it leaves out the wait for the next SYN and jitter.
 */
export function standingAtClose(profile: NetworkProfile, link: Pick<PhoneLink, 'cutOffNow' | 'cutOffEndsAtMs'>, closedAtMs: number) {
  const backBeforeCloseMs = closedAtMs - link.cutOffEndsAtMs;
  return {
    cutOff: link.cutOffNow,
    unreachable: backBeforeCloseMs < profile.oneWayMs + profile.jitterMs,
    noHandshake: backBeforeCloseMs < 3 * profile.oneWayMs,
  };
}

export interface ProfileFigures {
  profile: string;
  phones: number;
  questionSeenMs: Distribution;
  taps: number;
  tapsLost: number;
  /** Lost taps whose phone was still cut off when the question closed. */
  tapsLostCutOff: number;
  /**
   * Lost taps whose phone got its signal back too late for anything to reach the server before
   * the close (less than its profile's longest one-way delay before it), the cut-off ones included.
   */
  tapsLostUnreachable: number;
  /** Lost taps whose phone got its signal back too late for a new connection's handshake (standingAtClose), the above included. */
  tapsLostNoHandshake: number;
  deficitMeanPct: number;
  deficitMaxPct: number;
  acceptedAfterEnd: number;
  /** Phones whose datagram path opened at some point of the run. */
  datagramPaths: number;
  /** Askings whose question the path brought before any socket did, and taps whose acceptance it brought first. */
  questionsFirstOnPath: number;
  acceptedFirstOnPath: number;
  /** Seconds from a phone's first dial to its path's first opening (the phones whose path opened). */
  pathReadySeconds: Distribution;
  /** Askings that started before the phone's path first opened, of the phones whose path did (the path could not bring them). */
  askingsBeforePath: number;
}

/** One tap's story, times from the question's start on the server (endsAt − limit). */
function printTrace(phone: BenchPhone, asking: Asking, endedAt: number, points: number | null, questionNumber: number): void {
  const startMs = asking.endsAt - QUESTION_SECONDS * 1000;
  const perfect = pointsForCorrectAnswer(POINTS, QUESTION_SECONDS, asking.reactionMs);
  const events = phone.events.filter((e) => e.atMs >= startMs - 6_000 && e.atMs <= endedAt + 3_000).map((e) => `${e.atMs - startMs} ${e.what}`);
  console.error(`${phone.profile.name} ${phone.link.localAddress ?? ''} question ${questionNumber} reaction ${asking.reactionMs} points ${points}/${perfect} end +${endedAt - startMs}: ${events.join(', ')}`);
}

/** Figures of one profile's phones over every question. */
export function profileFigures(
  profile: NetworkProfile,
  phones: BenchPhone[],
  questionEnds: Map<string, number>,
  standing: (phone: BenchPhone, questionId: string) => ReturnType<typeof standingAtClose> | undefined,
): ProfileFigures {
  const seen: number[] = [];
  const deficits: number[] = [];
  let taps = 0;
  let lost = 0;
  let lostCutOff = 0;
  let lostUnreachable = 0;
  let lostNoHandshake = 0;
  let acceptedAfterEnd = 0;
  let questionsFirstOnPath = 0;
  let acceptedFirstOnPath = 0;
  let askingsBeforePath = 0;
  const pathReady: number[] = [];
  for (const phone of phones) {
    if (phone.firstConnectAtMs !== null && phone.datagramOpenedAtMs !== null) pathReady.push(round((phone.datagramOpenedAtMs - phone.firstConnectAtMs) / 1000, 1));
    for (const asking of phone.askings.values()) {
      const endedAt = questionEnds.get(asking.questionId);
      if (endedAt === undefined) continue;
      const startedAtMs = asking.endsAt - QUESTION_SECONDS * 1000;
      seen.push(asking.shownAtMs - startedAtMs);
      if (phone.datagramOpenedAtMs !== null && phone.datagramOpenedAtMs > startedAtMs) askingsBeforePath++;
      if (phone.questionsFirstOnPath.has(asking.questionId)) questionsFirstOnPath++;
      if (phone.acceptedFirstOnPath.has(asking.questionId)) acceptedFirstOnPath++;
      if (phone.acceptedAfterEnd.has(asking.questionId) && !asking.counted) acceptedAfterEnd++;
      if (asking.tappedAtMs === null) continue;
      taps++;
      const points = asking.counted?.points ?? null;
      if (process.env.NETWORKS_TRACE && (points === null || points < pointsForCorrectAnswer(POINTS, QUESTION_SECONDS, asking.reactionMs) * 0.99)) {
        printTrace(phone, asking, endedAt, points, [...questionEnds.keys()].indexOf(asking.questionId) + 1);
      }
      if (points === null) {
        lost++;
        const atClose = standing(phone, asking.questionId);
        if (atClose?.cutOff) lostCutOff++;
        if (atClose?.unreachable) lostUnreachable++;
        if (atClose?.noHandshake) lostNoHandshake++;
        continue;
      }
      const perfect = pointsForCorrectAnswer(POINTS, QUESTION_SECONDS, asking.reactionMs);
      deficits.push(Math.max(0, (perfect - points) / perfect) * 100);
    }
  }
  return {
    profile: profile.name,
    phones: phones.length,
    questionSeenMs: distribution(seen),
    taps,
    tapsLost: lost,
    tapsLostCutOff: lostCutOff,
    tapsLostUnreachable: lostUnreachable,
    tapsLostNoHandshake: lostNoHandshake,
    deficitMeanPct: round(deficits.reduce((a, b) => a + b, 0) / Math.max(1, deficits.length), 2),
    deficitMaxPct: round(deficits.reduce((a, b) => Math.max(a, b), 0), 2),
    acceptedAfterEnd,
    datagramPaths: phones.filter((phone) => phone.datagramOpenedAtMs !== null).length,
    questionsFirstOnPath,
    acceptedFirstOnPath,
    pathReadySeconds: distribution(pathReady),
    askingsBeforePath,
  };
}

export { PROFILES, sleep };
