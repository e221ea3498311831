/**
 * The countdown of a relayed session kept going on this instance while its owner is unheard
 * (DESIGN §16: a Redis outage, or no tick for GRACE_MS past its due time). Phones here get the
 * very `timer_tick` the owner would send, once a second, until the deadline and never at or past
 * it. Nothing else is made up here: the reveal and the results wait for the owner.
 *
 * What the owner's clock says comes in the outbox header (`q`, tagged by relay.ts on ticks and
 * session states), so no frame is parsed here. The owner's own ticks win once it is heard again:
 * a tick of the owner no newer than one already sent here (its Redis offline queue flushed late)
 * is dropped, so the countdown never runs back.
 *
 * Times: `serverTime`, `endsAt` and the tick times are in the owner's clock; the offset to this
 * instance's clock is taken from each owner frame as it arrives (Redis's latency included, so a
 * made-up tick goes out a little after the owner's would). A made-up tick's serverTime is the
 * whole second it stands for (the owner's says when its timer ran, a few ms later).
 */
import type { ServerMessage } from '../../../protocol/index.js';
import { TICK_MS, secondsRemaining } from '../../game/engine/timing.js';
import type { RoomLog } from '../../game/rooms/index.js';
import type { OutboxHeader, QuestionClock } from './envelope.js';

/** How long past a tick's due time the owner may be late before this instance sends it itself (Redis up). */
export const GRACE_MS = 500;

interface Countdown {
  questionId: string;
  endsAt: number;
  /** Owner time of the last tick sent to the phones here (the owner's or one made here); ticks fall on its whole seconds. */
  lastTick: number;
  /** Owner time minus this instance's time, from the last owner frame. */
  offsetMs: number;
  /** The owner runs the session here: its frames come without Redis and nothing is made up. */
  local: boolean;
  /** Ticks made here since the owner was last heard (the log says when that starts and ends). */
  made: number;
  /** The next tick is due and waits GRACE_MS for the owner's. */
  waiting: boolean;
  timer?: NodeJS.Timeout;
}

export interface EdgeTicksDeps {
  /** Writes a tick to every socket of the session here. */
  send(sessionId: string, frame: Buffer): void;
  /** True while this instance's subscriber connection is down: the owner cannot be heard, no grace. */
  ownerUnreachable(): boolean;
  log?: Pick<RoomLog, 'info'>;
  now?(): number;
}

/** The clock tag of a broadcast (relay.ts): a tick or a question's state gives the timing, any other state or question_end closes it. */
export function questionClockOf(message: ServerMessage): QuestionClock | 0 | undefined {
  switch (message.type) {
    case 'timer_tick':
      return [message.questionId, message.serverTime, message.endsAt, 1];
    case 'session_state':
      return message.phase === 'question' && 'question' in message && message.question !== null && message.endsAt !== null
        ? [message.question.id, message.serverTime, message.endsAt, 0]
        : 0;
    case 'question_end':
      return 0;
    default:
      return undefined;
  }
}

export class EdgeTicks {
  private readonly countdowns = new Map<string, Countdown>();
  private readonly now: () => number;

  constructor(private readonly deps: EdgeTicksDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * An owner's broadcast carrying a clock tag: the countdown is taken, moved on or closed.
   * Returns false for a tick to drop (older than one the phones here already have).
   */
  heard(sessionId: string, header: OutboxHeader, local: boolean): boolean {
    if (!('q' in header) || header.q === undefined) return true;
    const { q } = header;
    const current = this.countdowns.get(sessionId);
    if (q === 0) {
      if (current) this.heardAgain(sessionId, current);
      this.forget(sessionId);
      return true;
    }
    const [questionId, serverTime, endsAt, tick] = q;
    // Ticks are due on whole seconds before the deadline (a question lasts whole seconds); a tick's
    // serverTime is when the owner's timer ran, a little after, and a state's falls anywhere.
    const second = endsAt - Math.ceil((endsAt - serverTime) / TICK_MS) * TICK_MS;
    const same = current?.questionId === questionId ? current : undefined;
    if (same && tick === 1 && second <= same.lastTick) {
      // The owner's tick for the second just made here: it is heard live again (one older: its
      // offline queue flushed late, no sign it runs now).
      if (second === same.lastTick) this.heardAgain(sessionId, same);
      return false;
    }
    const offsetMs = serverTime - this.now();
    if (same) {
      Object.assign(same, { endsAt, offsetMs, local });
      if (tick === 1) same.lastTick = second;
      this.heardAgain(sessionId, same);
      this.arm(sessionId, same);
      return true;
    }
    if (current) this.heardAgain(sessionId, current);
    this.forget(sessionId);
    const lastTick = second;
    const countdown: Countdown = { questionId, endsAt, lastTick, offsetMs, local, made: 0, waiting: false };
    this.countdowns.set(sessionId, countdown);
    this.arm(sessionId, countdown);
    return true;
  }

  /** The session has no sockets here any more, or this instance shuts down. */
  forget(sessionId: string): void {
    const countdown = this.countdowns.get(sessionId);
    if (countdown?.timer) clearTimeout(countdown.timer);
    this.countdowns.delete(sessionId);
  }

  /** This instance lost Redis: ticks waiting for the owner's go now. */
  ownerLost(): void {
    for (const [sessionId, countdown] of this.countdowns) if (countdown.waiting) this.due(sessionId, countdown);
  }

  close(): void {
    for (const sessionId of [...this.countdowns.keys()]) this.forget(sessionId);
  }

  private heardAgain(sessionId: string, countdown: Countdown): void {
    if (countdown.made === 0) return;
    this.deps.log?.info({ sessionId, questionId: countdown.questionId, ticksMade: countdown.made }, "cluster: the game's owner is heard again");
    countdown.made = 0;
  }

  /** Wakes at the next tick's due time (in this instance's clock), unless the owner runs here or the deadline comes first. */
  private arm(sessionId: string, countdown: Countdown, delayMs?: number): void {
    if (countdown.timer) clearTimeout(countdown.timer);
    countdown.timer = undefined;
    countdown.waiting = delayMs !== undefined;
    const next = countdown.lastTick + TICK_MS;
    if (countdown.local || next >= countdown.endsAt) return;
    const waitMs = delayMs ?? next - countdown.offsetMs - this.now();
    countdown.timer = setTimeout(() => this.due(sessionId, countdown), Math.max(0, waitMs));
    countdown.timer.unref();
  }

  private due(sessionId: string, countdown: Countdown): void {
    if (this.countdowns.get(sessionId) !== countdown) return;
    if (countdown.timer) clearTimeout(countdown.timer);
    countdown.timer = undefined;
    countdown.waiting = false;
    const ownerNow = this.now() + countdown.offsetMs;
    // The latest tick due by now: after a stalled wake, the current second, not a burst of old ones.
    const next = countdown.lastTick + TICK_MS * Math.max(1, Math.floor((ownerNow - countdown.lastTick) / TICK_MS));
    if (next >= countdown.endsAt) return;
    const lateMs = ownerNow - next;
    // Redis up and the owner heard lately: its tick may just be on its way and gets GRACE_MS. Once
    // unheard it stays so until a frame of it comes (Redis back, the owner not yet publishing).
    if (!this.deps.ownerUnreachable() && countdown.made === 0 && lateMs < GRACE_MS) {
      this.arm(sessionId, countdown, GRACE_MS - lateMs);
      return;
    }
    countdown.lastTick = next;
    if (countdown.made++ === 0) {
      this.deps.log?.info({ sessionId, questionId: countdown.questionId }, "cluster: the game's owner is unheard; its countdown goes on from here");
    }
    const message: ServerMessage = {
      type: 'timer_tick',
      questionId: countdown.questionId,
      timeRemaining: secondsRemaining(countdown.endsAt, next),
      serverTime: next,
      endsAt: countdown.endsAt,
    };
    this.deps.send(sessionId, Buffer.from(JSON.stringify(message)));
    this.arm(sessionId, countdown);
  }
}
