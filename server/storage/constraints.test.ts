import { addPlayer } from '../testing/players.js';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../testing/databases.js';
import { useTestStore } from '../testing/hooks.js';
import type { Store } from './store.js';
import { isConstraintError, newId, nowIso } from './util.js';

/**
 * The invariants the schema itself keeps (not only the code): unique positions, one answer per
 * asking, cascades and checks. Each is tried straight on the tables, on both databases.
 */
describe.each(DIALECTS)('storage constraints on %s', (dialect) => {
  let store: Store;

  useTestStore(dialect, (s) => {
    store = s;
  });

  const refused = async (work: Promise<unknown>) => {
    const err = await work.then(() => undefined, (e: unknown) => e);
    expect(err, 'expected the database to refuse').toBeDefined();
    expect(isConstraintError(err), String(err)).toBe(true);
  };
  const newSession = (title = 'S') =>
    store.sessions.create({ title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
  const newQuestion = (text = 'Q?') =>
    store.questions.create({ text, choices: ['a', 'b', 'c', 'd'], correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: [], mediaId: null });
  const newPlayer = (email: string) => addPlayer(store, 'P', email, `hash-${newId()}`);
  const item = (sessionId: string, orderIndex: number, extra: Record<string, unknown> = {}) =>
    store.db
      .insertInto('session_items')
      .values({
        id: newId(), session_id: sessionId, order_index: orderIndex, item_type: 'slide', question_id: null, slide_type: 'intro',
        slide_data: null, media_item_count: null, ...extra,
      })
      .execute();
  const answer = (sessionId: string, playerId: string, questionId: string, asking: number, selectedIndex = 0) => ({
    sessionId, playerId, questionId, asking, selectedIndex, isCorrect: selectedIndex === 0, pointsEarned: selectedIndex === 0 ? 9 : 0,
    elapsedMs: 500, answeredAt: nowIso(),
  });
  const rawAnswer = (a: ReturnType<typeof answer>) =>
    store.db
      .insertInto('answers')
      .values({
        session_id: a.sessionId, player_id: a.playerId, question_id: a.questionId, asking: a.asking, selected_index: a.selectedIndex,
        is_correct: a.isCorrect ? 1 : 0, points_earned: a.pointsEarned, elapsed_ms: a.elapsedMs, answered_at: a.answeredAt,
      })
      .execute();
  const count = async (table: 'answers' | 'scores' | 'session_items' | 'session_media' | 'player_tokens', column: 'session_id' | 'player_id', id: string) =>
    (await store.db.selectFrom(table).select(column).where(column, '=', id).execute()).length;
  async function newMedia(): Promise<string> {
    const id = newId();
    await store.db
      .insertInto('media')
      .values({ id, file_path: `/media/${id}`, phone_file_path: null, file_type: 'video', duration: 5, promotional_link: null, created_at: nowIso() })
      .execute();
    return id;
  }

  it('refuses a second answer from a player for the same asking, and saveAnswers keeps the first', async () => {
    const session = await newSession();
    const question = await newQuestion();
    const player = await newPlayer('one-answer@example.com');
    await rawAnswer(answer(session.id, player.id, question.id, 0, 0));
    await refused(rawAnswer(answer(session.id, player.id, question.id, 0, 2)));

    // The same question asked again in the next loop is a new asking.
    await rawAnswer(answer(session.id, player.id, question.id, 1, 1));
    await store.scores.saveAnswers([answer(session.id, player.id, question.id, 1, 3), answer(session.id, player.id, question.id, 2, 3)]);
    const byAsking = async (asking: number) => (await store.scores.answersForAsking(session.id, asking)).map((a) => a.selectedIndex);
    expect(await byAsking(0)).toEqual([0]);
    expect(await byAsking(1)).toEqual([1]);
    expect(await byAsking(2)).toEqual([3]);
  });

  it('keeps item positions unique within a session, not across sessions', async () => {
    const s1 = await newSession();
    const s2 = await newSession();
    await item(s1.id, 0);
    await refused(item(s1.id, 0, { slide_type: 'rules' }));
    await item(s2.id, 0);
    expect(await count('session_items', 'session_id', s1.id)).toBe(1);
  });

  it('holds a question at most once per session, and checks item kinds', async () => {
    const session = await newSession();
    const question = await newQuestion();
    await item(session.id, 0, { item_type: 'question', question_id: question.id, slide_type: null });
    await refused(item(session.id, 1, { item_type: 'question', question_id: question.id, slide_type: null }));
    await refused(item(session.id, 2, { item_type: 'question', question_id: null, slide_type: null }));
    await refused(item(session.id, 3, { slide_type: 'credits' }));
    await refused(item(session.id, 4, { item_type: 'media_block', slide_type: null, media_item_count: 21 }));
    await refused(item(session.id, 5, { item_type: 'media_block', slide_type: null, media_item_count: 0 }));
    await refused(item(session.id, 6, { item_type: 'poll' }));
    await refused(item(session.id, 7, { item_type: 'question', question_id: 'no-such-question', slide_type: null }));
    await item(session.id, 8, { item_type: 'media_block', slide_type: null, media_item_count: 20 });
    expect(await count('session_items', 'session_id', session.id)).toBe(2);
  });

  it('deletes a player with their answers, scores and tokens', async () => {
    const session = await newSession();
    const question = await newQuestion();
    const gone = await newPlayer('gone@example.com');
    const stays = await newPlayer('stays@example.com');
    await store.scores.saveAnswers([answer(session.id, gone.id, question.id, 0), answer(session.id, stays.id, question.id, 0)]);
    await store.scores.saveScores(session.id, [
      { playerId: gone.id, pointsTotal: 9, reachedAt: nowIso() },
      { playerId: stays.id, pointsTotal: 9, reachedAt: nowIso() },
    ]);
    expect(await store.players.delete(gone.id)).toBe(true);
    for (const table of ['answers', 'scores', 'player_tokens'] as const) {
      expect(await count(table, 'player_id', gone.id), table).toBe(0);
      expect(await count(table, 'player_id', stays.id), table).toBe(1);
    }
    expect(await store.players.delete(gone.id)).toBe(false);
  });

  it("deletes a session's player with their answers there, leaving the session's other answers", async () => {
    const session = await newSession();
    const other = await newSession('Other');
    const question = await newQuestion();
    const gone = await addPlayer(store, 'P', 'gone@example.com', `hash-${newId()}`, session.id);
    const stays = await addPlayer(store, 'P', 'stays@example.com', `hash-${newId()}`, session.id);
    const elsewhere = await addPlayer(store, 'P', 'gone@example.com', `hash-${newId()}`, other.id);
    await store.scores.saveAnswers([
      answer(session.id, gone.id, question.id, 0),
      answer(session.id, gone.id, question.id, 1),
      answer(session.id, stays.id, question.id, 0),
      answer(other.id, elsewhere.id, question.id, 0),
    ]);
    expect(await store.players.delete(gone.id)).toBe(true);
    expect(await count('answers', 'player_id', gone.id)).toBe(0);
    expect(await count('answers', 'session_id', session.id)).toBe(1);
    expect(await count('answers', 'session_id', other.id)).toBe(1);
    expect(await store.players.get(gone.id)).toBeUndefined();
  });

  it('deletes a question with its session items and answers', async () => {
    const session = await newSession();
    const question = await newQuestion();
    const other = await newQuestion('Other?');
    const player = await newPlayer('q-cascade@example.com');
    await item(session.id, 0, { item_type: 'question', question_id: question.id, slide_type: null });
    await item(session.id, 1, { item_type: 'question', question_id: other.id, slide_type: null });
    await store.scores.saveAnswers([answer(session.id, player.id, question.id, 0), answer(session.id, player.id, other.id, 1)]);
    expect(await store.questions.delete(question.id)).toBe(true);
    expect((await store.items.list(session.id)).map((i) => i.questionId)).toEqual([other.id]);
    expect((await store.scores.answersForAsking(session.id, 0))).toEqual([]);
    expect((await store.scores.answersForAsking(session.id, 1))).toHaveLength(1);
  });

  it('deletes a session with its items, media assignments, answers and scores, keeping shared rows', async () => {
    const session = await newSession();
    const question = await newQuestion();
    const player = await newPlayer('s-cascade@example.com');
    const media = await newMedia();
    await item(session.id, 0, { item_type: 'question', question_id: question.id, slide_type: null });
    await store.db.insertInto('session_media').values({ session_id: session.id, media_id: media, created_at: nowIso() }).execute();
    await store.scores.saveAnswers([answer(session.id, player.id, question.id, 0)]);
    await store.scores.saveScores(session.id, [{ playerId: player.id, pointsTotal: 9, reachedAt: nowIso() }]);
    expect(await store.sessions.delete(session.id)).toBe(true);
    for (const table of ['answers', 'scores', 'session_items', 'session_media'] as const) {
      expect(await count(table, 'session_id', session.id), table).toBe(0);
    }
    expect(await store.questions.get(question.id)).toBeDefined();
    expect(await store.players.get(player.id)).toBeDefined();
  });

  it('unlinks deleted media from sessions and questions; a deleted auditorium leaves its sessions', async () => {
    const media = await newMedia();
    const session = await newSession();
    await store.db.insertInto('session_media').values({ session_id: session.id, media_id: media, created_at: nowIso() }).execute();
    const question = await store.questions.create({
      text: 'With media?', choices: ['a', 'b', 'c', 'd'], correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: [], mediaId: media,
    });
    await store.db.deleteFrom('media').where('id', '=', media).execute();
    expect(await count('session_media', 'session_id', session.id)).toBe(0);
    expect((await store.questions.get(question.id))?.mediaId).toBeNull();

    const auditorium = await store.auditoriums.create('Screen 9');
    const inRoom = await store.sessions.create(
      { title: 'In room', auditoriumId: auditorium.id, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null },
      'draft',
    );
    await store.db.deleteFrom('auditoriums').where('id', '=', auditorium.id).execute();
    expect((await store.sessions.get(inRoom.id))?.auditoriumId).toBeNull();
  });

  it('checks values: status, media per transition, question bounds, media duration, one email per player', async () => {
    const session = await newSession();
    await refused(store.db.updateTable('sessions').set({ status: 'paused' as 'live' }).where('id', '=', session.id).execute());
    await refused(store.db.updateTable('sessions').set({ media_items_per_transition: 11 }).where('id', '=', session.id).execute());
    await refused(store.db.updateTable('sessions').set({ media_items_per_transition: 0 }).where('id', '=', session.id).execute());
    const question = await newQuestion();
    await refused(store.db.updateTable('questions').set({ correct_index: 4 }).where('id', '=', question.id).execute());
    await refused(store.db.updateTable('questions').set({ points: 0 }).where('id', '=', question.id).execute());
    await refused(store.db.updateTable('questions').set({ time_limit_seconds: 4 }).where('id', '=', question.id).execute());
    const media = await newMedia();
    await refused(store.db.updateTable('media').set({ duration: 61 }).where('id', '=', media).execute());
    await refused(
      store.db.insertInto('players').values({ id: newId(), name: 'Dup', email: 'X@Y.Z', email_key: 'x@y.z', created_at: nowIso() }).execute()
        .then(() => store.db.insertInto('players').values({ id: newId(), name: 'Dup', email: 'x@y.z', email_key: 'x@y.z', created_at: nowIso() }).execute()),
    );
    expect(await store.sessions.get(session.id)).toMatchObject({ status: 'draft', mediaItemsPerTransition: 1 });
  });
});
