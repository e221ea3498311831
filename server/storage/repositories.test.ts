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
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => store.players.register(n.toUpperCase(), `${n}-rank@example.com`, `h-${newId()}`)));
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
    const player = await store.players.register('Clear', 'clear@example.com', `h-${newId()}`);
    for (const s of [s1, s2]) await store.scores.saveScores(s.id, [{ playerId: player.id, pointsTotal: 5, reachedAt: '2030-01-01T00:00:00.000Z' }]);
    await store.scores.clearSession(store.db, s1.id);
    expect(await store.scores.listScores(s1.id)).toEqual([]);
    expect(await store.scores.listScores(s2.id)).toHaveLength(1);
  });

  it('finds players by email in any case and keeps each device token', async () => {
    const first = await store.players.register('Mia', 'Mia@Example.com', 'hash-1');
    const again = await store.players.register('Someone Else', 'MIA@example.COM', 'hash-2');
    expect(again).toEqual(first);
    expect(await store.players.verifyToken(first.id, 'hash-1')).toEqual(first);
    expect(await store.players.verifyToken(first.id, 'hash-2')).toEqual(first);
    expect(await store.players.verifyToken(first.id, 'hash-3')).toBeUndefined();
    expect(await store.players.verifyToken(newId(), 'hash-1')).toBeUndefined();
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
});
