/**
 * A phone of the outage scenario (bench/outage.ts): reconnects like the web app (the backoff of
 * web/common/realtime/timings.ts), answers its question at a planned moment and, like the web app
 * (web/player/answer-sender.ts, DESIGN §14), treats its socket as dead when no `answer_accepted`
 * came within 1.5 s: it reconnects and sends the same pick (same `answerId`) again on the new
 * socket as soon as it opens, while the question is open. It remembers what
 * it was shown and promised: every countdown tick (when it came), `answer_accepted`, its result,
 * and how long a reconnect took to bring a state. Times are Date.now(): the server runs on the
 * same machine, so its `endsAt` and `serverTime` are on the same clock.
 */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { MIN_ACK_TIMEOUT_MS } from '../web/player/answer-sender.js';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, reconnectDelayMs } from '../web/common/realtime/timings.js';

export interface PhoneResult {
  isCorrect: boolean;
  pointsEarned: number;
}

export class OutagePhone {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private stopped = false;
  private answerTimer: NodeJS.Timeout | null = null;
  private ackTimer: NodeJS.Timeout | null = null;
  private answerId: string | null = null;
  /** Reconnects to resend an unconfirmed pick: such a phone did not keep its socket. */
  resends = 0;
  questionId: string | null = null;
  /** When the question started (its endsAt minus its time limit). */
  startedAtMs = Number.NaN;
  endsAtMs = Number.NaN;
  /** The last time an answer was sent (a phone that came back unanswered sends again). */
  sentAtMs = Number.NaN;
  confirmed: number | null = null;
  confirmedAtMs = Number.NaN;
  result: PhoneResult | null = null;
  /** Arrival times of the question's ticks (only those before its deadline). */
  readonly tickTimesMs: number[] = [];
  /** Their `serverTime`: when the room sent them (the server's own stalls, apart from the way to the phone). */
  readonly tickServerTimesMs: number[] = [];
  /** Socket closes, by close code (1006: dropped without a close frame). */
  readonly closes = new Map<number, number>();
  /** Set by `drop`: when the socket was dropped, and when the next session_state came. */
  droppedAtMs = Number.NaN;
  backAtMs = Number.NaN;
  /** A confirmed answer the phone was later shown as not taken (or with another choice). */
  lostConfirmed = false;

  constructor(
    private readonly url: string,
    readonly choice: number,
    /** When to answer, in ms after the question's start. */
    private readonly answerAfterMs: number,
    private readonly timeLimitMs: number,
  ) {}

  connect(): void {
    if (this.stopped) return;
    const ws = new WebSocket(this.url, { perMessageDeflate: false, handshakeTimeout: CONNECT_TIMEOUT_MS });
    this.ws = ws;
    ws.on('open', () => {
      this.attempt = 0;
      // A pick not confirmed yet goes out again at once on the new socket.
      if (this.answerId !== null && this.confirmed === null) this.send();
    });
    ws.on('message', (data: Buffer) => this.onMessage(data.toString()));
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.closes.set(code, (this.closes.get(code) ?? 0) + 1);
      if (this.stopped || PERMANENT_CLOSE_CODES.has(code)) return;
      setTimeout(() => this.connect(), reconnectDelayMs(this.attempt++));
    });
  }

  /** Drops the socket as a phone losing its Wi-Fi does; it reconnects at once. */
  drop(): void {
    this.droppedAtMs = Date.now();
    this.backAtMs = Number.NaN;
    const ws = this.ws;
    this.ws = null;
    ws?.terminate();
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.answerTimer) clearTimeout(this.answerTimer);
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ws?.terminate();
  }

  get answered(): boolean {
    return !Number.isNaN(this.sentAtMs);
  }

  private onMessage(text: string): void {
    const m = JSON.parse(text);
    switch (m.type) {
      case 'session_state':
        if (!Number.isNaN(this.droppedAtMs) && Number.isNaN(this.backAtMs)) this.backAtMs = Date.now();
        this.onState(m);
        return;
      case 'timer_tick':
        if (m.questionId === this.questionId && m.serverTime < m.endsAt) {
          this.tickTimesMs.push(Date.now());
          this.tickServerTimesMs.push(m.serverTime);
        }
        return;
      case 'answer_accepted':
        if (this.ackTimer) clearTimeout(this.ackTimer);
        if (this.confirmed === null) this.confirmedAtMs = Date.now();
        this.confirmed = m.selectedIndex;
        return;
      case 'answer_result':
        this.result = { isCorrect: m.isCorrect, pointsEarned: m.pointsEarned };
        return;
    }
  }

  private onState(m: any): void {
    if (m.phase !== 'question' && m.phase !== 'reveal') return;
    if (m.question.id !== this.questionId) {
      this.questionId = m.question.id;
      this.endsAtMs = m.endsAt;
      this.startedAtMs = m.endsAt - this.timeLimitMs;
    }
    if (this.confirmed !== null && (!m.answered || m.selectedIndex !== this.confirmed)) this.lostConfirmed = true;
    if (m.phase === 'reveal') {
      if (m.answerResult) this.result = { isCorrect: m.answerResult.isCorrect, pointsEarned: m.answerResult.pointsEarned };
      return;
    }
    if (m.answered) {
      if (this.confirmed === null) {
        this.confirmed = m.selectedIndex;
        this.confirmedAtMs = Date.now();
      }
      return;
    }
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.answerTimer = setTimeout(() => this.answer(), Math.max(0, this.startedAtMs + this.answerAfterMs - Date.now()));
  }

  private answer(): void {
    this.answerTimer = null;
    if (this.ws?.readyState !== WebSocket.OPEN || !this.questionId || Date.now() >= this.endsAtMs) return;
    this.sentAtMs = Date.now();
    this.answerId = randomUUID();
    this.send();
  }

  private send(): void {
    if (this.ws?.readyState !== WebSocket.OPEN || !this.questionId || Date.now() >= this.endsAtMs) return;
    this.ws.send(JSON.stringify({ type: 'submit_answer', questionId: this.questionId, selectedIndex: this.choice, answerId: this.answerId }));
    if (this.ackTimer) clearTimeout(this.ackTimer);
    // No confirmation in time: the socket is presumed dead (DESIGN §14).
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      if (this.confirmed !== null || this.stopped || Date.now() >= this.endsAtMs) return;
      this.resends++;
      const ws = this.ws;
      this.ws = null;
      ws?.terminate();
      this.connect();
    }, MIN_ACK_TIMEOUT_MS);
  }
}
