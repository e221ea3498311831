import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase } from './db.js';
import { createTestDatabase, DIALECTS, TEST_DATABASE_URL } from '../testing/databases.js';

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
