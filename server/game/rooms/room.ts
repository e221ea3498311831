/**
 * One session's live runner: load → reduce → persist → broadcast.
 *
 * Every input (a socket's message, the timer, a lifecycle change, a socket joining or leaving)
 * becomes a task on the room's queue, and tasks run strictly one after another, so the effects
 * of one engine step (some of them awaited database writes) never interleave with the next.
 * Events are stamped with the clock when they arrive, not when their turn comes, so an answer
 * that queued behind a database write is still scored by its arrival time.
 *
 * The room holds one pending wake-up on the injected clock (wake-timer.ts). Its durable writes
 * all go through one group commit (group-commit.ts): answers gathered for a few milliseconds, with
 * the scores and snapshot of a step, one batch at a time; `answer_accepted` waits for its commit
 * (step-effects.ts carries out a step's effects). The batches of all rooms handed over in one
 * event-loop turn share one transaction (shared-commits.ts). The queue is task-queue.ts, the
 * stored roster's refresh roster-refresh.ts, loading a game room-load.ts.
 *
 * Longer than ~300 lines on purpose: what is left is the room's tasks (connect, load, go live,
 * apply a step), each of which must run in the queue's turn and read together.
 */
import type { ClientRole, ServerMessage } from '../../../protocol/index.js';
import {
  type Effect,
  type EngineEvent,
  type EngineState,
  type LiveSnapshot,
  adminView,
  audienceView,
  insightOnConnect,
  onPresenceRoster,
  pendingWakeAt,
  playerView,
  presenceRoster,
  reduce,
  withPlayerDelays,
} from '../engine/index.js';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import type { Clock } from './clock.js';
import { GroupCommit } from './group-commit.js';
import { freshGame, loadGame } from './room-load.js';
import { ReconnectCounter, type RoomSummary, summarize } from './live-summary.js';
import { RosterRefresh } from './roster-refresh.js';
import { StepEffects } from './step-effects.js';
import type { RoomStorage, SnapshotWrite } from './storage.js';
import type { SharedCommits } from './shared-commits.js';
import { RoomClosedError, TaskQueue } from './task-queue.js';
import { WakeTimer } from './wake-timer.js';

export { RoomClosedError } from './task-queue.js';
export { SessionNotFoundError } from './room-load.js';

/**
 * A close whose results went out this much later than the question closed (their commit waited for
 * storage, DESIGN §16) restarts the reveal from the delivery. Below it the reveal keeps its time and
 * no extra snapshot is written.
 */
export const LATE_RESULTS_MS = 1_000;

export interface RoomDeps {
  storage: RoomStorage;
  broadcaster: Broadcaster;
  clock: Clock;
  log: RoomLog;
  /** How long the first answer of a group commit waits for others to share its transaction. */
  commitWindowMs: number;
  /** The instance's shared commits (shared-commits.ts): batches of sessions committing in the same turn share a transaction. Without it, the room commits alone. */
  commits?: Pick<SharedCommits, 'commit' | 'hand' | 'waitFor' | 'unwait' | 'poke' | 'list' | 'lists' | 'generation'>;
  /** Called (from the room's queue) when nobody holds a room that is not live any more. */
  onUnused(room: Room): void;
  /**
   * Asked at a question's deadline, then every REVEAL_POLL_MS while true: the reveal waits
   * (multi-instance mode: answers other instances took in time, held up by a Redis outage).
   */
  holdReveal?(sessionId: string, endsAtMs: number): boolean;
}

/** A socket as the room knows it: no transport details. */
export interface RoomMember {
  connectionId: string;
  role: ClientRole;
  playerId?: string;
  name?: string;
}

export class Room {
  private state: EngineState | null = null;
  private readonly queue: TaskQueue;
  private lastNowMs = 0;
  private readonly timer: WakeTimer;
  private readonly members = new Map<string, RoomMember>();
  private readonly writes: GroupCommit;
  private readonly effects: StepEffects;
  /** The last snapshot a step stored (or the one resumed from): the roster refresh rewrites it with the current roster. */
  private lastLive: LiveSnapshot | null = null;
  private readonly roster: RosterRefresh;
  /** Sockets (and connects in progress) using the room; a room nobody holds and not live is disposed. */
  private holds = 0;
  /** Shutting down: no new timers, writes stop retrying after a few attempts. */
  private closing = false;
  /** Players coming back, for the operator's overview (live-summary.ts). */
  private readonly reconnects = new ReconnectCounter();
  /** Delays reported since the last timer step (`player_delay`), the latest per player: applied with the next one. */
  private readonly latestDelays = new Map<string, number>();

  constructor(
    readonly sessionId: string,
    private readonly deps: RoomDeps,
  ) {
    this.writes = new GroupCommit({
      sessionId,
      commit: (batch) => (deps.commits ?? deps.storage).commit(batch),
      shared: deps.commits,
      windowMs: deps.commitWindowMs,
      refreshSnapshot: () => this.rosterSnapshot(),
      log: deps.log,
    });
    this.queue = new TaskQueue(sessionId);
    this.timer = new WakeTimer(deps.clock, () => this.dispatch({ type: 'timer' }), () => this.revealHeld());
    this.roster = new RosterRefresh(deps.clock, () => this.writes.refreshSoon(0));
    this.effects = new StepEffects({
      sessionId,
      broadcaster: deps.broadcaster,
      writes: this.writes,
      arm: (atMs) => this.timer.arm(atMs),
      stored: (live) => {
        this.lastLive = live;
      },
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
    return this.queue.run(task);
  }

  /** Resolves once everything queued so far has run and its answers are stored. */
  async settled(): Promise<void> {
    await this.whenIdle();
    await this.writes.flush();
  }

  /** Resolves when every task queued so far (and any queued meanwhile) has run. */
  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
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
    // Saturated, one phase of the event loop can last most of a second: commits that are due run now.
    this.deps.commits?.poke();
    // A phone's measured delay matters only when a question's deadline sizes the reveal's hold
    // (credit.ts), which only a timer step does: kept aside and handed to the engine with the next
    // one, not a step of its own. Nearly every pong of a question's ping reported one, and handed
    // over with the next step, every answer's step made a second new state (issue 26).
    if (event.type === 'player_delay') {
      this.latestDelays.set(event.playerId, event.allowanceMs);
      return;
    }
    // An answer brings its player's delay as measured now: one reported before it is older.
    if (event.type === 'submit_answer' && event.allowanceMs !== undefined) this.latestDelays.delete(event.playerId);
    this.queue.post(this.applyPosted, event, arrivedAtMs, this.postedFailed);
  }

  /** A dispatched event's step and its failure: made once, not per event (task-queue.ts). */
  private readonly applyPosted = (event: EngineEvent, arrivedAtMs: number) => this.apply(event, arrivedAtMs);
  private readonly postedFailed = (err: unknown, event: EngineEvent): void => {
    if (!(err instanceof RoomClosedError)) this.deps.log.error({ err, sessionId: this.sessionId, event: event.type }, 'room event failed');
  };

  /** First task: resume a live session from storage, or prepare a waiting/finished one. */
  load(): Promise<void> {
    return this.run(async () => {
      const game = await loadGame(this.deps.storage, this.sessionId, () => this.now());
      this.state = game.state;
      this.lastLive = game.live;
      if (game.state.status !== 'live') return;
      await this.effects.execute(game.effects, undefined);
      this.syncTimer();
    });
  }

  /** The session went live (start, restart, scheduled time): a fresh game from item 0. */
  goLive(): Promise<void> {
    return this.run(async () => {
      if (!this.state || this.state.status === 'live') return; // resumed on load already
      const players = [];
      for (const member of this.members.values()) {
        if (member.role === 'player' && member.playerId) players.push({ playerId: member.playerId, name: member.name ?? 'Player' });
      }
      const state = await freshGame(this.deps.storage, this.sessionId, this.state, players, () => this.now());
      if (!state) return;
      this.state = state;
      await this.apply({ type: 'start' }, this.now());
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
    if (member.playerId && this.effects.hasUncommitted(member.playerId)) await this.writes.flush();
    const newcomer: { committed?: Promise<boolean> } = {};
    const joined = this.run(async () => {
      if (!this.state) throw new Error('room not loaded');
      this.members.set(member.connectionId, member);
      if (member.role === 'player' && member.playerId) {
        // Seen before: named in the game (every phone that connected; after a resume, those who
        // scored or answered) or on the roster stored before a restart or a takeover.
        if (this.state.names.has(member.playerId) || this.state.presence.awaited.has(member.playerId)) this.reconnects.cameBack(this.deps.clock.now());
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
      if (member.playerId && this.effects.hasUncommitted(member.playerId)) await this.writes.flush();
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
    this.timer.closing = true;
    this.roster.closing = true;
    this.timer.arm(null);
    await this.whenIdle();
    this.queue.closed = true;
    this.timer.arm(null);
    this.roster.cancel();
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

  /**
   * One engine step and its effects. Returns a promise only when the step awaits a commit (a
   * phase change): an answer's step finishes in the caller's turn (task-queue.ts).
   */
  private apply(event: EngineEvent, stampMs: number): Promise<void> | undefined {
    let before = this.state;
    if (!before) return undefined;
    if (event.type === 'timer' && this.latestDelays.size > 0) {
      before = withPlayerDelays(before, this.latestDelays);
      this.latestDelays.clear();
    }
    const nowMs = Math.max(stampMs, this.lastNowMs);
    this.lastNowMs = nowMs;
    // An answer stamped before the game's clock (relayed late by a Redis outage) is timed by its stamp.
    if (event.type === 'submit_answer' && stampMs < nowMs) event = { ...event, arrivedAtMs: stampMs };
    const { state, effects } = reduce(before, event, nowMs);
    this.state = state;
    const committing = this.effects.execute(effects, state.autoRotate !== before.autoRotate ? state.autoRotate : undefined);
    return committing ? committing.then(() => this.afterStep(before, state, effects, nowMs)) : this.afterStep(before, state, effects, nowMs);
  }

  private afterStep(before: EngineState, state: EngineState, effects: Effect[], nowMs: number): Promise<void> | undefined {
    if (state.phase.kind === 'reveal' && before.phase.kind === 'question' && this.now() - nowMs >= LATE_RESULTS_MS) {
      // Counted from the close, the reveal could be over before the phones that came back while the
      // commit waited were shown their result: a wake-up queued meanwhile would end it at once.
      const delivered = this.apply({ type: 'results_delivered' }, this.now());
      if (delivered) return delivered.then(() => this.finishStep(before, state, effects));
    }
    this.finishStep(before, state, effects);
    return undefined;
  }

  private finishStep(before: EngineState, state: EngineState, effects: Effect[]): void {
    // Presence changed without a phase change (a connect, a drop): the stored roster catches up soon.
    if (state.presence !== before.presence && !effects.some((e) => e.kind === 'persist')) this.roster.changed();
    this.syncTimer();
  }

  /** Past an open question's deadline, while the deps say its reveal waits (DESIGN §16). */
  private revealHeld(): boolean {
    const phase = this.state?.phase;
    if (!this.deps.holdReveal || this.closing || phase?.kind !== 'question' || this.deps.clock.now() < phase.endsAtMs) return false;
    return this.deps.holdReveal(this.sessionId, phase.endsAtMs);
  }

  /** After each step: the timer matches what the state needs. */
  private syncTimer(): void {
    this.timer.sync(this.state ? pendingWakeAt(this.state) : null);
  }
}
