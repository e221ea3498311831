import { addPlayer } from '../../testing/players.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSnapshot } from '../engine/index.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../testing/databases.js';
import { openStore, type Store } from '../../storage/store.js';
import { DbRoomStorage } from './db-storage.js';

const T0 = Date.parse('2030-01-01T20:00:00.000Z');

const snapshot: LiveSnapshot = {
  version: 1,
  itemIndex: 0,
  itemId: 'item',
  phase: 'reveal',
  phaseStartedAtMs: T0,
  phaseEndsAtMs: T0 + 5_000,
  asking: 1,
  autoRotate: false,
  mediaItemCount: null,
};

/** A wrong answer (no points) to asking 1, `elapsedMs` after T0. */
const wrongAnswer = (sessionId: string, playerId: string, questionId: string, selectedIndex: number, elapsedMs: number) => ({
  sessionId,
  playerId,
  asking: 1,
  answer: { questionId, selectedIndex, isCorrect: false, pointsEarned: 0, elapsedMs, answeredAtMs: T0 + elapsedMs },
});

describe.each(DIALECTS)('DbRoomStorage on %s', (dialect) => {
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

  async function liveSession(title: string) {
    const session = await store.sessions.create(
      { title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 2, returnMessage: null },
      'draft',
    );
    await store.sessions.transition(session.id, ['draft'], 'live');
    return session.id;
  }

  const question = (text: string, mediaId: string | null = null) =>
    store.questions.create({ text, choices: ['a', 'b', 'c', 'd'], correctIndex: 2, points: 50, timeLimitSeconds: 15, categories: ['x'], mediaId });

  it('loads the program in order, with full questions, their media and the session’s media', async () => {
    const sessionId = await liveSession('Program');
    const poster = await store.media.create({ filePath: '/media/poster', phoneFilePath: null, fileType: 'image', duration: 4, promotionalLink: null });
    const trailer = await store.media.create({ filePath: '/media/trailer', phoneFilePath: '/media/trailer-m', fileType: 'video', duration: 9, promotionalLink: 'https://example.com' });
    const q = await question('With a picture?', poster.id);
    await store.items.append(sessionId, { item_type: 'slide', question_id: null, slide_type: 'join', slide_data: JSON.stringify({ text: 'Scan!' }), media_item_count: null });
    await store.items.append(sessionId, { item_type: 'question', question_id: q.id, slide_type: null, slide_data: null, media_item_count: null });
    await store.items.append(sessionId, { item_type: 'media_block', question_id: null, slide_type: null, slide_data: null, media_item_count: 3 });
    await store.media.assign(sessionId, trailer.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.media.assign(sessionId, poster.id);

    const session = (await storage.loadSession(sessionId))!;
    expect(session).toMatchObject({ status: 'live', autoRotate: true, mediaItemsPerTransition: 2, live: null });
    const program = await storage.loadProgram(session);
    expect(program.items.map((i) => i.itemType)).toEqual(['slide', 'question', 'media_block']);
    expect(program.items[0]).toMatchObject({ slideType: 'join', slideData: { text: 'Scan!' } });
    expect(program.items[1]).toMatchObject({
      question: { id: q.id, correctIndex: 2, points: 50, timeLimitSeconds: 15, media: { id: poster.id, filePath: '/media/poster', duration: 4 } },
    });
    expect(program.items[2]).toMatchObject({ mediaItemCount: 3 });
    expect(program.media.map((m) => m.id)).toEqual([trailer.id, poster.id]);
    expect(program.media[0]).toEqual({
      id: trailer.id, filePath: '/media/trailer', phoneFilePath: '/media/trailer-m', fileType: 'video', duration: 9, promotionalLink: 'https://example.com',
    });
  });

  it('stores answers once per asking, dropping rows whose player is gone, and reads them back with names', async () => {
    const sessionId = await liveSession('Answers');
    const q = await question('Gone?');
    const ann = await addPlayer(store, 'Ann', 'ann@example.com', 'hash-ann');
    const answer = (playerId: string, selectedIndex: number) => ({
      sessionId,
      playerId,
      asking: 1,
      answer: { questionId: q.id, selectedIndex, isCorrect: selectedIndex === 2, pointsEarned: selectedIndex === 2 ? 40 : 0, elapsedMs: 1234, answeredAtMs: T0 + 1234 },
    });
    await storage.commit({ sessionId, answers: [answer(ann.id, 2), answer('deleted-player', 1)], scores: [] });
    await storage.commit({ sessionId, answers: [answer(ann.id, 0)], scores: [] }); // a retried or duplicate write keeps the first
    expect(await storage.loadAnswers(sessionId, 1)).toEqual([
      { playerId: ann.id, name: 'Ann', asking: 1, questionId: q.id, selectedIndex: 2, isCorrect: true, pointsEarned: 40, elapsedMs: 1234, answeredAtMs: T0 + 1234 },
    ]);
    expect(await storage.loadAnswers(sessionId, 2)).toEqual([]);
  });

  it('stores nothing of a batch that fails: answers, scores and snapshot are one transaction', async () => {
    const sessionId = await liveSession('All or nothing');
    const q = await question('Atomic?');
    const ann = await addPlayer(store, 'Ann', 'ann-atomic@example.com', 'hash-ann-atomic');
    const bob = await addPlayer(store, 'Bob', 'bob-atomic@example.com', 'hash-bob-atomic');
    const answer = (playerId: string, selectedIndex: number) => wrongAnswer(sessionId, playerId, q.id, selectedIndex, 1000);
    // Bob's row breaks a CHECK constraint (not a vanished row, so no filtered retry): Ann's row and
    // the scores written before it in the same transaction must not stay behind.
    await expect(
      storage.commit({ sessionId, answers: [answer(ann.id, 1), answer(bob.id, 7)], scores: [{ playerId: ann.id, pointsTotal: 10, reachedAtMs: T0 }], snapshot: { live: snapshot, currentQuestionIndex: 4 } }),
    ).rejects.toThrow();
    expect(await storage.loadAnswers(sessionId, 1)).toEqual([]);
    expect(await storage.loadScores(sessionId)).toEqual([]);
    expect((await storage.loadSession(sessionId))?.live).toBeNull();
  });

  it('commits answers, scores, snapshot (with its roster) and auto-play together; never revives a stopped session', async () => {
    const sessionId = await liveSession('Commit');
    const bob = await addPlayer(store, 'Bob', 'bob@example.com', 'hash-bob');
    const q = await question('Together?');
    const answer = { questionId: q.id, selectedIndex: 1, isCorrect: true, pointsEarned: 70, elapsedMs: 3000, answeredAtMs: T0 };
    await storage.commit({
      sessionId,
      answers: [{ sessionId, playerId: bob.id, asking: 1, answer }],
      scores: [{ playerId: bob.id, pointsTotal: 70, reachedAtMs: T0 }, { playerId: 'deleted-player', pointsTotal: 5, reachedAtMs: T0 }],
      snapshot: { live: { ...snapshot, roster: [bob.id, 'gone'] }, currentQuestionIndex: 2 },
      autoRotate: false,
    });
    expect(await storage.loadScores(sessionId)).toEqual([{ playerId: bob.id, name: 'Bob', pointsTotal: 70, reachedAtMs: T0 }]);
    expect(await storage.loadAnswers(sessionId, 1)).toEqual([{ playerId: bob.id, name: 'Bob', asking: 1, ...answer }]);
    expect((await storage.loadSession(sessionId))!.live).toEqual({ ...snapshot, roster: [bob.id, 'gone'] });
    expect(await store.sessions.get(sessionId)).toMatchObject({ autoRotate: false, currentQuestionIndex: 2 });

    // Stopped meanwhile: a late snapshot is not written over the finished session.
    await store.sessions.transition(sessionId, ['live'], 'finished');
    await storage.commit({ sessionId, answers: [], scores: [], snapshot: { live: { ...snapshot, asking: 9 }, currentQuestionIndex: 3 } });
    expect(await store.sessions.getLiveState(sessionId)).toBeNull();
    // The runner's own final write (nothing to resume) still records the position.
    await storage.commit({ sessionId, answers: [], scores: [], snapshot: { live: null, currentQuestionIndex: 1 } });
    expect(await store.sessions.get(sessionId)).toMatchObject({ status: 'finished', currentQuestionIndex: 1 });
    expect(await storage.listLiveSessionIds()).not.toContain(sessionId);
  });

  it('writes a close’s scores in player order, whatever order the engine handed them in', async () => {
    const sessionId = await liveSession('Key order');
    const players = await Promise.all(Array.from({ length: 12 }, (_, i) => addPlayer(store, `P${i}`, `p${i}-order@example.com`, `hash-order-${i}`)));
    // The engine walks its answers in its map's order (pmap.ts), which is no order of the ids.
    const handed = [...players].sort((a, b) => (a.id < b.id ? 1 : -1)).map((p, i) => ({ playerId: p.id, pointsTotal: i * 10, reachedAtMs: T0 + i }));
    const written: string[][] = [];
    const scores = store.scores;
    const spies = { now: scores.upsertScoresNow, many: scores.upsertManyScores };
    scores.upsertScoresNow = (sessions) => {
      written.push(sessions.flatMap((s) => s.scores.map((row) => row.playerId)));
      spies.now.call(scores, sessions);
    };
    scores.upsertManyScores = async (db, sessions) => {
      written.push(sessions.flatMap((s) => s.scores.map((row) => row.playerId)));
      await spies.many.call(scores, db, sessions);
    };
    try {
      await storage.commit({ sessionId, answers: [], scores: handed, snapshot: { live: snapshot, currentQuestionIndex: 0 } });
    } finally {
      Object.assign(scores, { upsertScoresNow: spies.now, upsertManyScores: spies.many });
    }
    // In key order each page of the scores' key is written once (a first close of a full house inserts 10,000 rows).
    expect(written).toEqual([players.map((p) => p.id).sort()]);
    const stored = await storage.loadScores(sessionId);
    expect(stored).toHaveLength(12);
    expect(Object.fromEntries(stored.map((row) => [row.playerId, row.pointsTotal]))).toEqual(Object.fromEntries(handed.map((row) => [row.playerId, row.pointsTotal])));
  });

  it('keeps an open question’s answers readable everywhere, and settles them into answers at the next quiet step', async () => {
    const sessionId = await liveSession('Answer log');
    const q = await question('Logged?');
    const cleo = await addPlayer(store, 'Cleo', 'cleo@example.com', 'hash-cleo');
    const dev = await addPlayer(store, 'Dev', 'dev@example.com', 'hash-dev');
    const answer = (playerId: string, selectedIndex: number, atMs: number) => ({
      sessionId,
      playerId,
      asking: 1,
      answer: { questionId: q.id, selectedIndex, isCorrect: selectedIndex === 2, pointsEarned: selectedIndex === 2 ? 40 : 0, elapsedMs: atMs - T0, answeredAtMs: atMs },
    });
    const inAnswersTable = async () =>
      (await store.db.selectFrom('answers').select(['player_id', 'selected_index']).where('session_id', '=', sessionId).orderBy('player_id').execute()).map((r) => [r.player_id, r.selected_index]);
    // Answers arriving during the question (each batch its own commit); Dev's second one is a duplicate.
    await storage.commit({ sessionId, answers: [answer(cleo.id, 2, T0 + 900)], scores: [] });
    await storage.commit({ sessionId, answers: [answer(dev.id, 1, T0 + 1200)], scores: [] });
    await storage.commit({ sessionId, answers: [answer(dev.id, 3, T0 + 500)], scores: [] });
    const expected = [
      { playerId: cleo.id, name: 'Cleo', asking: 1, questionId: q.id, selectedIndex: 2, isCorrect: true, pointsEarned: 40, elapsedMs: 900, answeredAtMs: T0 + 900 },
      { playerId: dev.id, name: 'Dev', asking: 1, questionId: q.id, selectedIndex: 1, isCorrect: false, pointsEarned: 0, elapsedMs: 1200, answeredAtMs: T0 + 1200 },
    ];
    const byPlayer = (rows: { playerId: string }[]) => [...rows].sort((a, b) => a.playerId.localeCompare(b.playerId));
    // On SQLite they wait in the log: `answers` is written only at the next step of the game.
    if (dialect === 'sqlite') expect(await inAnswersTable()).toEqual([]);
    // A resume (a crash with the question open) reads them: the first answer per player counts.
    expect(byPlayer(await storage.loadAnswers(sessionId, 1))).toEqual(byPlayer(expected));
    // A resume reading while results settle the log at the same moment still sees every answer.
    const [duringSettle] = await Promise.all([storage.loadAnswers(sessionId, 1), store.results.answerCounts(sessionId)]);
    expect(byPlayer(duringSettle)).toEqual(byPlayer(expected));
    // Settled by that read of the results; the answers now read from `answers`.
    expect(await inAnswersTable()).toEqual([[cleo.id, 2], [dev.id, 1]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    await storage.commit({ sessionId, answers: [answer(dev.id, 0, T0 + 1300)], scores: [] }); // a late duplicate: logged, not counted
    // Results read them too (they settle the log first), with the open question counted.
    expect(await store.results.answerCounts(sessionId)).toEqual(new Map([[cleo.id, { answered: 1, correct: 1 }], [dev.id, { answered: 1, correct: 0 }]]));

    // The close (scores and snapshot) leaves the log alone: its results go out after this commit.
    const logged = async () => (await store.db.selectFrom('answer_log').select('player_id').where('session_id', '=', sessionId).execute()).length;
    await storage.commit({ sessionId, answers: [answer(cleo.id, 0, T0 + 100)], scores: [{ playerId: cleo.id, pointsTotal: 40, reachedAtMs: T0 + 900 }], snapshot: { live: snapshot, currentQuestionIndex: 0 } });
    if (dialect === 'sqlite') expect(await logged()).toBe(1); // Cleo's late duplicate
    // A question's start (an asking) leaves it too.
    await storage.commit({ sessionId, answers: [], scores: [], askings: [{ asking: 2, questionId: q.id, askedAtMs: T0 + 9000 }], snapshot: { live: snapshot, currentQuestionIndex: 0 } });
    if (dialect === 'sqlite') expect(await logged()).toBe(1);
    // The next quiet step (the reveal ending): everything is in `answers`, the first answer per player kept.
    await storage.commit({ sessionId, answers: [], scores: [], snapshot: { live: snapshot, currentQuestionIndex: 0 } });
    expect(await inAnswersTable()).toEqual([[cleo.id, 2], [dev.id, 1]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(await logged()).toBe(0);
    expect(byPlayer(await storage.loadAnswers(sessionId, 1))).toEqual(byPlayer(expected));

    // A restart of the session clears both.
    await storage.commit({ sessionId, answers: [answer(dev.id, 2, T0 + 50)], scores: [] });
    await store.db.transaction().execute((trx) => store.scores.clearSession(trx, sessionId));
    expect(await storage.loadAnswers(sessionId, 1)).toEqual([]);
  });

  it('never writes a live commit into another transaction that holds the connection: that one rolling back keeps it', async () => {
    const sessionId = await liveSession('Not joined');
    const q = await question('Apart?');
    const fay = await addPlayer(store, 'Fay', 'fay-apart@example.com', 'hash-fay-apart');
    const another = await liveSession('Not joined either');
    let opened!: () => void;
    const begun = new Promise<void>((resolve) => (opened = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // An admin's transaction, open across an await (on SQLite it holds the one connection).
    const other = store.db.transaction().execute(async (trx) => {
      await trx.updateTable('sessions').set({ title: 'Renamed' }).where('id', '=', sessionId).execute();
      opened();
      await gate;
      throw new Error('the admin changed their mind');
    });
    await begun;
    const committed = storage.commitMany([
      { sessionId, answers: [{ sessionId, playerId: fay.id, asking: 1, answer: { questionId: q.id, selectedIndex: 2, isCorrect: true, pointsEarned: 30, elapsedMs: 800, answeredAtMs: T0 + 800 } }], scores: [] },
      { sessionId: another, answers: [], scores: [], snapshot: { live: snapshot, currentQuestionIndex: 2 } },
    ]);
    release();
    await expect(other).rejects.toThrow('the admin changed their mind');
    await committed;
    expect((await store.sessions.get(sessionId))?.title).toBe('Not joined');
    expect((await storage.loadAnswers(sessionId, 1)).map((a) => [a.name, a.selectedIndex])).toEqual([['Fay', 2]]);
    expect((await storage.loadSession(another))?.currentQuestionIndex).toBe(2);
  });

  it('loses no answer to a settle that failed while another commit landed between its rollback and its end', async () => {
    const [failing, other] = [await liveSession('Settle fails'), await liveSession('Commits meanwhile')];
    const q = await question('Kept?');
    const gil = await addPlayer(store, 'Gil', 'gil-kept@example.com', 'hash-gil-kept');
    const answer = (sessionId: string, selectedIndex: number) => wrongAnswer(sessionId, gil.id, q.id, selectedIndex, 600);
    await storage.commit({ sessionId: failing, answers: [answer(failing, 1)], scores: [] });
    let landed: Promise<void> | undefined;
    // At every microtask until the failing transaction has let go of the connection, then once:
    // another session's commit, before that transaction's own code has run again.
    const commitOnceFree = () => {
      if (dialect === 'sqlite' && store.handle.sqlite!.inTransaction) queueMicrotask(commitOnceFree);
      else landed = storage.commit({ sessionId: other, answers: [answer(other, 3)], scores: [] });
    };
    await expect(
      store.scores.transaction(async (trx) => {
        await store.scores.settleAnswers(trx, failing);
        queueMicrotask(commitOnceFree);
        throw new Error('the settle failed');
      }),
    ).rejects.toThrow('the settle failed');
    await landed;
    expect((await storage.loadAnswers(failing, 1)).map((a) => [a.name, a.selectedIndex])).toEqual([['Gil', 1]]);
    expect((await storage.loadAnswers(other, 1)).map((a) => [a.name, a.selectedIndex])).toEqual([['Gil', 3]]);
  });

  it('writes many sessions’ answers and scores of one shared commit each to its own session', async () => {
    const sessions = [await liveSession('Shared A'), await liveSession('Shared B'), await liveSession('Shared C')];
    const q = await question('Shared?');
    const players = [await addPlayer(store, 'Fay', 'fay-shared@example.com', 'h1'), await addPlayer(store, 'Gus', 'gus-shared@example.com', 'h2')];
    // 45 + 30 + 1 answers (one player, one asking each; the index picked tells them apart):
    // more rows than one statement takes, and counts that are no power of two.
    const counts = [45, 30, 1];
    const batches = sessions.map((sessionId, s) => ({
      sessionId,
      answers: Array.from({ length: counts[s] }, (_, i) => ({ ...wrongAnswer(sessionId, players[0].id, q.id, (s + i) % 4, 100 + i), asking: i + 1 })),
      // The first session's step is a quiet one (no scores): its answers, logged in this very
      // commit, settle. The others close a question: their scores, several rows a statement.
      ...(s === 0
        ? { scores: [], snapshot: { live: snapshot, currentQuestionIndex: 0 } }
        : { scores: players.map((p, i) => ({ playerId: p.id, pointsTotal: 100 * s + 10 * i, reachedAtMs: T0 + s })) }),
    }));
    await storage.commitMany(batches);

    const rows = async (table: 'answers' | 'answer_log', sessionId: string) =>
      (await store.db.selectFrom(table).select(['asking', 'selected_index']).where('session_id', '=', sessionId).orderBy('asking').execute()).map(
        (r) => [r.asking, r.selected_index],
      );
    const expected = (s: number) => Array.from({ length: counts[s] }, (_, i) => [i + 1, (s + i) % 4]);
    expect(await rows('answers', sessions[0])).toEqual(expected(0));
    expect(await storage.loadAnswers(sessions[1], 30)).toEqual([expect.objectContaining({ selectedIndex: (1 + 29) % 4, playerId: players[0].id })]);
    if (dialect === 'sqlite') {
      expect(await rows('answer_log', sessions[0])).toEqual([]);
      expect(await rows('answer_log', sessions[2])).toEqual(expected(2));
    }
    expect(await storage.loadScores(sessions[0])).toEqual([]);
    for (const s of [1, 2]) {
      expect((await storage.loadScores(sessions[s])).map((r) => [r.playerId, r.pointsTotal])).toEqual(
        players.map((p, i) => [p.id, 100 * s + 10 * i]).reverse(), // highest first
      );
    }
    // Every logged row was settled or kept under its own session: the next quiet steps leave no log.
    await storage.commitMany(sessions.slice(1).map((sessionId) => ({ sessionId, answers: [], scores: [], snapshot: { live: snapshot, currentQuestionIndex: 0 } })));
    expect(await rows('answers', sessions[1])).toEqual(expected(1));
    expect(await rows('answers', sessions[2])).toEqual(expected(2));
    if (dialect === 'sqlite') expect(await store.db.selectFrom('answer_log').select('rowid' as never).where('session_id', 'in', sessions).execute()).toEqual([]);
  });

  it('writes the instance’s listed answers of many sessions ahead of the batches; a fenced storage takes none', async () => {
    const [first, second] = [await liveSession('Listed A'), await liveSession('Listed B')];
    const q = await question('Listed?');
    const fay = await addPlayer(store, 'Fay', 'fay-listed@example.com', 'hash-fay-listed');
    const listed = [wrongAnswer(first, fay.id, q.id, 1, 500), wrongAnswer(second, fay.id, q.id, 2, 500)];
    await storage.commitMany(
      [
        // The first session's quiet step, with a later answer of the same player to the same asking:
        // the listed one came first and is the one kept; the step settles it.
        { sessionId: first, answers: [wrongAnswer(first, fay.id, q.id, 3, 900)], scores: [], snapshot: { live: snapshot, currentQuestionIndex: 0 } },
        { sessionId: second, answers: [], scores: [{ playerId: fay.id, pointsTotal: 0, reachedAtMs: T0 }] },
      ],
      listed,
    );
    const table = async (name: 'answers' | 'answer_log', sessionId: string) =>
      (await store.db.selectFrom(name).select('selected_index').where('session_id', '=', sessionId).execute()).map((r) => r.selected_index);
    expect(await table('answers', first)).toEqual([1]);
    // On SQLite the second session's answer waits in the log for its next quiet step (a read settles it).
    if (dialect === 'sqlite') expect([await table('answer_log', first), await table('answer_log', second)]).toEqual([[], [2]]);
    expect((await storage.loadAnswers(second, 1)).map((a) => [a.name, a.selectedIndex])).toEqual([['Fay', 2]]);
    expect((await storage.loadScores(second)).map((r) => r.playerId)).toEqual([fay.id]);

    const fenced = new DbRoomStorage(store, async () => {});
    expect([storage.fenced, fenced.fenced]).toEqual([false, true]);
    await expect(fenced.commitMany([], [wrongAnswer(second, fay.id, q.id, 0, 100)])).rejects.toThrow('cannot be fenced');
    expect(await table('answers', second)).toEqual([2]);
  });

  it('settles only the session’s own answers; a settle whose transaction failed is done at the next quiet step; a new process settles what an earlier one left', async () => {
    const [first, second] = [await liveSession('Own rows A'), await liveSession('Own rows B')].sort();
    const q = await question('Whose?');
    const eve = await addPlayer(store, 'Eve', 'eve-own@example.com', 'hash-eve-own');
    const answer = (sessionId: string, selectedIndex: number) => wrongAnswer(sessionId, eve.id, q.id, selectedIndex, 700);
    const table = async (name: 'answers' | 'answer_log', sessionId: string) =>
      (await store.db.selectFrom(name).select('selected_index').where('session_id', '=', sessionId).execute()).map((r) => r.selected_index);
    await storage.commit({ sessionId: first, answers: [answer(first, 1)], scores: [] });
    await storage.commit({ sessionId: second, answers: [answer(second, 3)], scores: [] });
    const quiet = (sessionId: string) => ({ sessionId, answers: [], scores: [], snapshot: { live: snapshot, currentQuestionIndex: 0 } });

    // One transaction: the first session's quiet step settles, then the second's batch breaks a CHECK.
    await expect(storage.commitMany([quiet(first), { ...quiet(second), answers: [{ ...answer(second, 9), playerId: eve.id }] }])).rejects.toThrow();
    if (dialect === 'sqlite') expect(await table('answer_log', first)).toEqual([1]); // rolled back with it
    await storage.commit(quiet(first));
    expect(await table('answers', first)).toEqual([1]);
    if (dialect === 'sqlite') {
      expect(await table('answer_log', first)).toEqual([]);
      expect(await table('answer_log', second)).toEqual([3]); // another session's row stays logged
      expect(await table('answers', second)).toEqual([]);
    }

    // The second session's answer is left in the log (as by a crash): the next process settles it on opening.
    const next = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    try {
      expect(await table('answers', second)).toEqual([3]);
      expect(await table('answer_log', second)).toEqual([]);
    } finally {
      await next.close();
    }
  });
});
