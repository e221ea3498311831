import { addPlayer } from '../testing/players.js';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../testing/databases.js';
import { useTestStore } from '../testing/hooks.js';
import type { Store } from './store.js';
import { newId } from './util.js';

/** Repository behaviour the routes and the live runner lean on, on both databases. */
describe.each(DIALECTS)('repositories on %s', (dialect) => {
  let store: Store;

  useTestStore(dialect, (s) => {
    store = s;
  });

  const newSession = () =>
    store.sessions.create({ title: 'Repo', auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
  const slide = (slideType: string) => ({ item_type: 'slide' as const, question_id: null, slide_type: slideType, slide_data: null, media_item_count: null });

  it('ranks scores by total, then by who reached it first', async () => {
    const session = await newSession();
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => addPlayer(store, n.toUpperCase(), `${n}-rank@example.com`, `h-${newId()}`)));
    await store.scores.saveScores(session.id, [
      { playerId: a.id, pointsTotal: 20, reachedAt: '2030-01-01T20:00:05.000Z' },
      { playerId: b.id, pointsTotal: 30, reachedAt: '2030-01-01T20:00:09.000Z' },
      { playerId: c.id, pointsTotal: 20, reachedAt: '2030-01-01T20:00:02.000Z' },
    ]);
    expect((await store.scores.listScores(session.id)).map((s) => [s.name, s.pointsTotal])).toEqual([['B', 30], ['C', 20], ['A', 20]]);

    // Totals are absolute: saving again replaces, never adds.
    await store.scores.saveScores(session.id, [{ playerId: a.id, pointsTotal: 45, reachedAt: '2030-01-01T20:01:00.000Z' }]);
    await store.scores.saveScores(session.id, [{ playerId: a.id, pointsTotal: 45, reachedAt: '2030-01-01T20:01:00.000Z' }]);
    expect((await store.scores.listScores(session.id)).map((s) => [s.name, s.pointsTotal])).toEqual([['A', 45], ['B', 30], ['C', 20]]);
  });

  it('clears one session\'s answers and scores only', async () => {
    const [s1, s2] = [await newSession(), await newSession()];
    const player = await addPlayer(store, 'Clear', 'clear@example.com', `h-${newId()}`);
    for (const s of [s1, s2]) await store.scores.saveScores(s.id, [{ playerId: player.id, pointsTotal: 5, reachedAt: '2030-01-01T00:00:00.000Z' }]);
    await store.scores.clearSession(store.db, s1.id);
    expect(await store.scores.listScores(s1.id)).toEqual([]);
    expect(await store.scores.listScores(s2.id)).toHaveLength(1);
  });

  it('registers one player per email per session and lets only its own device back in', async () => {
    const [s1, s2] = [await newSession(), await newSession()];
    const join = (sessionId: string, name: string, email: string, tokenHash: string, heldTokenHash: string | null = null) =>
      store.players.register({ sessionId, name, email, tokenHash, heldTokenHash, maxPlayers: 10 });
    const first = await join(s1.id, 'Mia', 'Mia@Example.com', 'hash-1');
    expect(first).toMatchObject({ kind: 'created', player: { name: 'Mia', sessionId: s1.id, joinOrder: 1 } });
    expect(await join(s1.id, 'Someone Else', 'MIA@example.COM', 'hash-2')).toEqual({ kind: 'email_taken' });
    expect(await join(s1.id, 'Mia', 'mia@example.com', 'hash-3', 'hash-1')).toEqual({ kind: 'returning', player: (first as { player: unknown }).player });
    // Another game: a new player of its own, its own token.
    expect(await join(s2.id, 'Mia', 'mia@example.com', 'hash-4', 'hash-1')).toMatchObject({ kind: 'created', player: { sessionId: s2.id, joinOrder: 1 } });
    const id = (first as { player: { id: string } }).player.id;
    expect(await store.players.checkToken(id, 'hash-1', s1.id)).toMatchObject({ ok: true });
    expect(await store.players.checkToken(id, 'hash-1', s2.id)).toEqual({ ok: false, why: 'invalid' });
    expect(await store.players.checkToken(id, 'hash-2', s1.id)).toEqual({ ok: false, why: 'invalid' });
  });

  it('expires a session\'s tokens 24 hours after it ends', async () => {
    const session = await newSession();
    const outcome = await store.players.register({ sessionId: session.id, name: 'Ed', email: 'ed@example.com', tokenHash: 'hash-ed', heldTokenHash: null, maxPlayers: 10 });
    const id = (outcome as { player: { id: string } }).player.id;
    await store.sessions.transition(session.id, ['draft'], 'live');
    await store.sessions.transition(session.id, ['live'], 'finished');
    const day = 24 * 60 * 60 * 1000;
    expect(await store.players.checkToken(id, 'hash-ed', session.id, Date.now() + day - 60_000)).toMatchObject({ ok: true });
    expect(await store.players.checkToken(id, 'hash-ed', session.id, Date.now() + day + 60_000)).toEqual({ ok: false, why: 'expired' });
  });

  it('counts the cap in join order, one at a time', async () => {
    const session = await newSession();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store.players.register({ sessionId: session.id, name: `P${i}`, email: `p${i}@example.com`, tokenHash: `cap-${i}`, heldTokenHash: null, maxPlayers: 4 })),
    );
    expect(outcomes.filter((o) => o.kind === 'full')).toHaveLength(2);
    const orders = outcomes.flatMap((o) => (o.kind === 'created' ? [o.player.joinOrder] : [])).sort();
    expect(orders).toEqual([1, 2, 3, 4]);
  });

  it('gives each of many registrations arriving at once its own outcome: one that fails leaves the others stored', async () => {
    const session = await newSession();
    const join = (sessionId: string, email: string, tokenHash: string) =>
      store.players.register({ sessionId, name: 'Same Turn', email, tokenHash, heldTokenHash: null, maxPlayers: 10 }).then(
        (outcome) => outcome.kind,
        () => 'refused by the database',
      );
    const outcomes = await Promise.all([
      join(session.id, 'one@example.com', `turn-1-${newId()}`),
      join(newId(), 'ghost@example.com', `turn-2-${newId()}`), // no such session: a foreign key refuses it
      join(session.id, 'ONE@example.com', `turn-3-${newId()}`), // the same email, in the same turn
      join(session.id, 'two@example.com', `turn-4-${newId()}`),
    ]);
    const stored = await store.db.selectFrom('players').select(['email', 'join_order']).where('session_id', '=', session.id).orderBy('join_order').execute();
    if (dialect === 'sqlite') {
      // One turn's registrations share a transaction, taken in arrival order.
      expect(outcomes).toEqual(['created', 'refused by the database', 'email_taken', 'created']);
      expect(stored).toEqual([
        { email: 'one@example.com', join_order: 1 },
        { email: 'two@example.com', join_order: 2 },
      ]);
    } else {
      // Each on a connection of its own: which of the two spellings wins the race is not defined.
      expect([outcomes[0], outcomes[2]].sort()).toEqual(['created', 'email_taken']);
      expect([outcomes[1], outcomes[3]]).toEqual(['refused by the database', 'created']);
      const winner = outcomes[0] === 'created' ? 'one@example.com' : 'ONE@example.com';
      expect(stored.map((row) => row.email).sort()).toEqual([winner, 'two@example.com'].sort());
      expect(stored.map((row) => row.join_order)).toEqual([1, 2]);
    }
  });

  it('changes status only from the expected statuses (compare and set)', async () => {
    const session = await newSession();
    await store.sessions.saveLiveState(session.id, '{"at":2}', 2);
    expect(await store.sessions.transition(session.id, ['live'], 'finished')).toBe(false);
    expect(await store.sessions.transition(session.id, ['draft', 'scheduled'], 'live')).toBe(true);
    expect(await store.sessions.get(session.id)).toMatchObject({ status: 'live', currentQuestionIndex: 0 });
    expect(await store.sessions.getLiveState(session.id)).toBeNull();
    expect(await store.sessions.transition(session.id, ['draft', 'scheduled'], 'live')).toBe(false);
    expect(await store.sessions.transition(newId(), ['draft'], 'live')).toBe(false);
    expect(await store.sessions.countByStatus('live')).toBeGreaterThanOrEqual(1);
  });

  it('appends items at max + 1, honours a free orderIndex, and moves by swapping neighbours across gaps', async () => {
    const session = await newSession();
    await store.items.append(session.id, slide('intro'));
    await store.items.append(session.id, slide('rules'), 10);
    await store.items.append(session.id, slide('break'), 3);
    const list = await store.items.list(session.id);
    expect(list.map((i) => [i.slideType, i.orderIndex])).toEqual([['intro', 0], ['rules', 10], ['break', 11]]);

    expect(await store.items.move(session.id, list[2].id, 'up')).toBe(true);
    expect((await store.items.list(session.id)).map((i) => [i.slideType, i.orderIndex])).toEqual([['intro', 0], ['break', 10], ['rules', 11]]);
    expect(await store.items.move(session.id, list[0].id, 'up')).toBe(false);
    expect(await store.items.move(session.id, list[1].id, 'down')).toBe(false);
    expect(await store.items.move(session.id, newId(), 'down')).toBe(false);
    // An item of another session cannot be moved through this one.
    const other = await newSession();
    expect(await store.items.move(other.id, list[0].id, 'down')).toBe(false);
  });

  it('appends at the same time without colliding positions', async () => {
    const session = await newSession();
    await Promise.all(Array.from({ length: 8 }, (_, n) => store.items.append(session.id, slide(n % 2 ? 'intro' : 'break'))));
    expect((await store.items.list(session.id)).map((i) => i.orderIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('copies every item of a session, in order, to another', async () => {
    const source = await newSession();
    const target = await newSession();
    await store.items.append(source.id, slide('join'));
    await store.items.append(source.id, { item_type: 'media_block', question_id: null, slide_type: null, slide_data: null, media_item_count: 6 });
    await store.db.transaction().execute((trx) => store.items.copyAll(trx, source.id, target.id));
    const strip = (items: Awaited<ReturnType<typeof store.items.list>>) => items.map(({ id: _i, sessionId: _s, ...rest }) => rest);
    expect(strip(await store.items.list(target.id))).toEqual(strip(await store.items.list(source.id)));
    expect((await store.items.list(target.id))[0].id).not.toBe((await store.items.list(source.id))[0].id);
  });

  it('reads a damaged JSON column as empty rather than failing', async () => {
    const session = await newSession();
    await store.db.updateTable('sessions').set({ theme: '{broken' }).where('id', '=', session.id).execute();
    expect((await store.sessions.get(session.id))?.theme).toEqual({});
    await store.db.updateTable('sessions').set({ theme: '"a string"' }).where('id', '=', session.id).execute();
    expect((await store.sessions.get(session.id))?.theme).toEqual({});
  });

  it('lists auditoriums added within one millisecond in the order they were added', async () => {
    const added: string[] = [];
    for (let i = 0; i < 12; i++) added.push((await store.auditoriums.create(`Screen ${i}`)).id);
    expect((await store.auditoriums.list()).map((a) => a.id).filter((id) => added.includes(id))).toEqual(added);
  });

  it('lists questions added within one millisecond in the order they were added, a batch after them too', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Back to back ${i}?`);
    const question = (text: string) => ({ text, choices: ['a', 'b', 'c', 'd'], correctIndex: 0, points: 10, timeLimitSeconds: 30, categories: [], mediaId: null });
    for (const text of texts) await store.questions.create(question(text));
    await store.questions.insertMany(store.db, [question('Batch 1?'), question('Batch 2?')]);
    await store.questions.create(question('Last?'));
    const listed = (await store.questions.list()).map((q) => q.text).filter((text) => texts.includes(text) || /^(Batch \d|Last)\?$/.test(text));
    expect(listed).toEqual([...texts, 'Batch 1?', 'Batch 2?', 'Last?']);
  });
});
