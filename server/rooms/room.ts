/**
 * One session's live runner: load → reduce → persist → broadcast.
 *
 * Every input (a socket's message, the timer, a lifecycle change, a socket joining or leaving)
 * becomes a task on the room's queue, and tasks run strictly one after another, so the effects
 * of one engine step (some of them awaited database writes) never interleave with the next.
 * Events are stamped with the clock when they arrive, not when their turn comes, so an answer
 * that queued behind a database write is still scored by its arrival time.
 *
 * The room holds one pending wake-up on the injected clock; its durable writes are the answer
 * write-behind (write-behind.ts) and one transaction per step for scores + resume snapshot.
 */
import type { ClientRole, ServerMessage } from '../../protocol/index.js';
import {
  type Effect,
  type EngineEvent,
  type EngineState,
  adminView,
  audienceView,
  createEngineState,
  pendingWakeAt,
  playerView,
  reduce,
  resumeEngine,
} from '../engine/index.js';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import type { Clock, TimerHandle } from './clock.js';
import type { CommitWrite, RoomStorage } from './storage.js';
import { AnswerWriter, retryWrite } from './write-behind.js';

export interface RoomDeps {
  storage: RoomStorage;
  broadcaster: Broadcaster;
  clock: Clock;
  log: RoomLog;
  /** How long answers wait to be written together (the write-behind window). */
  answerFlushMs: number;
  /** Called (from the room's queue) when nobody holds a room that is not live any more. */
  onUnused(room: Room): void;
}

/** A socket as the room knows it: no transport details. */
export interface RoomMember {
  connectionId: string;
  role: ClientRole;
  playerId?: string;
  name?: string;
}

export class SessionNotFoundError extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} not found`);
  }
}

export class RoomClosedError extends Error {
  constructor(sessionId: string) {
    super(`The room of session ${sessionId} is closed`);
  }
}

export class Room {
  private state: EngineState | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private lastNowMs = 0;
  private timer: TimerHandle | null = null;
  private timerAtMs: number | null = null;
  private readonly members = new Map<string, RoomMember>();
  private readonly answers: AnswerWriter;
  /** Sockets (and connects in progress) using the room; a room nobody holds and not live is disposed. */
  private holds = 0;
  /** Shutting down: no new timers, writes stop retrying after a few attempts. */
  private closing = false;
  /** Disposed: queued tasks have run; anything arriving later is refused. */
  private disposed = false;

  constructor(
    readonly sessionId: string,
    private readonly deps: RoomDeps,
  ) {
    this.answers = new AnswerWriter((batch) => deps.storage.saveAnswers(batch), deps.answerFlushMs, deps.log);
  }

  get isLive(): boolean {
    return this.state?.status === 'live';
  }

  /** The engine state, for tests and diagnostics. */
  get engineState(): EngineState | null {
    return this.state;
  }

  get memberCount(): number {
    return this.members.size;
  }

  // -------------------------------------------------------------------------------------------
  // The queue

  private run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(() => {
      if (this.disposed) throw new RoomClosedError(this.sessionId);
      return task();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once everything queued so far has run and its answers are stored. */
  async settled(): Promise<void> {
    await this.whenIdle();
    await this.answers.flush();
  }

  /** Resolves when every task queued so far (and any queued meanwhile) has run. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const tail = this.tail;
      await tail;
      if (tail === this.tail) break;
    }
  }

  private now(): number {
    this.lastNowMs = Math.max(this.lastNowMs, this.deps.clock.now());
    return this.lastNowMs;
  }

  // -------------------------------------------------------------------------------------------
  // Inputs

  /**
   * An engine event from a socket or the timer, stamped with its arrival time: now, or when it
   * entered the cluster's queue (multi-instance mode, docs/REALTIME.md).
   */
  dispatch(event: EngineEvent, arrivedAtMs = this.deps.clock.now()): void {
    this.run(() => this.apply(event, arrivedAtMs)).catch((err) => {
      if (!(err instanceof RoomClosedError)) this.deps.log.error({ err, sessionId: this.sessionId, event: event.type }, 'room event failed');
    });
  }

  /** First task: resume a live session from storage, or prepare a waiting/finished one. */
  load(): Promise<void> {
    return this.run(async () => {
      const { storage } = this.deps;
      const session = await storage.loadSession(this.sessionId);
      if (!session) throw new SessionNotFoundError(this.sessionId);
      const program = await storage.loadProgram(session);
      const scores = await storage.loadScores(this.sessionId);
      if (session.status !== 'live') {
        this.state = createEngineState({ program, status: session.status, autoRotate: session.autoRotate, scores });
        return;
      }
      const answers = session.live ? await storage.loadAnswers(this.sessionId, session.live.asking) : [];
      const resumed = resumeEngine({ program, autoRotate: session.autoRotate, live: session.live, scores, answers }, this.now());
      this.state = resumed.state;
      await this.execute(resumed.effects, undefined);
      this.syncTimer();
    });
  }

  /** The session went live (start, restart, scheduled time): a fresh game from item 0. */
  goLive(): Promise<void> {
    return this.run(async () => {
      if (!this.state || this.state.status === 'live') return; // resumed on load already
      const { storage } = this.deps;
      const session = await storage.loadSession(this.sessionId);
      if (session?.status !== 'live') return;
      const program = await storage.loadProgram(session);
      const scores = await storage.loadScores(this.sessionId); // empty after a restart
      let state = createEngineState({ program, status: 'scheduled', autoRotate: session.autoRotate, scores });
      const now = this.now();
      // Phones that waited for the start count as connected players from the first question.
      for (const member of this.members.values()) {
        if (member.role === 'player' && member.playerId) {
          state = reduce(state, { type: 'player_connected', playerId: member.playerId, name: member.name ?? 'Player' }, now).state;
        }
      }
      this.state = state;
      await this.apply({ type: 'start' }, now);
    });
  }

  /** The session was stopped: the final state goes out, the timer stops. */
  stop(): Promise<void> {
    return this.run(async () => {
      if (!this.state || this.state.status === 'finished') return;
      await this.apply({ type: 'stop' }, this.now());
      this.checkUnused();
    });
  }

  /** Items, questions or media changed: the engine applies them at the next item boundary. */
  reloadProgram(): Promise<void> {
    return this.run(async () => {
      if (!this.state) return;
      const session = await this.deps.storage.loadSession(this.sessionId);
      if (!session) return;
      const program = await this.deps.storage.loadProgram(session);
      await this.apply({ type: 'program_changed', program }, this.now());
    });
  }

  /**
   * A socket joins. `join` runs inside the room's turn with the socket's first `session_state`:
   * the transport registers the socket there, so it misses no broadcast and gets none twice.
   */
  connect(member: RoomMember, join: (initial: ServerMessage) => void): Promise<void> {
    return this.run(async () => {
      if (!this.state) throw new Error('room not loaded');
      this.members.set(member.connectionId, member);
      if (member.role === 'player' && member.playerId) {
        await this.apply({ type: 'player_connected', playerId: member.playerId, name: member.name ?? 'Player' }, this.now());
      }
      const state = this.state;
      const now = this.now();
      if (member.role === 'admin') join(adminView(state, now));
      else if (member.role === 'player' && member.playerId) join(playerView(state, member.playerId, now));
      else join(audienceView(state, now));
    });
  }

  disconnect(connectionId: string): Promise<void> {
    return this.run(async () => {
      const member = this.members.get(connectionId);
      if (!member) return;
      this.members.delete(connectionId);
      if (member.role === 'player' && member.playerId) {
        await this.apply({ type: 'player_disconnected', playerId: member.playerId }, this.now());
      }
    });
  }

  retain(): void {
    this.holds++;
  }

  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    this.run(() => this.checkUnused()).catch(() => undefined);
  }

  private checkUnused(): void {
    if (this.holds === 0 && !this.isLive && !this.closing) this.deps.onUnused(this);
  }

  /** Stops the timer, lets queued tasks finish and writes what is buffered. The game stays live in storage. */
  async dispose(): Promise<void> {
    this.closing = true;
    this.arm(null);
    await this.whenIdle();
    this.disposed = true;
    this.arm(null);
    await this.answers.close();
  }

  // -------------------------------------------------------------------------------------------
  // Engine steps and their effects

  private async apply(event: EngineEvent, stampMs: number): Promise<void> {
    const before = this.state;
    if (!before) return;
    const nowMs = Math.max(stampMs, this.lastNowMs);
    this.lastNowMs = nowMs;
    const { state, effects } = reduce(before, event, nowMs);
    this.state = state;
    await this.execute(effects, state.autoRotate !== before.autoRotate ? state.autoRotate : undefined);
    this.syncTimer();
  }

  /**
   * Carries out one step's effects in order. Its saveScores and persist are written together,
   * in one transaction, at the first of them (after flushing the answers they derive from):
   * the results players are about to see are stored before they see them.
   */
  private async execute(effects: Effect[], autoRotateChanged: boolean | undefined): Promise<void> {
    const { broadcaster } = this.deps;
    let committed = false;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'broadcast':
          broadcaster.toSession(this.sessionId, effect.to, effect.message);
          break;
        case 'send':
          broadcaster.toPlayer(this.sessionId, effect.playerId, effect.message);
          break;
        case 'reply':
          broadcaster.toConnection(this.sessionId, effect.connectionId, effect.message);
          break;
        case 'saveAnswer':
          this.answers.add({ sessionId: effect.sessionId, playerId: effect.playerId, asking: effect.asking, answer: effect.answer });
          break;
        case 'saveScores':
        case 'persist':
          if (!committed) {
            committed = true;
            await this.commit(effects, autoRotateChanged);
          }
          break;
        case 'wakeAt':
          this.arm(effect.atMs);
          break;
      }
    }
  }

  private async commit(effects: Effect[], autoRotate: boolean | undefined): Promise<void> {
    const write: CommitWrite = { sessionId: this.sessionId, scores: [], autoRotate };
    for (const effect of effects) {
      if (effect.kind === 'saveScores') write.scores.push(...effect.scores);
      if (effect.kind === 'persist') write.snapshot = { live: effect.live, currentQuestionIndex: effect.currentQuestionIndex };
    }
    await this.answers.flush();
    await retryWrite(() => this.deps.storage.commit(write), 'saving scores and live state', this.deps.log, () => this.closing);
  }

  // -------------------------------------------------------------------------------------------
  // The one pending wake-up

  private arm(atMs: number | null): void {
    const { clock } = this.deps;
    if (this.timer !== null) clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAtMs = atMs;
    if (atMs === null || this.closing) return;
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      this.timerAtMs = null;
      this.dispatch({ type: 'timer' });
    }, Math.max(0, atMs - clock.now()));
  }

  /** After each step: the timer matches what the state needs (an early wake-up changes nothing and re-arms). */
  private syncTimer(): void {
    const wanted = this.state ? pendingWakeAt(this.state) : null;
    if (wanted !== this.timerAtMs || (wanted !== null && this.timer === null)) this.arm(wanted);
  }
}
