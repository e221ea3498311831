import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import * as initial from './migrations/001_initial.js';
import * as media from './migrations/002_media.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://… switches to PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to work in (tests use a fresh one per run). */
  pgSchema?: string;
}

// Migrations live in code so the compiled server needs no files beside it.
const migrations: Record<string, Migration> = { '001_initial': initial, '002_media': media };
const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl, options.pgSchema) : openSqlite(options.dataDir);
  try {
    // On PostgreSQL the migration bookkeeping lives in our own schema: Kysely otherwise looks for its
    // tables across every schema and trips over another application's (or another test run's).
    const migrationTableSchema = handle.dialect === 'postgres' ? (options.pgSchema ?? 'public') : undefined;
    const { error, results } = await new Migrator({ db: handle.db, provider, migrationTableSchema }).migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`);
    }
  } catch (err) {
    await handle.close();
    throw err;
  }
  return handle;
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'marquee.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode and much faster under answer bursts.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(url: string, schema: string | undefined): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
