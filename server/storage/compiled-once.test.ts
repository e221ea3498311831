/**
 * A query compiled once (util.ts `compiledOnce`) reads what the same query built on each call
 * reads: each call's values go to their own slots, whatever order the query names them in, and the
 * values compiled into it stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../testing/databases.js';
import { openStore, type Store } from './store.js';
import { compiledOnce, textParam } from './util.js';

describe.each(DIALECTS)('a query compiled once on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    for (const title of ['Matinee', 'Evening', 'Late show']) {
      const session = await store.sessions.create({ title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
      ids.push(session.id);
    }
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('runs with each call’s values in their slots and keeps the constants it was compiled with', async () => {
    const { db } = store;
    // The slots named in the opposite order to the call's object, a constant between them.
    const titled = compiledOnce(db, (slot: (name: 'id' | 'title') => string) =>
      db
        .selectFrom('sessions')
        .select('title')
        .where((eb) => eb.and([eb('title', '=', slot('title')), eb('title', '!=', 'Late show'), eb('id', '=', textParam(slot('id')))])),
    );
    const titles = async (id: string, title: string) => (await titled({ id, title })).rows.map((r) => r.title);
    expect(await titles(ids[0], 'Matinee')).toEqual(['Matinee']);
    expect(await titles(ids[1], 'Evening')).toEqual(['Evening']);
    expect(await titles(ids[0], 'Evening')).toEqual([]);
    expect(await titles(ids[2], 'Late show')).toEqual([]); // the constant still applies
  });
});
