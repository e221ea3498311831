import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DbRoomStorage } from '../game/rooms/db-storage.js';
import type { CommitBatch } from '../game/rooms/storage.js';
import { addPlayer } from '../testing/players.js';
import { createTestDatabase, type TestDatabase } from '../testing/databases.js';
import { LiveWriter } from './live-writer.js';
import { SQLite } from './sqlite-driver.js';
import { openStore, type Store } from './store.js';

const T0 = Date.parse('2030-01-01T20:00:00.000Z');

/** Resolves after `ms` of the event loop's own time: only if the loop is free to run its timers. */
const loopTurn = (ms: number) => new Promise<'timer'>((resolve) => setTimeout(() => resolve('timer'), ms));

describe('the live writer thread (SQLite)', () => {
  let database: TestDatabase;
  let store: Store;
  let storage: DbRoomStorage;

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore({ dataDir: database.dataDir });
    storage = new DbRoomStorage(store);
  });
  afterEach(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The thread up: until it is, live commits go on the event loop's connection (a game's first must not wait for a start). */
  async function threadUp() {
    const writer = store.handle.liveWriter!;
    writer.warm();
    await expect.poll(() => writer.available).toBe(true);
  }

  async function liveGame() {
    const session = await store.sessions.create({ title: 'Live', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 2, returnMessage: null }, 'draft');
    await store.sessions.transition(session.id, ['draft'], 'live');
    const question = await store.questions.create({ text: 'Q', choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 100, timeLimitSeconds: 15, categories: ['x'], mediaId: null });
    const playerId = (await addPlayer(store, 'Ada', 'ada@example.com', 'token-hash', session.id)).id;
    const batch: CommitBatch = {
      sessionId: session.id,
      answers: [{ sessionId: session.id, playerId, asking: 1, answer: { questionId: question.id, selectedIndex: 1, isCorrect: true, pointsEarned: 90, elapsedMs: 400, answeredAtMs: T0 + 400 } }],
      scores: [{ playerId, pointsTotal: 90, reachedAtMs: T0 + 400 }],
    };
    return { sessionId: session.id, playerId, batch };
  }

  it('commits while another connection holds the write lock without stopping the event loop, and after it lets go', async () => {
    const { sessionId, playerId, batch } = await liveGame();
    await threadUp();
    // Another writer on the same file (an administrator's import, a slow disk's long commit).
    const other = new SQLite(path.join(database.dataDir, 'marquee.sqlite'));
    other.exec('begin immediate');
    try {
      const committing = storage.commitMany([batch]);
      // On the event loop's connection this commit waited synchronously for the lock: no timer ran.
      expect(await Promise.race([committing.then(() => 'committed'), loopTurn(50)])).toBe('timer');
      other.exec('commit');
      await committing;
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
    const scores = await store.scores.listScores(sessionId);
    expect(scores.map((s) => [s.playerId, s.pointsTotal])).toEqual([[playerId, 90]]);
    const answers = await store.scores.answersForAsking(sessionId, 1);
    expect(answers.map((a) => [a.playerId, a.pointsEarned])).toEqual([[playerId, 90]]);
  });

  it('lets a transaction of the event loop that read before a live commit write after it', async () => {
    const { sessionId, batch } = await liveGame();
    // The thread up, so it commits in the wait below.
    await threadUp();
    let committing: Promise<void> | undefined;
    await store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('sessions').select('title').where('id', '=', sessionId).executeTakeFirstOrThrow();
      committing = storage.commitMany([batch]);
      // Time for the thread to commit, had this transaction not taken the write lock at its start.
      await loopTurn(50);
      await trx.updateTable('sessions').set({ title: 'Renamed' }).where('id', '=', sessionId).execute();
    });
    await committing;
    expect((await store.sessions.get(sessionId))?.title).toBe('Renamed');
    expect(await store.scores.listScores(sessionId)).toHaveLength(1);
  });

  it('settles answers logged through the thread when the session reaches a quiet step', async () => {
    const { sessionId, playerId, batch } = await liveGame();
    await threadUp();
    await storage.commitMany([{ ...batch, scores: [] }]);
    // The reveal ends: the snapshot alone, which moves the logged answers into `answers`.
    await storage.commitMany([{ sessionId, answers: [], scores: [], snapshot: { live: null, currentQuestionIndex: 0 } }]);
    const sqlite = store.handle.sqlite!;
    expect(sqlite.prepare('select count(*) as n from answer_log where session_id = ?').get(sessionId)).toEqual({ n: 0 });
    expect(sqlite.prepare('select player_id from answers where session_id = ?').all(sessionId)).toEqual([{ player_id: playerId }]);
  });

  it('refuses a transaction whose row a foreign key rejects, writing none of it, and the room’s retry stores the rest', async () => {
    const { sessionId, playerId, batch } = await liveGame();
    const ghost = { ...batch.answers[0], playerId: 'no-such-player' };
    await threadUp();
    await expect(storage.commitMany([{ ...batch, answers: [...batch.answers, ghost] }])).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    expect(await store.scores.listScores(sessionId)).toEqual([]);
    // SharedCommits then writes the batch alone through `commit`, which leaves the dangling row out.
    await storage.commit({ ...batch, answers: [...batch.answers, ghost] });
    expect((await store.scores.answersForAsking(sessionId, 1)).map((a) => a.playerId)).toEqual([playerId]);
  });

  it('commits a game’s first transaction on the event loop’s connection while the thread starts, then on the thread', async () => {
    const { sessionId, playerId, batch } = await liveGame();
    const writer = store.handle.liveWriter!;
    expect(writer.available).toBe(false);
    await storage.commitMany([batch]);
    expect((await store.scores.answersForAsking(sessionId, 1)).map((a) => a.playerId)).toEqual([playerId]);
    // That first commit started the thread.
    await expect.poll(() => writer.available).toBe(true);
  });

  it('reports a thread that cannot open the database once, and refuses what is handed to it', async () => {
    const errors: unknown[] = [];
    const writer = new LiveWriter(path.join(database.dataDir, 'missing', 'none.sqlite'), (err) => errors.push(err));
    writer.warm();
    await expect.poll(() => errors.length).toBe(1);
    expect(writer.available).toBe(false);
    await expect(writer.write({ answers: [], plans: [] })).rejects.toThrow();
    expect(errors).toHaveLength(1);
    await writer.close();
  });
});
