/**
 * The cluster's failover, measured (generator side): after the measured rounds, one more question
 * goes to every phone; once every phone has it and about half have answered, the runner SIGKILLs
 * the instance owning the (first) session. From the kill:
 *
 * - the first `answer_accepted` for an answer sent after the kill: the new owner runs the game;
 * - the phones whose socket was on the killed instance reconnect like the web app (its backoff,
 *   web/common/realtime/timings.ts) through a round-robin balancer that behaves like nginx's
 *   defaults (`RoundRobin` below); they are back once they get the question's `session_state`;
 * - every phone holding an `answer_accepted` must be shown that answer by the new owner: a
 *   confirmed answer shown unanswered or changed is lost;
 * - phones that had not answered answer (those of the killed instance once back), the question
 *   ends when everyone has, and every phone must get its `answer_result`.
 *
 * The lease's change of hands is timed by the runner, which reads Redis (runner.ts).
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { CONNECT_TIMEOUT_MS, PERMANENT_CLOSE_CODES, reconnectDelayMs } from '../web/common/realtime/timings.js';
import type { Registered } from './api.js';
import { Countdown, frameType, type Phone, type Screen } from './clients.js';
import type { FailoverFigures } from './ipc.js';
import { sleep, until } from './wait.js';
import { distribution, round } from './stats.js';

const BACK_TIMEOUT_MS = 60_000;
const RESULTS_TIMEOUT_MS = 30_000;
const QUESTION_TIMEOUT_MS = 15_000;
const WANTED = new Set(['session_state', 'answer_accepted', 'answer_result', 'error']);

export interface FailoverContext {
  phones: Phone[];
  registered: Registered[];
  /** Phone i's socket is on urls[i % urls.length]. */
  urls: string[];
  admins: Screen[];
  answerWindowMs: number;
  random: () => number;
  progress(text: string): void;
  /** Asks the runner to SIGKILL the owner of the first session; the instance's index in `urls`. */
  killOwner(): Promise<{ instanceIndex: number; instanceId: string }>;
}

/**
 * What nginx does by default in front of the instances: connections go round-robin; a refused one
 * is tried at once on the next instance (`proxy_next_upstream error`), and the refusing instance
 * is left out for 10 s (`max_fails=1 fail_timeout=10s`).
 */
export class RoundRobin {
  private turn = 0;
  private readonly downUntilMs: number[];

  constructor(
    private readonly size: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.downUntilMs = new Array<number>(size).fill(0);
  }

  static readonly FAIL_TIMEOUT_MS = 10_000;

  /** The next instance not known to be down (any, when all are). */
  next(): number {
    for (let tried = 0; tried < this.size; tried++) {
      const index = this.turn++ % this.size;
      if (this.downUntilMs[index] <= this.now()) return index;
    }
    return this.turn++ % this.size;
  }

  refused(index: number): void {
    this.downUntilMs[index] = this.now() + RoundRobin.FAIL_TIMEOUT_MS;
  }
}

/** One phone through the failover: it takes over the generator's socket and reconnects by itself. */
class FailoverPhone {
  ws: WebSocket | null;
  questionId: string | null = null;
  choice: number;
  answerSentAtMs = Number.NaN;
  confirmed: number | null = null;
  /** Set for every phone at the kill. */
  killedAtMs = Number.NaN;
  /** Its socket closed after the kill: it comes back through another instance. */
  dropped = false;
  /** Its first socket after the kill was open (the handshake done, before its state). */
  reopenedAtMs = Number.NaN;
  backAtMs = Number.NaN;
  lostConfirmed = false;
  resultAtMs = Number.NaN;
  errors: string[] = [];
  private attempt = 0;
  /** Connections refused in a row: the balancer moves on to the next instance. */
  private refused = 0;
  /** The instance of the connection being made (-1: the generator's socket, already open). */
  private urlIndex = -1;
  private stopped = false;

  constructor(
    private readonly player: Registered,
    /** The instance its socket was on when the step began (an index into `urls`). */
    readonly home: number,
    private readonly urls: string[],
    private readonly balancer: RoundRobin,
    ws: WebSocket,
    choice: number,
    private readonly events: { question(p: FailoverPhone): void; accepted(p: FailoverPhone, atMs: number): void; stateAfterKill(atMs: number): void },
  ) {
    this.choice = choice;
    this.ws = ws;
    ws.removeAllListeners('message');
    ws.removeAllListeners('close');
    this.attach(ws);
  }

  private attach(ws: WebSocket): void {
    let opened = ws.readyState === WebSocket.OPEN;
    ws.on('open', () => {
      opened = true;
      this.attempt = 0;
      this.refused = 0;
      if (this.dropped && Number.isNaN(this.reopenedAtMs)) this.reopenedAtMs = performance.now();
    });
    ws.on('message', (data: Buffer) => this.onFrame(data, performance.now()));
    ws.on('error', () => undefined); // 'close' follows
    ws.on('close', (code) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!Number.isNaN(this.killedAtMs)) this.dropped = true;
      if (this.stopped || PERMANENT_CLOSE_CODES.has(code)) return;
      if (!opened && this.urlIndex >= 0) this.balancer.refused(this.urlIndex);
      // The balancer tries a refused connection on the next instance at once, each once.
      if (!opened && ++this.refused < this.urls.length) this.reconnect();
      else setTimeout(() => this.reconnect(), reconnectDelayMs(this.attempt++));
    });
  }

  private reconnect(): void {
    if (this.stopped) return;
    this.urlIndex = this.balancer.next();
    const url = this.urls[this.urlIndex];
    const query = new URLSearchParams({ sessionId: this.player.sessionId, type: 'player', playerId: this.player.id, playerToken: this.player.playerToken });
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?${query}`, { perMessageDeflate: false, skipUTF8Validation: true, handshakeTimeout: CONNECT_TIMEOUT_MS });
    this.ws = ws;
    this.attach(ws);
  }

  private onFrame(frame: Buffer, atMs: number): void {
    if (!WANTED.has(frameType(frame))) return;
    const m = JSON.parse(frame.toString());
    switch (m.type) {
      case 'session_state': {
        if ((m.phase !== 'question' && m.phase !== 'reveal') || !m.question) return;
        if (this.questionId === null) {
          if (m.phase !== 'question') return;
          this.questionId = m.question.id;
          this.events.question(this);
        }
        if (m.question.id !== this.questionId || Number.isNaN(this.killedAtMs)) return;
        this.events.stateAfterKill(atMs);
        // From the new owner: a confirmed answer must still be there.
        if (this.confirmed !== null && (!m.answered || m.selectedIndex !== this.confirmed)) this.lostConfirmed = true;
        // A phone that had answered may find the question already revealed when it is back: the
        // others' answers may end it early without waiting for it (DESIGN §8), and its state then
        // carries its result.
        if (m.phase === 'reveal' && m.answerResult && Number.isNaN(this.resultAtMs)) this.resultAtMs = atMs;
        if (this.dropped && Number.isNaN(this.backAtMs)) {
          this.backAtMs = atMs;
          // Its answer died with the instance (or was never sent): it answers again, as a person would.
          if (!m.answered && m.phase === 'question') this.answer();
        }
        return;
      }
      case 'answer_accepted':
        if (m.questionId !== this.questionId) return;
        this.confirmed = m.selectedIndex;
        this.events.accepted(this, atMs);
        return;
      case 'answer_result':
        if (m.questionId === this.questionId && Number.isNaN(this.resultAtMs)) this.resultAtMs = atMs;
        return;
      case 'error':
        this.errors.push(String(m.message));
        return;
    }
  }

  answer(): void {
    if (this.ws?.readyState !== WebSocket.OPEN || !this.questionId) return;
    this.answerSentAtMs = performance.now();
    this.ws.send(JSON.stringify({ type: 'submit_answer', questionId: this.questionId, selectedIndex: this.choice }));
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

function count(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

export async function runFailover(ctx: FailoverContext): Promise<Omit<FailoverFigures, 'leaseMs'>> {
  const questionReached = new Countdown(ctx.phones.filter((p) => p.ws && !p.dropped).length, QUESTION_TIMEOUT_MS);
  let firstAcceptedMs = Number.NaN;
  let firstStateAtMs = Number.NaN;
  const phones: FailoverPhone[] = [];
  const balancer = new RoundRobin(ctx.urls.length);
  ctx.phones.forEach((phone, i) => {
    if (!phone.ws || phone.dropped) return;
    phones.push(
      new FailoverPhone(ctx.registered[i], i % ctx.urls.length, ctx.urls, balancer, phone.ws, Math.floor(ctx.random() * 4), {
        question: (p) => {
          questionReached.tick();
          // A phone cut off meanwhile answers once it is back instead.
          setTimeout(() => !p.dropped && p.answer(), ctx.random() * ctx.answerWindowMs);
        },
        accepted: (p, atMs) => {
          // Only an answer sent after the kill proves the new owner: earlier ones may be the old owner's.
          if (p.answerSentAtMs > p.killedAtMs && Number.isNaN(firstAcceptedMs)) firstAcceptedMs = atMs - p.killedAtMs;
        },
        stateAfterKill: (atMs) => {
          if (Number.isNaN(firstStateAtMs)) firstStateAtMs = atMs;
        },
      }),
    );
  });
  try {
    for (const admin of ctx.admins) admin.send({ type: 'admin_next_question' });
    await questionReached.done;
    // About half the phones have answered (each within the answer window of its question).
    await sleep(ctx.answerWindowMs / 2);
    const confirmedBeforeKill = phones.filter((p) => p.confirmed !== null).length;
    const killedAtMs = performance.now();
    for (const p of phones) p.killedAtMs = killedAtMs;
    const killed = await ctx.killOwner();
    ctx.progress(`failover: killed ${killed.instanceId} at ${new Date().toISOString()}`);
    const onKilled = phones.filter((p) => p.home === killed.instanceIndex);

    await until(() => onKilled.every((p) => !Number.isNaN(p.backAtMs)), BACK_TIMEOUT_MS);
    await until(() => phones.every((p) => !Number.isNaN(p.resultAtMs)), RESULTS_TIMEOUT_MS);

    const back = onKilled.filter((p) => !Number.isNaN(p.backAtMs)).map((p) => p.backAtMs - killedAtMs);
    const sorted = [...back].sort((a, b) => a - b);
    const nth = (fraction: number) => {
      const needed = Math.ceil(onKilled.length * fraction);
      return sorted.length >= needed && needed > 0 ? round(sorted[needed - 1], 0) : null;
    };
    return {
      killedInstance: killed.instanceId,
      phones: phones.length,
      phonesOnKilled: onKilled.length,
      confirmedBeforeKill,
      firstAcceptedMs: Number.isNaN(firstAcceptedMs) ? null : round(firstAcceptedMs, 0),
      firstStateMs: Number.isNaN(firstStateAtMs) ? null : round(firstStateAtMs - killedAtMs, 0),
      reopenMs: distribution(onKilled.filter((p) => !Number.isNaN(p.reopenedAtMs)).map((p) => p.reopenedAtMs - killedAtMs)),
      backMs: distribution(back),
      back99Ms: nth(0.99),
      back100Ms: nth(1),
      phonesNotBack: onKilled.length - back.length,
      confirmedLost: phones.filter((p) => p.lostConfirmed).length,
      results: phones.filter((p) => !Number.isNaN(p.resultAtMs)).length,
      errorsReceived: phones.reduce((sum, p) => sum + p.errors.length, 0),
      errorMessages: count(phones.flatMap((p) => p.errors)),
    };
  } finally {
    for (const p of phones) p.stop();
  }
}
