import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../testing/databases.js';

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
