/**
 * Issue 26: a round of one session reads only that session's rows, whatever else is live on the
 * instance. The statements a round runs (the answers of an asking, the scores) are planned on an
 * index led by the session, never as a scan of the table, on both databases; SQLite's answer log is
 * settled by the rowids of the session's rows (scores.ts), each found by its key. (On PostgreSQL sequential scans are switched off for the EXPLAIN: with the
 * tiny tables of a test the planner would rightly prefer them, and what is checked here is that an
 * index path by session exists at all.)
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../testing/databases.js';
import type { Database } from './schema.js';
import { CLEAR_LOGGED_SQL, SETTLE_LOGGED_SQL } from './scores.js';
import { openStore, type Store } from './store.js';

/** The per-round statements, with $1 the session (and $2 the asking where there is one). */
const ROUND_STATEMENTS: Record<string, string> = {
  'resume: the answers of an asking': 'select * from answers where session_id = $1 and asking = $2',
  'the session’s scores': 'select * from scores where session_id = $1 order by points_total desc',
};

/** SQLite numbers parameters ?1, ?2; PostgreSQL $1, $2. Values are inlined: EXPLAIN plans them the same. */
const bind = (statement: string) => statement.replace('$1', `'some-session'`).replace('$2', '3');

async function planOf(db: Kysely<Database>, dialect: string, statement: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(bind(statement))}`.execute(db);
    return rows.map((r) => r.detail);
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(bind(statement))}`.execute(trx);
    return rows.map((r) => r['QUERY PLAN']);
  });
}

describe.each(DIALECTS)('a round’s statements on %s', (dialect) => {
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

  it.each(Object.entries(ROUND_STATEMENTS))('%s: found by the session’s index, no table scan', async (_what, statement) => {
    const plan = await planOf(store.db, dialect, statement);
    const text = plan.join('\n');
    if (dialect === 'sqlite') {
      // "SCAN answer_log" reads every session's rows; "SEARCH ... USING INDEX" reads one session's.
      expect(text).not.toMatch(/\bSCAN (answer_log|answers|scores)\b(?! USING)/);
      expect(text).toMatch(/SEARCH (answer_log|answers|scores) USING (COVERING )?INDEX/);
    } else {
      expect(text).not.toMatch(/Seq Scan on (answer_log|answers|scores)/);
      expect(text).toMatch(/Index (Only )?Scan using \w+ on (answer_log|answers|scores)|Bitmap Index Scan on \w+/);
    }
  });

});

describe('SQLite’s answer log', () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore({ dataDir: database.dataDir });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it.each([
    ['moved into answers', SETTLE_LOGGED_SQL],
    ['cleared', CLEAR_LOGGED_SQL],
  ])('is settled (%s) by the rowids of the session’s rows, no table scan', async (_what, statement) => {
    const bound = statement.replace('?', `'[1,2,3]'`).replace('?', `'some-session'`);
    const { rows } = await sql<{ detail: string }>`explain query plan ${sql.raw(bound)}`.execute(store.db);
    const text = rows.map((r) => r.detail).join('\n');
    expect(text).toMatch(/SEARCH answer_log USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(text).not.toMatch(/\bSCAN answer_log\b/);
  });
});
