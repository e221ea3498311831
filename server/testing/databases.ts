import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The local PostgreSQL the suites run against as well as SQLite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDialect = 'sqlite' | 'postgres';
export const DIALECTS: TestDialect[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  dialect: TestDialect;
  dataDir: string;
  databaseUrl: string | undefined;
  pgSchema: string | undefined;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database: a temp folder for SQLite, or a new schema in the test database for
 * PostgreSQL. An unreachable PostgreSQL fails the suite; it is never skipped.
 */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-test-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return { dialect, dataDir, databaseUrl: undefined, pgSchema: undefined, drop: async () => removeDir() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withClient((c) => c.query(`create schema ${schema}`));
  return {
    dialect,
    dataDir,
    databaseUrl: TEST_DATABASE_URL,
    pgSchema: schema,
    drop: async () => {
      await withClient((c) => c.query(`drop schema if exists ${schema} cascade`));
      removeDir();
    },
  };
}

/**
 * How long the tests wait for PostgreSQL to accept a connection. A server that is not running
 * refuses at once; this only bounds a running one that is slow to answer, as on a machine starved
 * of CPU (session 37 saw 5 s expire there, and the whole run stop at its prerequisite check).
 */
export const SERVICE_CONNECT_TIMEOUT_MS = 30_000;

async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: SERVICE_CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`PostgreSQL is required for the test suite at ${TEST_DATABASE_URL}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function checkPostgres(): Promise<void> {
  await withClient((c) => c.query('select 1'));
}
