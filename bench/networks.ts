/**
 * `npm run bench -- networks [phones] [--questions 3] [--client old|new|both]`: a full auditorium on
 * four network profiles (shaper.ts), 10 s questions, every phone tapping the right answer at a
 * human reaction time of 1–7 s after the question appeared on it (if its own countdown still
 * runs then). Scored against the points that reaction earns on a perfect network.
 *
 * `old` plays main's phone: the pick sent once (again only after its socket closed and reopened),
 * no id, no reaction time, no wait for the confirmation. `new` plays web/player/answer-sender.ts
 * itself. The server is the same (`npm start`'s), its clock the phones' clock (one machine).
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { ServerMessage } from '../protocol/index.js';
import { AnswerSender } from '../web/player/answer-sender.js';
import { pointsForCorrectAnswer } from '../server/game/engine/scoring.js';
import { PROFILES, ShapedLink, type NetworkProfile } from './shaper.js';
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

/** One phone: a socket through its own shaped link, reopened as its client would. */
export class BenchPhone {
  socket: WebSocket | null = null;
  readonly askings = new Map<string, Asking>();
  private sender: AnswerSender | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly retired: WebSocket[] = [];
  /**
   * Questions whose first acceptance reached the phone after that question's end on the same
   * socket. Either a resend's repeat of an acceptance the phone missed (fine) or an answer taken
   * after question_end: the figures count those the server did not store (profileFigures).
   */
  readonly acceptedAfterEnd = new Set<string>();

  constructor(
    private readonly url: string,
    readonly link: ShapedLink,
    private readonly kind: ClientKind,
  ) {
    if (kind === 'new') {
      let ids = 0;
      this.sender = new AnswerSender({
        send: (message) => this.send(message),
        reconnect: () => this.connect(),
        now: () => performance.now(),
        setTimer: (callback, ms) => setTimeout(callback, ms),
        clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
        newId: () => `${url.slice(-12)}-${++ids}`,
        onStatus: () => undefined,
      });
    }
  }

  get profile(): NetworkProfile {
    return this.link.profile;
  }

  connect(): void {
    if (this.stopped) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const old = this.socket;
    if (old) {
      // Still read what the old socket delivers (a result sent to it during a loss of signal), as the
      // server counted it; it is no longer the phone's socket for sending.
      old.removeAllListeners('open');
      old.removeAllListeners('close');
      old.close();
      this.retired.push(old);
    }
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.on('error', () => undefined);
    socket.on('open', () => this.sender?.socketOpened());
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.sender?.socketClosed();
      this.reconnectTimer = setTimeout(() => this.connect(), 500);
    });
    // Questions this socket has delivered the end of: a first acceptance after it would be an answer taken late.
    const endedHere = new Set<string>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'question_end') endedHere.add(message.questionId);
      if (message.type === 'answer_accepted' && endedHere.has(message.questionId) && !this.askings.get(message.questionId)?.accepted) this.acceptedAfterEnd.add(message.questionId);
      this.onMessage(message);
    });
  }

  private send(message: unknown): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private onMessage(message: ServerMessage): void {
    const nowMs = Date.now();
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
    }
    this.sender?.onMessage(message);
  }

  private show(questionId: string, nowMs: number, endsAt: number): void {
    const reactionMs = Math.round(1_000 + Math.random() * 6_000);
    const asking: Asking = { questionId, shownAtMs: nowMs, endsAt, tappedAtMs: null, inTime: nowMs + reactionMs < endsAt, reactionMs, points: null, accepted: false };
    this.askings.set(questionId, asking);
    if (!asking.inTime) return; // the countdown ran out first: no tap
    setTimeout(() => {
      asking.tappedAtMs = Date.now();
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
    this.sender?.dispose();
    for (const socket of [...this.retired, this.socket]) {
      socket?.removeAllListeners();
      socket?.on('error', () => undefined);
      socket?.terminate();
    }
  }
}

export interface ProfileFigures {
  profile: string;
  phones: number;
  questionSeenMs: Distribution;
  taps: number;
  tapsLost: number;
  /** Lost taps whose phone was still cut off when the question closed. */
  tapsLostCutOff: number;
  deficitMeanPct: number;
  deficitMaxPct: number;
  acceptedAfterEnd: number;
}

/** Figures of one profile's phones over every question. */
export function profileFigures(
  profile: NetworkProfile,
  phones: BenchPhone[],
  questionEnds: Map<string, number>,
  cutOffAtEnd: (phone: BenchPhone, questionId: string) => boolean,
): ProfileFigures {
  const seen: number[] = [];
  const deficits: number[] = [];
  let taps = 0;
  let lost = 0;
  let lostCutOff = 0;
  let acceptedAfterEnd = 0;
  for (const phone of phones) {
    for (const asking of phone.askings.values()) {
      const endedAt = questionEnds.get(asking.questionId);
      if (endedAt === undefined) continue;
      seen.push(asking.shownAtMs - (asking.endsAt - QUESTION_SECONDS * 1000));
      if (phone.acceptedAfterEnd.has(asking.questionId) && !asking.counted) acceptedAfterEnd++;
      if (asking.tappedAtMs === null) continue;
      taps++;
      const points = asking.counted?.points ?? null;
      if (points === null) {
        lost++;
        if (cutOffAtEnd(phone, asking.questionId)) lostCutOff++;
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
    deficitMeanPct: round(deficits.reduce((a, b) => a + b, 0) / Math.max(1, deficits.length), 2),
    deficitMaxPct: round(deficits.reduce((a, b) => Math.max(a, b), 0), 2),
    acceptedAfterEnd,
  };
}

export { PROFILES, sleep };
