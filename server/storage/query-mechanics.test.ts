/**
 * The storage layer's own query mechanics, on both databases:
 * - a query compiled once (util.ts `compiledOnce`) reads what the same query built on each call
 *   reads: each call's values go to their own slots, whatever order the query names them in, and
 *   the values compiled into it stay as they were;
 * - SQLite's joins compare their text parameters through a cast (join-params.ts: bare, better-sqlite3's
 *   SQLite re-prepares the join on every run); numbers, literals and queries without a join are left
 *   as built, and PostgreSQL gets its queries untouched. The rows are the same.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../testing/databases.js';
import { openStore, type Store } from './store.js';
import { compiledOnce } from './util.js';

describe.each(DIALECTS)('query mechanics on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  const ids: string[] = [];
  let sessionId: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    for (const title of ['Matinee', 'Evening', 'Late show']) {
      const session = await store.sessions.create({ title, auditoriumId: null, startsAt: null, autoRotate: true, mediaItemsPerTransition: 1, returnMessage: null }, 'draft');
      ids.push(session.id);
    }
    sessionId = ids[0];
    await store.db
      .insertInto('session_items')
      .values({ id: 'item-1', session_id: sessionId, order_index: 0, item_type: 'slide', question_id: null, slide_type: 'intro', slide_data: null, media_item_count: null })
      .execute();
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
        .where((eb) => eb.and([eb('title', '=', slot('title')), eb('title', '!=', 'Late show'), eb('id', '=', slot('id'))])),
    );
    const titles = async (id: string, title: string) => (await titled({ id, title })).rows.map((r) => r.title);
    expect(await titles(ids[0], 'Matinee')).toEqual(['Matinee']);
    expect(await titles(ids[1], 'Evening')).toEqual(['Evening']);
    expect(await titles(ids[0], 'Evening')).toEqual([]);
    expect(await titles(ids[2], 'Late show')).toEqual([]); // the constant still applies
  });

  const joined = () =>
    store.db
      .selectFrom('session_items as i')
      .innerJoin('sessions as s', 's.id', 'i.session_id')
      .select(['i.id', 's.title'])
      .where('i.session_id', '=', sessionId)
      .where('i.order_index', '>=', 0)
      .where('s.title', '!=', sql.lit('Late show'));

  it('casts a join’s text parameters on SQLite only, and finds the same rows', async () => {
    const { sql: text, parameters } = joined().compile();
    if (dialect === 'sqlite') {
      expect(text).toContain('"i"."session_id" = cast(? as text)');
      expect(text).toContain('"i"."order_index" >= ?'); // a number stays bare
    } else {
      expect(text).not.toContain('cast(');
    }
    expect(parameters).toEqual([sessionId, 0]);
    expect(await joined().execute()).toEqual([{ id: 'item-1', title: 'Matinee' }]);
  });

  it('leaves a query without a join as built', () => {
    expect(store.db.selectFrom('sessions').select('id').where('id', '=', sessionId).compile().sql).not.toContain('cast(');
  });
});
