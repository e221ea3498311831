import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../testing/databases.js';
import { openStore, type Store } from '../../storage/store.js';
import { DbRoomStorage } from './db-storage.js';
import { SharedCommits } from './shared-commits.js';
import { type CommitBatch, FencedError } from './storage.js';

const T0 = Date.parse('2030-01-01T20:00:00.000Z');

describe.each(DIALECTS)('commits shared across sessions on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  /** Sessions whose owner this instance is not (multi-instance fencing, simulated). */
  const fenced = new Set<string>();
  let storage: DbRoomStorage;
  let transactions: number;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    storage = new DbRoomStorage(store, async (_trx, sessionIds) => {
      const stale = sessionIds.find((id) => fenced.has(id));
      if (stale) throw new FencedError(stale);
    });
    // Count transactions: the shared one, and each batch written alone.
    const commitMany = storage.commitMany.bind(storage);
    const commit = storage.commit.bind(storage);
    transactions = 0;
    storage.commitMany = (batches, answers) => (transactions++, commitMany(batches, answers));
    storage.commit = (batch) => (transactions++, commit(batch));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** Live sessions with a player each, and an answer batch per session. */
  async function games(n: number, tag: string) {
    const q = await store.questions.create({ text: `Shared ${tag}?`, choices: ['a', 'b', 'c', 'd'], correctIndex: 1, points: 10, timeLimitSeconds: 20, categories: [], mediaId: null });
    const out: { sessionId: string; batch: CommitBatch }[] = [];
    for (let i = 0; i < n; i++) {
      const session = await store.sessions.create({ title: `${tag} ${i}`, auditoriumId: null, startsAt: null, autoRotate: false, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
      await store.sessions.transition(session.id, ['draft'], 'live');
      const registered = await store.players.register({ sessionId: session.id, name: `P${i}`, email: `${tag}-${i}@example.com`, tokenHash: `hash-${tag}-${i}`, heldTokenHash: null, maxPlayers: 10 });
      if (registered.kind !== 'created') throw new Error(`registration: ${registered.kind}`);
      const { player } = registered;
      const answer = { questionId: q.id, selectedIndex: 1, isCorrect: true, pointsEarned: 10, elapsedMs: 500, answeredAtMs: T0 + 500 };
      out.push({ sessionId: session.id, batch: { sessionId: session.id, answers: [{ sessionId: session.id, playerId: player.id, asking: 1, answer }], scores: [] } });
    }
    return out;
  }

  it('writes the batches of every session handed over in one turn in one transaction', async () => {
    const sessions = await games(5, 'turn');
    const shared = new SharedCommits(storage);
    transactions = 0;
    await Promise.all(sessions.map(({ batch }) => shared.commit(batch)));
    expect(transactions).toBe(1);
    for (const { sessionId } of sessions) expect(await storage.loadAnswers(sessionId, 1)).toHaveLength(1);
  });

  it('a session this instance no longer owns is refused on its own; the others are stored', async () => {
    const sessions = await games(3, 'fence');
    fenced.add(sessions[1].sessionId);
    const shared = new SharedCommits(storage);
    const outcomes = await Promise.allSettled(sessions.map(({ batch }) => shared.commit(batch)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(FencedError);
    expect(await storage.loadAnswers(sessions[0].sessionId, 1)).toHaveLength(1);
    expect(await storage.loadAnswers(sessions[1].sessionId, 1)).toEqual([]);
    expect(await storage.loadAnswers(sessions[2].sessionId, 1)).toHaveLength(1);
  });

  it('a player deleted mid-game spoils only the shared attempt: alone, each batch drops what points nowhere', async () => {
    const sessions = await games(2, 'gone');
    const ghost = { ...sessions[0].batch.answers[0], playerId: 'deleted-player' };
    const shared = new SharedCommits(storage);
    await Promise.all([shared.commit({ ...sessions[0].batch, answers: [...sessions[0].batch.answers, ghost] }), shared.commit(sessions[1].batch)]);
    expect(await storage.loadAnswers(sessions[0].sessionId, 1)).toHaveLength(1);
    expect(await storage.loadAnswers(sessions[1].sessionId, 1)).toHaveLength(1);
  });

  it('a commit soon after the previous one waits out the gap, and what is handed over meanwhile joins it', async () => {
    const sessions = await games(3, 'gap');
    const shared = new SharedCommits(storage, { minGapMs: 200 });
    transactions = 0;
    await shared.commit(sessions[0].batch); // after a quiet moment: at once
    const second = shared.commit(sessions[1].batch);
    await new Promise((resolve) => setTimeout(resolve, 20)); // turns later, well inside the gap
    const third = shared.commit(sessions[2].batch);
    await Promise.all([second, third]);
    expect(transactions).toBe(2);
    for (const { sessionId } of sessions) expect(await storage.loadAnswers(sessionId, 1)).toHaveLength(1);
  });

  it('batches handed over while a shared transaction is in flight share the next one', async () => {
    const sessions = await games(6, 'flight');
    const shared = new SharedCommits(storage);
    transactions = 0;
    const first = sessions.slice(0, 3).map(({ batch }) => shared.commit(batch));
    await new Promise((resolve) => setImmediate(resolve)); // the first transaction is under way
    const second = sessions.slice(3).map(({ batch }) => shared.commit(batch));
    await Promise.all([...first, ...second]);
    expect(transactions).toBe(2);
    for (const { sessionId } of sessions) expect(await storage.loadAnswers(sessionId, 1)).toHaveLength(1);
  });

  it('takes batches handed over without a promise into the same transaction, and tells each its own outcome', async () => {
    const sessions = await games(3, 'hand');
    fenced.add(sessions[2].sessionId);
    const shared = new SharedCommits(storage);
    transactions = 0;
    const outcomes = await Promise.all(
      sessions.map(({ batch }) => new Promise<[boolean, unknown]>((resolve) => shared.hand(batch, (failed, err) => resolve([failed, err])))),
    );
    expect(outcomes.map(([failed]) => failed)).toEqual([false, false, true]);
    expect(outcomes[2][1]).toBeInstanceOf(FencedError);
    // The shared attempt, spoiled by the fenced session, then each batch alone.
    expect(transactions).toBe(4);
    expect(await storage.loadAnswers(sessions[0].sessionId, 1)).toHaveLength(1);
    expect(await storage.loadAnswers(sessions[1].sessionId, 1)).toHaveLength(1);
    expect(await storage.loadAnswers(sessions[2].sessionId, 1)).toEqual([]);
  });
});
