import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget } from '../engine/index.js';
import { REVEAL_MS } from '../engine/index.js';
import { makeProgram, makeQuestion, makeSlide } from '../engine/testing/testkit.js';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import { FakeClock } from './fake-clock.js';
import { RoomManager } from './manager.js';
import { MemoryRoomStorage } from './memory-storage.js';
import type { RoomMember } from './room.js';
import { OVERDUE_MS } from './shared-commits.js';
import type { AnswerWrite, CommitBatch } from './storage.js';

type Delivery = { to: string; message: ServerMessage };

class RecordingBroadcaster implements Broadcaster {
  readonly sent: Delivery[] = [];
  toSession(_sessionId: string, target: BroadcastTarget, message: ServerMessage): void {
    this.sent.push({ to: target, message });
  }
  toPlayer(_sessionId: string, playerId: string, message: ServerMessage): void {
    this.sent.push({ to: `player:${playerId}`, message });
  }
  toConnection(_sessionId: string, connectionId: string, message: ServerMessage): void {
    this.sent.push({ to: `connection:${connectionId}`, message });
  }
  types(to?: string): string[] {
    return this.sent.filter((d) => !to || d.to === to).map((d) => d.message.type);
  }
}

const silentLog: RoomLog & { errors: string[] } = {
  errors: [],
  error(_details, message) {
    this.errors.push(message);
  },
  warn() {},
  info() {},
};

const T0 = 1_800_000_000_000;
const SESSION = 'session-1';

/** Memory storage whose commits can be held open: `hold()` makes the next one wait until released. */
class HeldCommitStorage extends MemoryRoomStorage {
  private held: { entered: () => void; released: Promise<void> } | null = null;

  /** The next commit waits for `release`; `entered` resolves once it has started. */
  hold(): { entered: Promise<void>; release: () => void } {
    let entered!: () => void;
    let release!: () => void;
    const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
    this.held = { entered, released: new Promise<void>((resolve) => (release = resolve)) };
    return { entered: enteredPromise, release };
  }

  override async commit(batch: CommitBatch): Promise<void> {
    const held = this.held;
    this.held = null;
    if (held) {
      held.entered();
      await held.released;
    }
    await super.commit(batch);
  }
}

function setup(options: { status?: 'draft' | 'live'; autoRotate?: boolean; storage?: MemoryRoomStorage } = {}) {
  const clock = new FakeClock(T0);
  const storage = options.storage ?? new MemoryRoomStorage();
  storage.addSession(makeProgram([makeQuestion('q1', { timeLimitSeconds: 10 }), makeSlide('s1')]), options);
  const broadcaster = new RecordingBroadcaster();
  const lifecycle = new EventEmitter();
  const manager = new RoomManager({ storage, broadcaster, clock, log: silentLog, lifecycle, commitWindowMs: 5 });
  clock.settle = () => manager.whenIdle();
  managers.push(manager);
  return { clock, storage, broadcaster, lifecycle, manager };
}

const managers: RoomManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  silentLog.errors.length = 0;
});

async function join(manager: RoomManager, member: RoomMember): Promise<ServerMessage> {
  const room = (await manager.acquire(SESSION))!;
  let initial: ServerMessage | undefined;
  await room.connect(member, (message) => (initial = message));
  return initial!;
}

describe('Room', () => {
  it('waits before the start, then plays from item 0 when the session goes live', async () => {
    const { manager, storage, lifecycle, broadcaster, clock } = setup();
    await manager.start();
    expect(await join(manager, { connectionId: 'd1', role: 'display' })).toMatchObject({ phase: 'waiting', question: null });
    storage.sessions.get(SESSION)!.status = 'live';
    lifecycle.emit('started', SESSION);
    await manager.whenIdle();
    expect(broadcaster.sent.at(-2)?.message).toMatchObject({ type: 'session_state', phase: 'question', endsAt: T0 + 10_000 });
    expect(storage.sessions.get(SESSION)!.live).toMatchObject({ phase: 'question', itemIndex: 0, asking: 1 });
    await clock.advance(3_000);
    expect(broadcaster.types('all')).toEqual(['timer_tick', 'timer_tick', 'timer_tick']);
  });

  it('scores an answer by its arrival time and writes answers before the results, scores and snapshot together', async () => {
    const { manager, storage, broadcaster, clock } = setup({ status: 'live' });
    await manager.start();
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await join(manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    await clock.advance(2_000);
    const room = manager.get(SESSION)!;
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 1 });
    await clock.advance(2_000);
    room.dispatch({ type: 'submit_answer', connectionId: 'p2', playerId: 'bob', questionId: 'q1', selectedIndex: 0 });
    await manager.whenIdle();
    // Both answered: the question closed early, and both answers were stored before the commit.
    expect(storage.answers.size).toBe(2);
    const closing = storage.commits.at(-1)!;
    expect(closing.scores).toHaveLength(2);
    expect(closing.scores).toEqual(
      expect.arrayContaining([
        { playerId: 'ann', pointsTotal: 90, reachedAtMs: T0 + 2_000 },
        { playerId: 'bob', pointsTotal: 0, reachedAtMs: T0 + 4_000 },
      ]),
    );
    expect(closing.snapshot?.live).toMatchObject({ phase: 'reveal' });
    expect(broadcaster.types('player:ann')).toEqual(['answer_accepted', 'answer_result']);
    expect(broadcaster.sent.find((d) => d.message.type === 'answer_result' && d.to === 'player:ann')?.message).toMatchObject({
      isCorrect: true,
      pointsEarned: 90,
      newScore: 90,
    });
  });

  it('shows a phone coming back its answer as taken only once that answer is committed', async () => {
    const storage = new HeldCommitStorage();
    const { manager } = setup({ status: 'live', storage });
    await manager.start();
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await join(manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    const room = manager.get(SESSION)!;
    const commit = storage.hold();
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 2 });
    await commit.entered;

    // Ann's phone reconnects while her answer's transaction is still open; Bob (no answer) too.
    const order: string[] = [];
    const states = new Map<string, ServerMessage>();
    const rejoin = (member: RoomMember) =>
      room.connect(member, (initial) => {
        order.push(`${member.playerId} shown`);
        states.set(member.playerId!, initial);
      });
    const annBack = rejoin({ connectionId: 'p1b', role: 'player', playerId: 'ann', name: 'Ann' });
    const bobBack = rejoin({ connectionId: 'p2b', role: 'player', playerId: 'bob', name: 'Bob' });
    // Give the room every chance to answer early: a turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    order.push('committed');
    commit.release();
    await Promise.all([annBack, bobBack]);

    // Bob is let in at once (the room does not stop for a commit, DESIGN §16); Ann once hers is stored.
    expect(order).toEqual(['bob shown', 'committed', 'ann shown']);
    expect(states.get('ann')).toMatchObject({ phase: 'question', answered: true, selectedIndex: 2 });
    expect(storage.answers.get(`${SESSION}/1/ann`)).toMatchObject({ selectedIndex: 2 });
    expect(states.get('bob')).toMatchObject({ phase: 'question', answered: false });
  });

  it('reveals for its full length from when the results went out after a long commit, so a phone back meanwhile sees its result', async () => {
    const storage = new HeldCommitStorage();
    const { manager, clock, broadcaster } = setup({ status: 'live', storage });
    await manager.start();
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await join(manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    const room = manager.get(SESSION)!;
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 1 });
    await room.settled();

    // Bob's answer closes the question; its commit (with the results) waits 8 s for storage.
    const commit = storage.hold();
    room.dispatch({ type: 'submit_answer', connectionId: 'p2', playerId: 'bob', questionId: 'q1', selectedIndex: 0 });
    await commit.entered;
    const closedAt = clock.now();
    // Bob's phone resends on a new socket meanwhile: it waits for his answer's commit.
    let bobState: ServerMessage | undefined;
    const bobBack = room.connect({ connectionId: 'p2b', role: 'player', playerId: 'bob', name: 'Bob' }, (m) => (bobState = m));
    const settle = clock.settle;
    clock.settle = () => new Promise((resolve) => setImmediate(resolve)); // the room is busy: only let it breathe
    await clock.advance(8_000);
    clock.settle = settle;
    commit.release();
    await bobBack;
    const deliveredAt = clock.now();
    expect(deliveredAt - closedAt).toBe(8_000);
    expect(bobState).toMatchObject({ phase: 'reveal', answerResult: { isCorrect: false, pointsEarned: 0 }, endsAt: deliveredAt + REVEAL_MS });

    // The wake-ups due meanwhile do not cut the reveal short: a phone back a moment before its end still sees it.
    await clock.advance(REVEAL_MS - 100);
    expect(await join(manager, { connectionId: 'p1b', role: 'player', playerId: 'ann', name: 'Ann' })).toMatchObject({
      phase: 'reveal',
      answerResult: { isCorrect: true },
    });
    expect(broadcaster.sent.filter((d) => d.message.type === 'session_state').map((d) => (d.message as { phase: string }).phase)).not.toContain('between');
    await clock.advance(100);
    expect(broadcaster.sent.at(-1)?.message).toMatchObject({ type: 'session_state', phase: 'between' });
    await manager.whenIdle();
    expect(storage.sessions.get(SESSION)!.live).toMatchObject({ phase: 'between' });
  });

  it('does not hold up a phone whose answer is already committed, or who has none', async () => {
    const storage = new HeldCommitStorage();
    const { manager } = setup({ status: 'live', storage });
    await manager.start();
    for (const [connectionId, playerId] of [['p1', 'ann'], ['p2', 'bob'], ['p3', 'cid']]) {
      await join(manager, { connectionId, role: 'player', playerId, name: playerId });
    }
    const room = manager.get(SESSION)!;
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 2 });
    await room.settled(); // Ann's answer is stored
    const commit = storage.hold();
    room.dispatch({ type: 'submit_answer', connectionId: 'p2', playerId: 'bob', questionId: 'q1', selectedIndex: 1 });
    await commit.entered; // Bob's answer's transaction is open

    const order: string[] = [];
    await room.connect({ connectionId: 'p1b', role: 'player', playerId: 'ann', name: 'ann' }, (initial) => {
      order.push('ann shown');
      expect(initial).toMatchObject({ answered: true, selectedIndex: 2 });
    });
    await room.connect({ connectionId: 'p3b', role: 'player', playerId: 'cid', name: 'cid' }, (initial) => {
      order.push('cid shown');
      expect(initial).toMatchObject({ answered: false });
    });
    order.push('committed');
    commit.release();
    await room.settled();
    expect(order).toEqual(['ann shown', 'cid shown', 'committed']);
  });

  it('stores the roster at once after a quiet spell, then at most once a second while phones come and go', async () => {
    const { manager, storage, clock } = setup({ status: 'live' });
    await manager.start();
    const room = manager.get(SESSION)!;
    const storedRoster = () => [...(storage.sessions.get(SESSION)!.live?.roster ?? [])].sort();
    const snapshotWrites = () => storage.commits.filter((c) => c.snapshot).length;
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await room.settled();
    expect(storedRoster()).toEqual(['ann']);
    const writesBefore = snapshotWrites();

    // A storm: more phones within the second; the roster waits for it.
    await join(manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    await join(manager, { connectionId: 'p3', role: 'player', playerId: 'cid', name: 'Cid' });
    await room.disconnect('p1');
    await room.settled();
    expect(storedRoster()).toEqual(['ann']);
    await clock.advance(999);
    await room.settled();
    expect(storedRoster()).toEqual(['ann']);
    await clock.advance(1);
    await room.settled();
    // Ann dropped less than 5 s ago: she still counts, and stays on the roster.
    expect(storedRoster()).toEqual(['ann', 'bob', 'cid']);
    expect(snapshotWrites() - writesBefore).toBe(1);
  });

  it('retries a failed write and carries on', async () => {
    const { manager, storage, clock } = setup({ status: 'live' });
    await manager.start();
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    storage.failNextWrites = 2;
    manager.get(SESSION)!.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 1 });
    await manager.whenIdle();
    // Logged once for the outage (with its cause), not once per attempt.
    expect(silentLog.errors.filter((e) => e.includes('retrying'))).toHaveLength(1);
    expect(storage.scores.get(SESSION)?.get('ann')).toEqual({ pointsTotal: 100, reachedAtMs: T0 });
    expect(storage.sessions.get(SESSION)!.live).toMatchObject({ phase: 'reveal' });
    await clock.advance(10_000);
    expect(storage.sessions.get(SESSION)!.live).toMatchObject({ phase: 'slide' });
  });

  it('records Pause on the session row and ends with the final state on stop', async () => {
    const { manager, storage, lifecycle, broadcaster } = setup({ status: 'live' });
    await manager.start();
    await join(manager, { connectionId: 'a1', role: 'admin' });
    manager.get(SESSION)!.dispatch({ type: 'admin_pause', connectionId: 'a1' });
    await manager.whenIdle();
    expect(storage.sessions.get(SESSION)!.autoRotate).toBe(false);
    expect(storage.commits.at(-1)).toMatchObject({ autoRotate: false, snapshot: { live: { autoRotate: false } } });

    storage.sessions.get(SESSION)!.status = 'finished';
    lifecycle.emit('stopped', SESSION);
    await manager.whenIdle();
    expect(broadcaster.sent.slice(-2).map((d) => [d.to, d.message.type, (d.message as { phase?: string }).phase])).toEqual([
      ['audience', 'session_state', 'finished'],
      ['admins', 'session_state', 'finished'],
    ]);
    expect(storage.sessions.get(SESSION)!.live).toBeNull();
    // The admin socket still holds the finished room; when it leaves the room goes away.
    expect(manager.get(SESSION)).toBeDefined();
    const room = manager.get(SESSION)!;
    await room.disconnect('a1');
    room.release();
    await manager.whenIdle();
    expect(manager.get(SESSION)).toBeUndefined();
  });

  it('a room event writes the batches overdue for their commit, before the turn ends', async () => {
    // Shared commits (one transaction per turn for every session) need a storage that writes several batches at once.
    class SharingStorage extends MemoryRoomStorage {
      async commitMany(batches: CommitBatch[], listed: AnswerWrite[] = []): Promise<void> {
        // The instance's listed answers first (all of this test's one session), as a batch of their own.
        if (listed.length > 0) await this.commit({ sessionId: SESSION, answers: listed, scores: [] });
        for (const batch of batches) await this.commit(batch);
      }
    }
    const storage = new SharingStorage();
    const { manager } = setup({ status: 'live', storage });
    await manager.start();
    await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await join(manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    await manager.whenIdle();
    const room = manager.get(SESSION)!;
    const stored = () => storage.commits.flatMap((c) => c.answers.map((a) => a.playerId));
    room.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 2 });
    for (let i = 0; i < 10; i++) await Promise.resolve(); // microtasks only: the room takes the answer, the turn goes on
    expect(stored()).toEqual([]);
    // A saturated server's poll phase reads sockets for a long stretch; the answer's batch is overdue inside it.
    const untilMs = performance.now() + OVERDUE_MS + 5;
    while (performance.now() < untilMs) {
      // busy, as a long poll phase is
    }
    room.dispatch({ type: 'player_delay', playerId: 'bob', allowanceMs: 40 }); // any event of any room
    expect(stored()).toEqual(['ann']);
  });

  it('resumes a live session from storage with the question’s remaining time', async () => {
    const first = setup({ status: 'live' });
    await first.manager.start();
    await join(first.manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    await join(first.manager, { connectionId: 'p2', role: 'player', playerId: 'bob', name: 'Bob' });
    await first.clock.advance(3_000);
    first.manager.get(SESSION)!.dispatch({ type: 'submit_answer', connectionId: 'p1', playerId: 'ann', questionId: 'q1', selectedIndex: 2 });
    await first.manager.close(); // the server goes down mid-question; the answer was flushed on close

    const clock = new FakeClock(T0 + 5_000);
    const broadcaster = new RecordingBroadcaster();
    const manager = new RoomManager({ storage: first.storage, broadcaster, clock, log: silentLog });
    managers.push(manager);
    clock.settle = () => manager.whenIdle();
    await manager.start();
    const view = await join(manager, { connectionId: 'p1', role: 'player', playerId: 'ann', name: 'Ann' });
    expect(view).toMatchObject({ phase: 'question', endsAt: T0 + 10_000, timeRemaining: 5, answered: true, selectedIndex: 2 });
    await clock.advance(5_000);
    expect(broadcaster.sent.find((d) => d.to === 'player:ann')?.message).toMatchObject({ type: 'answer_result', isCorrect: false });
  });
});
