/**
 * Keeps one Room per session that needs one: every live session (resumed from storage on boot)
 * and any other session with sockets open (a display put up before the doors open, or showing
 * the final standings). The session lifecycle's events drive the rooms:
 * `started` → fresh game, `stopped` → final state, `changed` → program reload.
 */
import type { EventEmitter } from 'node:events';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import type { Clock } from './clock.js';
import { Room, RoomClosedError, SessionNotFoundError } from './room.js';
import { SharedCommits } from './shared-commits.js';
import type { RoomSummary } from './live-summary.js';
import type { RoomStorage } from './storage.js';

/**
 * 0: the answers read in one turn of the event loop share a transaction (and those arriving while
 * one runs share the next): batches form by themselves under a burst, with no timer to wait for.
 */
export const DEFAULT_COMMIT_WINDOW_MS = 0;

/** The lifecycle events the manager listens to (SessionLifecycle emits them). */
/** The host's kick (screenName null), hide or rename of a player (sessions/lifecycle.ts). */
type ModeratedListener = (sessionId: string, change: { playerId: string; screenName: string | null }) => void;

export interface LifecycleSource {
  on(event: 'started' | 'stopped' | 'changed' | 'deleted' | 'updated', listener: (sessionId: string) => void): unknown;
  off(event: 'started' | 'stopped' | 'changed' | 'deleted' | 'updated', listener: (sessionId: string) => void): unknown;
  on(event: 'moderated', listener: ModeratedListener): unknown;
  off(event: 'moderated', listener: ModeratedListener): unknown;
}

export interface RoomManagerOptions {
  storage: RoomStorage;
  broadcaster: Broadcaster;
  clock: Clock;
  log: RoomLog;
  lifecycle?: LifecycleSource | EventEmitter;
  /** Group-commit window for answers (default 0: one event-loop turn, see group-commit.ts). */
  commitWindowMs?: number;
  /**
   * Resume every live session from storage on start (default). Off in multi-instance mode, where
   * an instance runs only the sessions whose lease it holds.
   */
  resumeLive?: boolean;
}

interface Entry {
  room: Room;
  /** false when the session does not exist (or failed to load). */
  ready: Promise<boolean>;
}

export class RoomManager {
  private readonly rooms = new Map<string, Entry>();
  private readonly disposing = new Set<Promise<void>>();
  private closed = false;
  /** One per instance: every room's batches of a turn share a transaction (issue 26). */
  private readonly commits: SharedCommits;

  constructor(private readonly options: RoomManagerOptions) {
    this.commits = new SharedCommits(options.storage);
  }

  private readonly onStarted = (sessionId: string) => this.guard('start', sessionId, () => this.started(sessionId));
  private readonly onStopped = (sessionId: string) => this.guard('stop', sessionId, () => this.stopped(sessionId));
  private readonly onChanged = (sessionId: string) => this.guard('reload', sessionId, () => this.changed(sessionId));
  private readonly onModerated: ModeratedListener = (sessionId, change) =>
    this.rooms.get(sessionId)?.room.dispatch({ type: 'player_moderated', playerId: change.playerId, screenName: change.screenName });

  /** Subscribes to the lifecycle and resumes every live session from storage. */
  async start(): Promise<void> {
    const lifecycle = this.options.lifecycle as LifecycleSource | undefined;
    lifecycle?.on('started', this.onStarted);
    lifecycle?.on('stopped', this.onStopped);
    lifecycle?.on('changed', this.onChanged);
    lifecycle?.on('moderated', this.onModerated);
    if (this.options.resumeLive === false) return;
    const live = await this.options.storage.listLiveSessionIds();
    await Promise.all(live.map((id) => this.entry(id).ready));
  }

  /**
   * The room of a session, loaded, and held until `release`; null for an unknown session.
   * The hold is taken before any await, so a room cannot be disposed under a connecting socket.
   */
  async acquire(sessionId: string): Promise<Room | null> {
    if (this.closed) return null;
    const { room, ready } = this.entry(sessionId);
    room.retain();
    if (await ready) return room;
    room.release();
    return null;
  }

  get(sessionId: string): Room | undefined {
    return this.rooms.get(sessionId)?.room;
  }

  get size(): number {
    return this.rooms.size;
  }

  /** Sessions live in this process (read by the metrics when scraped). */
  get liveCount(): number {
    let live = 0;
    for (const { room } of this.rooms.values()) if (room.isLive) live++;
    return live;
  }

  /** Every live game of this instance, as the operator's overview shows it (live-summary.ts). */
  summaries(): RoomSummary[] {
    const out: RoomSummary[] = [];
    for (const { room } of this.rooms.values()) {
      const summary = room.summary();
      if (summary) out.push(summary);
    }
    return out;
  }

  /** For tests: resolves when every room has processed everything queued so far. */
  async whenIdle(): Promise<void> {
    for (const { room, ready } of [...this.rooms.values()]) {
      await ready;
      await room.whenIdle();
    }
    await Promise.all(this.disposing);
  }

  /** Stops timers and flushes writes; live sessions stay live in storage and resume on the next boot. */
  async close(): Promise<void> {
    this.closed = true;
    const lifecycle = this.options.lifecycle as LifecycleSource | undefined;
    lifecycle?.off('started', this.onStarted);
    lifecycle?.off('stopped', this.onStopped);
    lifecycle?.off('changed', this.onChanged);
    lifecycle?.off('moderated', this.onModerated);
    const entries = [...this.rooms.values()];
    this.rooms.clear();
    await Promise.all(entries.map(async ({ room, ready }) => {
      await ready;
      await room.dispose();
    }));
    await Promise.all(this.disposing);
  }

  /** Drops a room even while live (its session is run elsewhere now); queued tasks finish first. */
  async evict(sessionId: string): Promise<void> {
    const entry = this.rooms.get(sessionId);
    if (!entry) return;
    this.rooms.delete(sessionId);
    await entry.ready;
    await entry.room.dispose();
  }

  private entry(sessionId: string): Entry {
    const existing = this.rooms.get(sessionId);
    if (existing) return existing;
    const { storage, broadcaster, clock, log } = this.options;
    const room = new Room(sessionId, {
      storage,
      broadcaster,
      clock,
      log,
      commitWindowMs: this.options.commitWindowMs ?? DEFAULT_COMMIT_WINDOW_MS,
      commits: this.commits,
      onUnused: (unused) => this.dispose(unused),
    });
    const entry: Entry = {
      room,
      ready: room.load().then(
        () => true,
        (err) => {
          if (!(err instanceof SessionNotFoundError)) log.error({ err, sessionId }, 'loading the room failed');
          if (this.rooms.get(sessionId) === entry) this.rooms.delete(sessionId);
          return false;
        },
      ),
    };
    this.rooms.set(sessionId, entry);
    return entry;
  }

  private dispose(room: Room): void {
    if (this.rooms.get(room.sessionId)?.room === room) this.rooms.delete(room.sessionId);
    const done = room.dispose().finally(() => this.disposing.delete(done));
    this.disposing.add(done);
  }

  private async started(sessionId: string): Promise<void> {
    const { room, ready } = this.entry(sessionId);
    if (await ready) await room.goLive();
  }

  private async stopped(sessionId: string): Promise<void> {
    const entry = this.rooms.get(sessionId);
    if (entry && (await entry.ready)) await entry.room.stop();
  }

  private async changed(sessionId: string): Promise<void> {
    const entry = this.rooms.get(sessionId);
    if (entry && (await entry.ready)) await entry.room.reloadProgram();
  }

  private guard(what: string, sessionId: string, task: () => Promise<void>): void {
    if (this.closed) return;
    task().catch((err) => {
      if (!(err instanceof RoomClosedError)) this.options.log.error({ err, sessionId }, `room ${what} failed`);
    });
  }
}
