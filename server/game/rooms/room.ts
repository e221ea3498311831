/**
 * One session's live runner: load → reduce → persist → broadcast.
 *
 * Every input (a socket's message, the timer, a lifecycle change, a socket joining or leaving)
 * becomes a task on the room's queue, and tasks run strictly one after another, so the effects
 * of one engine step (some of them awaited database writes) never interleave with the next.
 * Events are stamped with the clock when they arrive, not when their turn comes, so an answer
 * that queued behind a database write is still scored by its arrival time.
 *
 * The room holds one pending wake-up on the injected clock. Its durable writes all go through
 * one group commit (group-commit.ts): answers gathered for a few milliseconds, with the scores
 * and snapshot of a step, one batch at a time; `answer_accepted` waits for its commit. The
 * batches of all rooms handed over in one event-loop turn share one transaction (shared-commits.ts).
 */
import type { ClientRole, ServerMessage } from '../../../protocol/index.js';
import {
  type Effect,
  type EngineEvent,
  type EngineState,
  type LiveSnapshot,
  adminView,
  audienceView,
  createEngineState,
  insightOnConnect,
  onPresenceRoster,
  pendingWakeAt,
  playerView,
  presenceRoster,
  reduce,
  resumeEngine,
} from '../engine/index.js';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import type { Clock, TimerHandle } from './clock.js';
import { GroupCommit, type StepWrite } from './group-commit.js';
import { ReconnectCounter, type RoomSummary, summarize } from './live-summary.js';
import type { RoomStorage, SnapshotWrite } from './storage.js';

/**
 * Connects and drops between phase changes refresh the stored roster at most this often, and at
 * the latest this long after the change (it only matters after a crash). A full house's roster is
 * tens of KB: written with every batch of a reconnect storm's answers it cost more CPU than the
 * answers themselves.
 */
export const ROSTER_REFRESH_MS = 1_000;

export interface RoomDeps {
  storage: RoomStorage;
  broadcaster: Broadcaster;
  clock: Clock;
  log: RoomLog;
  /** How long the first answer of a group commit waits for others to share its transaction. */
  commitWindowMs: number;
  /** The instance's shared commits (shared-commits.ts): batches of sessions committing in the same turn share a transaction. Without it, the room commits alone. */
  commits?: Pick<RoomStorage, 'commit'>;
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
  private readonly writes: GroupCommit;
  /** The last snapshot a step stored (or the one resumed from): the roster refresh rewrites it with the current roster. */
  private lastLive: LiveSnapshot | null = null;
  /** When the roster was last handed to the group commit (clock ms), and the refresh waiting for its turn. */
  private rosterRefreshedAtMs = Number.NEGATIVE_INFINITY;
  private rosterTimer: TimerHandle | null = null;
  /**
   * Players with an answer of the current asking not committed yet, by how many: a phone coming
   * back in that window waits for the commit before it is shown its answer as taken.
   */
  private readonly uncommitted = new Map<string, number>();
  /** Sockets (and connects in progress) using the room; a room nobody holds and not live is disposed. */
  private holds = 0;
  /** Shutting down: no new timers, writes stop retrying after a few attempts. */
  private closing = false;
  /** Disposed: queued tasks have run; anything arriving later is refused. */
  private disposed = false;
  /** Players coming back, for the operator's overview (live-summary.ts). */
  private readonly reconnects = new ReconnectCounter();

  constructor(
    readonly sessionId: string,
    private readonly deps: RoomDeps,
  ) {
    this.writes = new GroupCommit({
      sessionId,
      commit: (batch) => (deps.commits ?? deps.storage).commit(batch),
      windowMs: deps.commitWindowMs,
      refreshSnapshot: () => this.rosterSnapshot(),
      log: deps.log,
    });
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

  /** The game as the operator's overview shows it (GET /api/admin/live); null when not live. Read between tasks, never waits. */
  summary(): RoomSummary | null {
    const state = this.state;
    if (!state || state.status !== 'live') return null;
    return summarize(this.sessionId, state, this.reconnects.lastMinute(this.deps.clock.now()));
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
    await this.writes.flush();
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
      this.lastLive = session.live;
      const resumed = resumeEngine(
        { program, autoRotate: session.autoRotate, live: session.live, scores, answers, currentQuestionIndex: session.currentQuestionIndex },
        this.now(),
      );
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
      // Displays put up before the start stay counted (and the insight throttle keeps its pace).
      const { displays, insight } = this.state;
      let state: EngineState = { ...createEngineState({ program, status: 'scheduled', autoRotate: session.autoRotate, scores }), displays, insight };
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
  async connect(member: RoomMember, join: (initial: ServerMessage) => void): Promise<void> {
    // A phone whose answer still waits for its commit waits for it here, outside the queue: while
    // storage is down (DESIGN §16) the room keeps time for everyone else meanwhile.
    if (member.playerId && this.uncommitted.has(member.playerId)) await this.writes.flush();
    const newcomer: { committed?: Promise<boolean> } = {};
    const joined = this.run(async () => {
      if (!this.state) throw new Error('room not loaded');
      this.members.set(member.connectionId, member);
      if (member.role === 'player' && member.playerId) {
        this.reconnects.connected(member.playerId, this.deps.clock.now());
        // On no stored roster yet: listed in the next commit (the end of this turn), not at the
        // next roster refresh up to a second away, and shown the game only once that is stored,
        // so a crash can never forget a phone that was shown the question (DESIGN §8).
        const isNew = this.state.status === 'live' && !onPresenceRoster(this.state.presence, member.playerId);
        await this.apply({ type: 'player_connected', playerId: member.playerId, name: member.name ?? 'Player' }, this.now());
        if (isNew) {
          this.writes.addJoined(member.playerId);
          newcomer.committed = this.writes.whenCommitted();
          return;
        }
      } else if (member.role === 'display') {
        await this.apply({ type: 'display_connected' }, this.now());
      }
      // Its answer is held in memory until its commit: shown "answered" before that, a crash in
      // between would take back what the phone was shown as taken (DESIGN §8). Rare here: the
      // wait above; only an answer from another of its sockets in between lands here.
      if (member.playerId && this.uncommitted.has(member.playerId)) await this.writes.flush();
      this.sendInitial(member, join);
    });
    // A newcomer waits for its commit outside the queue (newcomers arriving together share it),
    // then gets the state of that later turn: complete, so nothing sent meanwhile is missed.
    return joined.then(async () => {
      if (!newcomer.committed) return;
      await newcomer.committed;
      await this.run(() => {
        if (this.members.has(member.connectionId)) this.sendInitial(member, join);
      });
    });
  }

  /** The socket's first state, in the room's turn: the transport registers it there (no broadcast missed or doubled). */
  private sendInitial(member: RoomMember, join: (initial: ServerMessage) => void): void {
    const state = this.state!;
    const now = this.now();
    if (member.role === 'admin') join(adminView(state, now));
    else if (member.role === 'player' && member.playerId) join(playerView(state, member.playerId, now));
    else join(audienceView(state, now));
    // The counts so far: the throttled updates only tell what changes from here.
    if (member.role !== 'player') {
      for (const message of insightOnConnect(state, member.role)) this.deps.broadcaster.toConnection(this.sessionId, member.connectionId, message);
    }
  }

  disconnect(connectionId: string): Promise<void> {
    return this.run(async () => {
      const member = this.members.get(connectionId);
      if (!member) return;
      this.members.delete(connectionId);
      if (member.role === 'player' && member.playerId) {
        await this.apply({ type: 'player_disconnected', playerId: member.playerId }, this.now());
      } else if (member.role === 'display') {
        await this.apply({ type: 'display_disconnected' }, this.now());
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
    if (this.rosterTimer !== null) this.deps.clock.clearTimeout(this.rosterTimer);
    this.rosterTimer = null;
    // The roster as it is now (every phone still connected during a graceful shutdown) goes
    // with the last commit: the next start waits for these players before ending a question early.
    this.writes.refreshSoon(0);
    await this.writes.close();
  }

  /** The stored snapshot with the current roster; undefined when there is nothing live to refresh. */
  private rosterSnapshot(): SnapshotWrite | undefined {
    const state = this.state;
    if (!state || state.status !== 'live' || !this.lastLive) return undefined;
    return { live: { ...this.lastLive, roster: presenceRoster(state.presence) }, currentQuestionIndex: state.lastQuestionIndex };
  }

  // -------------------------------------------------------------------------------------------
  // Engine steps and their effects

  private async apply(event: EngineEvent, stampMs: number): Promise<void> {
    const before = this.state;
    if (!before) return;
    const nowMs = Math.max(stampMs, this.lastNowMs);
    this.lastNowMs = nowMs;
    // An answer stamped before the game's clock (relayed late by a Redis outage) is timed by its stamp.
    if (event.type === 'submit_answer' && stampMs < nowMs) event = { ...event, arrivedAtMs: stampMs };
    const { state, effects } = reduce(before, event, nowMs);
    this.state = state;
    await this.execute(effects, state.autoRotate !== before.autoRotate ? state.autoRotate : undefined);
    // Presence changed without a phase change (a connect, a drop): the stored roster catches up soon.
    if (state.presence !== before.presence && !effects.some((e) => e.kind === 'persist')) this.rosterChanged();
    this.syncTimer();
  }

  /** The roster goes with the next batch now, or if it went less than ROSTER_REFRESH_MS ago, that long after. */
  private rosterChanged(): void {
    if (this.rosterTimer !== null || this.closing) return;
    const { clock } = this.deps;
    const waitMs = this.rosterRefreshedAtMs + ROSTER_REFRESH_MS - clock.now();
    if (waitMs <= 0) {
      this.refreshRoster();
      return;
    }
    this.rosterTimer = clock.setTimeout(() => {
      this.rosterTimer = null;
      this.refreshRoster();
    }, waitMs);
  }

  private refreshRoster(): void {
    this.rosterRefreshedAtMs = this.deps.clock.now();
    this.writes.refreshSoon(0);
  }

  /**
   * Carries out one step's effects in order. An answer joins the group commit and its
   * `answer_accepted` is held until that commit is done. The step's saveScores and persist are
   * committed together, with the answers gathered so far, at the first of them, and awaited:
   * the results players are about to see are stored before they see them, after the acceptances.
   */
  private async execute(effects: Effect[], autoRotateChanged: boolean | undefined): Promise<void> {
    const { broadcaster } = this.deps;
    let committed = false;
    // Acceptances held for their answer's commit. Runs for every answer: no iterator, no copies.
    let held: Effect[] | undefined;
    for (let index = 0; index < effects.length; index++) {
      const effect = effects[index];
      switch (effect.kind) {
        case 'broadcast':
          broadcaster.toSession(this.sessionId, effect.to, effect.message);
          break;
        case 'send':
          if (!held?.includes(effect)) broadcaster.toPlayer(this.sessionId, effect.playerId, effect.message);
          break;
        case 'reply':
          // A resend's acceptance is a promise too (DESIGN §8): it waits for the first one's commit.
          if (effect.message.type === 'answer_accepted' && this.uncommitted.size > 0) await this.writes.flush();
          broadcaster.toConnection(this.sessionId, effect.connectionId, effect.message);
          break;
        case 'saveAnswer': {
          const accepted = acceptanceOf(effects, index);
          if (accepted) (held ??= []).push(accepted);
          const write = { sessionId: effect.sessionId, playerId: effect.playerId, asking: effect.asking, answer: effect.answer };
          const { playerId } = effect;
          this.uncommitted.set(playerId, (this.uncommitted.get(playerId) ?? 0) + 1);
          this.writes.addAnswer(write, () => {
            const left = (this.uncommitted.get(playerId) ?? 1) - 1;
            if (left > 0) this.uncommitted.set(playerId, left);
            else this.uncommitted.delete(playerId);
            if (accepted) broadcaster.toPlayer(this.sessionId, accepted.playerId, accepted.message);
          });
          break;
        }
        case 'saveAsking': // written with the step's commit: a question start always changes the snapshot
        case 'saveScores':
        case 'persist':
          if (!committed) {
            committed = true;
            await this.commitStep(effects, autoRotateChanged);
          }
          break;
        case 'wakeAt':
          this.arm(effect.atMs);
          break;
      }
    }
  }

  private async commitStep(effects: Effect[], autoRotate: boolean | undefined): Promise<void> {
    const scores = [];
    const askings: NonNullable<StepWrite['askings']> = [];
    let snapshot: SnapshotWrite | undefined;
    for (const effect of effects) {
      if (effect.kind === 'saveScores') scores.push(...effect.scores);
      if (effect.kind === 'saveAsking') askings.push({ asking: effect.asking, questionId: effect.questionId, askedAtMs: effect.atMs });
      if (effect.kind === 'persist') snapshot = { live: effect.live, currentQuestionIndex: effect.currentQuestionIndex };
    }
    if (snapshot) this.lastLive = snapshot.live;
    await this.writes.commitNow({ scores, askings, snapshot, autoRotate });
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

/** The `answer_accepted` that follows the saveAnswer at `index` for the same player, if any. */
function acceptanceOf(effects: Effect[], index: number): Extract<Effect, { kind: 'send' }> | undefined {
  const save = effects[index];
  if (save.kind !== 'saveAnswer') return undefined;
  for (let i = index + 1; i < effects.length; i++) {
    const e = effects[i];
    if (e.kind === 'send' && e.playerId === save.playerId && e.message.type === 'answer_accepted') return e;
  }
  return undefined;
}
