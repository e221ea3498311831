import { addPlayer } from '../../testing/players.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveSnapshot } from '../../game/engine/index.js';
import { type CommitBatch, DbRoomStorage, FencedError } from '../../game/rooms/index.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../testing/databases.js';
import { ObservedDriver } from '../../storage/observed-driver.js';
import { openStore, type Store } from '../../storage/store.js';
import { epochFence, takeEpoch } from './fence.js';

const T0 = Date.parse('2030-01-01T20:00:00.000Z');
const snapshot = (asking: number): LiveSnapshot => ({
  version: 1, itemIndex: 0, itemId: 'item', phase: 'reveal', phaseStartedAtMs: T0, phaseEndsAtMs: T0 + 5_000, asking, autoRotate: true, mediaItemCount: null,
});

describe.each(DIALECTS)('owner epoch fencing on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  async function liveGame() {
    const session = await store.sessions.create(
      { title: 'Fenced', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null },
      'draft',
    );
    await store.sessions.transition(session.id, ['draft'], 'live');
    const q = await store.questions.create({ text: `Q ${session.id}`, choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 100, timeLimitSeconds: 10, categories: [], mediaId: null });
    const ann = await addPlayer(store, 'Ann', `ann-${session.id}@example.com`, `hash-${session.id}`);
    return { sessionId: session.id, questionId: q.id, playerId: ann.id };
  }

  /** Two instances' views of the same session: each holds the epoch it took. */
  function instance() {
    const epochs = new Map<string, number>();
    const fenced: string[] = [];
    const storage = new DbRoomStorage(store, epochFence((id) => epochs.get(id), (id) => fenced.push(id)));
    return { epochs, fenced, storage };
  }

  it('a stale owner writes nothing: answers, scores and snapshot are refused once another took the epoch', async () => {
    const { sessionId, questionId, playerId } = await liveGame();
    const a = instance();
    const b = instance();
    a.epochs.set(sessionId, (await takeEpoch(store.db, sessionId))!);
    const answer = { sessionId, playerId, asking: 1, answer: { questionId, selectedIndex: 1, isCorrect: true, pointsEarned: 90, elapsedMs: 2000, answeredAtMs: T0 + 2000 } };

    await a.storage.commit({ sessionId, answers: [], scores: [], snapshot: { live: snapshot(1), currentQuestionIndex: 0 } });
    expect((await a.storage.loadSession(sessionId))!.live).toEqual(snapshot(1));

    // B takes the session over (A was paused): A's epoch is stale from now on.
    b.epochs.set(sessionId, (await takeEpoch(store.db, sessionId))!);
    expect(b.epochs.get(sessionId)).toBe(a.epochs.get(sessionId)! + 1);

    const step = { sessionId, scores: [{ playerId, pointsTotal: 90, reachedAtMs: T0 }], snapshot: { live: snapshot(2), currentQuestionIndex: 1 } };
    await expect(a.storage.commit({ ...step, answers: [answer] })).rejects.toBeInstanceOf(FencedError);
    await expect(a.storage.commit({ sessionId, answers: [answer], scores: [] })).rejects.toBeInstanceOf(FencedError);
    expect(a.fenced).toEqual([sessionId, sessionId]);
    expect(await a.storage.loadAnswers(sessionId, 1)).toEqual([]);
    expect(await a.storage.loadScores(sessionId)).toEqual([]);
    expect((await a.storage.loadSession(sessionId))!.live).toEqual(snapshot(1));

    // The new owner writes as usual.
    await b.storage.commit({ ...step, answers: [answer] });
    expect(await b.storage.loadAnswers(sessionId, 1)).toHaveLength(1);
    expect(await b.storage.loadScores(sessionId)).toMatchObject([{ playerId, pointsTotal: 90 }]);
    expect(b.fenced).toEqual([]);
  });

  it('an instance that never took the session cannot write it; a vanished session has no epoch', async () => {
    const { sessionId } = await liveGame();
    const stranger = instance();
    await expect(stranger.storage.commit({ sessionId, answers: [], scores: [], snapshot: { live: snapshot(1), currentQuestionIndex: 0 } })).rejects.toBeInstanceOf(FencedError);
    expect(await takeEpoch(store.db, 'no-such-session')).toBeUndefined();
  });

  /** Several live games with a fresh epoch each, held by `owner`, and an answer batch each. */
  async function ownedGames(owner: ReturnType<typeof instance>, n: number) {
    const games = [];
    for (let i = 0; i < n; i++) {
      const game = await liveGame();
      owner.epochs.set(game.sessionId, (await takeEpoch(store.db, game.sessionId))!);
      const answer = { questionId: game.questionId, selectedIndex: 1, isCorrect: true, pointsEarned: 90, elapsedMs: 2000, answeredAtMs: T0 + 2000 };
      // A question's close with everything a batch can carry: answers, scores, snapshot, asking, newcomer.
      const batch: CommitBatch = {
        sessionId: game.sessionId,
        answers: [{ sessionId: game.sessionId, playerId: game.playerId, asking: 1, answer }],
        scores: [{ playerId: game.playerId, pointsTotal: 90, reachedAtMs: T0 }],
        snapshot: { live: snapshot(1), currentQuestionIndex: 0 },
        askings: [{ asking: 1, questionId: game.questionId, askedAtMs: T0 }],
        joined: [game.playerId],
      };
      games.push({ ...game, batch });
    }
    return games;
  }

  it('a shared transaction checks every session with one query: its statements do not grow with its sessions', async () => {
    const a = instance();
    const statementsFor = async (n: number) => {
      const games = await ownedGames(a, n);
      const execute = vi.spyOn(ObservedDriver.prototype as unknown as { execute: () => Promise<unknown> }, 'execute');
      try {
        await a.storage.commitMany!(games.map((g) => g.batch));
        return execute.mock.calls.length;
      } finally {
        execute.mockRestore();
      }
    };
    const few = await statementsFor(2);
    const many = await statementsFor(20);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
  });

  it('a shared transaction stores every batch whole: answers, scores, snapshot, asking and roster', async () => {
    const a = instance();
    const games = await ownedGames(a, 3);
    await a.storage.commitMany!(games.map((g) => g.batch));
    for (const g of games) {
      expect(await a.storage.loadAnswers(g.sessionId, 1)).toMatchObject([{ playerId: g.playerId, pointsEarned: 90 }]);
      expect(await a.storage.loadScores(g.sessionId)).toMatchObject([{ playerId: g.playerId, pointsTotal: 90 }]);
      expect((await a.storage.loadSession(g.sessionId))!.live).toEqual({ ...snapshot(1), roster: [g.playerId] });
      expect(await store.db.selectFrom('question_askings').select('question_id').where('session_id', '=', g.sessionId).execute()).toEqual([{ question_id: g.questionId }]);
    }
  });

  it('a shared transaction never revives a session that finished meanwhile with its snapshot', async () => {
    const a = instance();
    const games = await ownedGames(a, 3);
    await store.sessions.transition(games[1].sessionId, ['live'], 'finished');
    await a.storage.commitMany!(games.map((g) => g.batch));
    expect(await store.sessions.getLiveState(games[1].sessionId)).toBeNull();
    expect(await store.sessions.getLiveState(games[0].sessionId)).not.toBeNull();
  });

  it('one stale session refuses the whole shared transaction, and names that session', async () => {
    const a = instance();
    const games = await ownedGames(a, 3);
    const stale = games[1].sessionId;
    await takeEpoch(store.db, stale); // another instance took it over
    await expect(a.storage.commitMany!(games.map((g) => g.batch))).rejects.toEqual(new FencedError(stale));
    expect(a.fenced).toEqual([stale]);
    for (const g of games) expect(await a.storage.loadAnswers(g.sessionId, 1)).toEqual([]);
    // Written alone, as SharedCommits then does, the others go through.
    await a.storage.commit(games[0].batch);
    expect(await a.storage.loadScores(games[0].sessionId)).toMatchObject([{ pointsTotal: 90 }]);
  });

  if (dialect === 'postgres') {
    it('a takeover waits for a write in flight, which commits under the old epoch or not at all', async () => {
      const { sessionId } = await liveGame();
      const a = instance();
      a.epochs.set(sessionId, (await takeEpoch(store.db, sessionId))!);
      // Hold A's write transaction open after its fence check, then take over concurrently.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let checked!: () => void;
      const fenceDone = new Promise<void>((r) => (checked = r));
      const write = store.db.transaction().execute(async (trx) => {
        await epochFence((id) => a.epochs.get(id), () => undefined)(trx, [sessionId]);
        checked();
        await held;
        await trx.updateTable('sessions').set({ current_question_index: 7 }).where('id', '=', sessionId).execute();
      });
      await fenceDone;
      let takenAt = 0;
      const takeover = takeEpoch(store.db, sessionId).then((epoch) => {
        takenAt = Date.now();
        return epoch;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(takenAt).toBe(0); // blocked on A's row lock
      release();
      await write;
      expect(await takeover).toBe(a.epochs.get(sessionId)! + 1);
      expect(await store.sessions.get(sessionId)).toMatchObject({ currentQuestionIndex: 7 });
    });
  }
});
