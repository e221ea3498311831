/**
 * A crash at any moment of a question: the resumed room must wait (DESIGN §8) for every player
 * who was connected when the process died, whether or not a roster refresh had been written yet.
 * Real SQLite and PostgreSQL; "the crash" is a first room simply abandoned (no dispose, no flush:
 * only what its group commits had stored is there), and a second room loads the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget } from '../engine/index.js';
import { RESUME_GRACE_MS } from '../engine/presence.js';
import { openStore, type Store } from '../../storage/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../testing/databases.js';
import type { Broadcaster, RoomLog } from './broadcaster.js';
import { DbRoomStorage } from './db-storage.js';
import { FakeClock } from './fake-clock.js';
import { Room } from './room.js';

const T0 = Date.parse('2030-01-01T20:00:00.000Z');
const PLAYERS = 6;

class Recorder implements Broadcaster {
  readonly sent: { to: string; message: ServerMessage }[] = [];
  toSession(_s: string, to: BroadcastTarget, message: ServerMessage): void {
    this.sent.push({ to, message });
  }
  toPlayer(_s: string, playerId: string, message: ServerMessage): void {
    this.sent.push({ to: playerId, message });
  }
  toConnection(_s: string, connectionId: string, message: ServerMessage): void {
    this.sent.push({ to: connectionId, message });
  }
  has(type: ServerMessage['type'], to?: string): boolean {
    return this.sent.some((d) => d.message.type === type && (to === undefined || d.to === to));
  }
}

const log: RoomLog = { error: () => undefined, warn: () => undefined, info: () => undefined };

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!done()) throw new Error(`timed out waiting until ${what}`);
}

describe.each(DIALECTS)('the resume roster after a crash on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let storage: DbRoomStorage;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    storage = new DbRoomStorage(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** A live session whose first item is a 30 s question, and registered players. */
  async function liveGame(title: string) {
    const session = await store.sessions.create(
      { title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null },
      'draft',
    );
    const q = await store.questions.create({ text: `${title}?`, choices: ['a', 'b', 'c', 'd'], correctIndex: 0, points: 100, timeLimitSeconds: 30, categories: ['x'], mediaId: null });
    await store.items.append(session.id, { item_type: 'question', question_id: q.id, slide_type: null, slide_data: null, media_item_count: null });
    const players = [];
    for (let i = 0; i < PLAYERS; i++) {
      const email = `${title.replace(/\W/g, '')}-${i}@example.com`;
      const outcome = await store.players.register({ sessionId: session.id, name: `P${i}`, email, tokenHash: `hash-${title}-${i}`, heldTokenHash: null, maxPlayers: 100 });
      if (outcome.kind !== 'created') throw new Error(`registration: ${outcome.kind}`);
      players.push(outcome.player);
    }
    await store.sessions.transition(session.id, ['draft'], 'live');
    return { sessionId: session.id, questionId: q.id, playerIds: players.map((p) => p.id) };
  }

  function newRoom(sessionId: string, clock: FakeClock, broadcaster: Broadcaster) {
    return new Room(sessionId, { storage, broadcaster, clock, log, commitWindowMs: 0, onUnused: () => undefined });
  }

  const joinAs = (room: Room, playerId: string, connectionId: string) =>
    room.connect({ connectionId, role: 'player', playerId, name: playerId }, () => undefined);

  /**
   * Every phone connected once the question was already open (they get it in their first state:
   * latecomers, or phones that reconnected), one of them answered, and the process dies before
   * the throttled roster refresh that would have listed the others.
   */
  it('waits for every phone connected at the crash, also those who came after the last roster write', async () => {
    const game = await liveGame('Crash');
    const clock = new FakeClock(T0);
    const first = new Recorder();
    const before = newRoom(game.sessionId, clock, first);
    await before.load(); // live without a snapshot: item 0 starts, its snapshot stored (nobody yet)
    await before.settled();
    const [answering, ...others] = game.playerIds;
    await joinAs(before, answering, 'c0');
    await before.settled(); // the first connect's roster refresh is stored; the next ones wait a second
    for (const [i, playerId] of others.entries()) await joinAs(before, playerId, `c${i + 1}`);
    before.dispatch({ type: 'submit_answer', connectionId: 'c0', playerId: answering, questionId: game.questionId, selectedIndex: 0 }, T0 + 500);
    await before.whenIdle();
    await until('the answer is confirmed', () => first.has('answer_accepted', answering));
    // The crash: `before` is abandoned here, its pending timers never run.

    const clock2 = new FakeClock(T0 + 1_500);
    const second = new Recorder();
    const after = newRoom(game.sessionId, clock2, second);
    clock2.settle = () => after.whenIdle();
    await after.load();
    const presence = after.engineState!.presence;
    expect([...presence.awaited.keyList()].sort()).toEqual([...game.playerIds].sort());
    // The phone that had answered comes back first: the others still count, the question stays open.
    await joinAs(after, answering, 'd0');
    await clock2.advance(3_000);
    expect(after.engineState!.phase.kind).toBe('question');
    expect(second.has('question_end')).toBe(false);
    // Each of them comes back and answers: the question closes on the last one, not before.
    for (const [i, playerId] of others.entries()) {
      await joinAs(after, playerId, `d${i + 1}`);
      after.dispatch({ type: 'submit_answer', connectionId: `d${i + 1}`, playerId, questionId: game.questionId, selectedIndex: 1 });
      await after.whenIdle();
      expect(after.engineState!.phase.kind, `after ${i + 1} of ${others.length}`).toBe(i === others.length - 1 ? 'reveal' : 'question');
    }
    expect(clock2.now()).toBeLessThan(T0 + 1_500 + RESUME_GRACE_MS);
    await after.dispose();
  });
});
