import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase } from './db.js';
import { createTestDatabase, DIALECTS, TEST_DATABASE_URL } from '../testing/databases.js';
import { openStore, type Store } from './store.js';

describe('PostgreSQL start-up beside other schemas', () => {
  it('migrates its own schema while another application creates and drops schemas in the same database', async () => {
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churn.connect();
    let churning = true;
    // Another tenant of the database (another test run, another app) creating and dropping
    // schemas with tables and serial columns, as fast as it can.
    const loop = (async () => {
      let n = 0;
      while (churning) {
        const name = `churn_${process.pid}_${n++}`;
        await churn.query(`create schema ${name}; create table ${name}.t (id serial primary key, v text)`);
        await churn.query(`drop schema ${name} cascade`);
      }
    })();
    try {
      for (let i = 0; i < 15; i++) {
        const database = await createTestDatabase('postgres');
        try {
          const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
          const tables = await handle.db.introspection.getTables();
          await handle.close();
          expect(tables.map((t) => t.name)).toContain('sessions');
          expect(tables.every((t) => t.schema === database.pgSchema)).toBe(true);
        } finally {
          await database.drop();
        }
      }
    } finally {
      churning = false;
      await loop;
      await churn.end();
    }
  }, 60_000);
});

describe.each(DIALECTS)('migrations landing out of order on %s', (dialect) => {
  it('adds 006 to a database that already ran 007, as one made by the previous release did', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const options = { databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema };
      const { '006_showtimes': _missing, ...previousRelease } = MIGRATIONS;
      const old = await openDatabase(options, previousRelease);
      expect((await old.db.introspection.getTables()).map((t) => t.name)).not.toContain('showtimes');
      await old.close();
      const current = await openDatabase(options);
      try {
        const tables = await current.db.introspection.getTables();
        expect(tables.map((t) => t.name)).toContain('showtimes');
        // The new columns are there (this select fails without them).
        expect(await current.db.selectFrom('auditoriums').select(['pre_show_session_id', 'pre_show_lead_minutes', 'pre_show_end_minutes']).execute()).toEqual([]);
      } finally {
        await current.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe.each(DIALECTS)('answers without the player index (016) on %s', (dialect) => {
  it("keeps a previous release's answers, and a player's delete still takes theirs", async () => {
    const database = await createTestDatabase(dialect);
    try {
      const options = { databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema };
      const { '016_answers_unindexed_player': _missing, ...previousRelease } = MIGRATIONS;
      const old = await openDatabase(options, previousRelease);
      const now = new Date().toISOString();
      try {
        await old.db
          .insertInto('questions')
          .values({ id: 'q', text: 'Which?', choices: '["A","B","C","D"]', correct_index: 0, points: 10, time_limit_seconds: 20, categories: '[]', created_at: now })
          .execute();
        for (const id of ['s1', 's2']) {
          await old.db
            .insertInto('sessions')
            .values({ id, title: id, status: 'live', created_at: now, auto_rotate: 0, media_items_per_transition: 1, current_question_index: 0, theme: '{}' })
            .execute();
        }
        // A player of s1, and one from before players were per session who played both games.
        await old.db.insertInto('players').values({ id: 'p1', name: 'A', email: 'a@example.com', email_key: 's1 a@example.com', created_at: now, session_id: 's1' }).execute();
        await old.db.insertInto('players').values({ id: 'legacy', name: 'B', email: 'b@example.com', email_key: 'b@example.com', created_at: now }).execute();
        const row = (sessionId: string, playerId: string, asking: number) => ({
          session_id: sessionId, player_id: playerId, question_id: 'q', asking, selected_index: 1, is_correct: 0, points_earned: 0, elapsed_ms: 700, answered_at: now,
        });
        await old.db.insertInto('answers').values([row('s1', 'p1', 0), row('s1', 'legacy', 0), row('s2', 'legacy', 0), row('s2', 'legacy', 1)]).execute();
      } finally {
        await old.close();
      }

      const store = await openStore(options);
      try {
        const answers = () => store.db.selectFrom('answers').select(['session_id', 'player_id', 'asking', 'elapsed_ms']).orderBy('session_id').orderBy('player_id').orderBy('asking').execute();
        expect(await answers()).toEqual([
          { session_id: 's1', player_id: 'legacy', asking: 0, elapsed_ms: 700 },
          { session_id: 's1', player_id: 'p1', asking: 0, elapsed_ms: 700 },
          { session_id: 's2', player_id: 'legacy', asking: 0, elapsed_ms: 700 },
          { session_id: 's2', player_id: 'legacy', asking: 1, elapsed_ms: 700 },
        ]);
        const indexes = await indexNames(store, dialect);
        // SQLite settles every answer into this index; PostgreSQL never settles and keeps it.
        expect(indexes).toContain('answers_question_idx');
        if (dialect === 'sqlite') expect(indexes).not.toContain('answers_player_idx');
        else expect(indexes).toContain('answers_player_idx');
        // A second answer for the same asking is still refused by the rebuilt key.
        await expect(store.db.insertInto('answers').values({
          session_id: 's1', player_id: 'p1', question_id: 'q', asking: 0, selected_index: 2, is_correct: 0, points_earned: 0, elapsed_ms: 1, answered_at: 'x',
        }).execute()).rejects.toThrow();

        expect(await store.players.delete('p1')).toBe(true);
        expect(await store.players.delete('legacy')).toBe(true);
        expect(await answers()).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });
});

async function indexNames(store: Store, dialect: string): Promise<string[]> {
  const { rows } = dialect === 'sqlite'
    ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'answers'`.execute(store.db)
    : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'answers' and schemaname = current_schema()`.execute(store.db);
  return rows.map((r) => r.name);
}
