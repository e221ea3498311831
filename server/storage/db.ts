import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Driver,
  type Migration,
  type MigrationProvider,
  type SchemaMetadata,
  type SqliteDatabase,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { JoinParametersPlugin } from './join-params.js';
import * as initial from './migrations/001_initial.js';
import * as media from './migrations/002_media.js';
import * as cluster from './migrations/004_cluster.js';
import * as results from './migrations/005_results.js';
import * as showtimes from './migrations/006_showtimes.js';
import * as importDraw from './migrations/007_import_draw.js';
import * as answerLog from './migrations/008_answer_log.js';
import * as players from './migrations/009_players.js';
import * as answerLogSession from './migrations/010_answer_log_session.js';
import * as answerLogByRowid from './migrations/014_answer_log_by_rowid.js';
import * as audienceTitle from './migrations/011_audience_title.js';
import * as liveRoster from './migrations/013_live_roster.js';
import * as scoresUnranked from './migrations/015_scores_unranked.js';
import * as answersUnindexedPlayer from './migrations/016_answers_unindexed_player.js';
import type { Database } from './schema.js';
import { SQLite, SQLiteDriverPath, type SQLiteDatabase, type SQLiteStatement } from './sqlite-driver.js';
import { StorageHealth } from './health.js';
import { ObservedDriver } from './observed-driver.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite only: the connection under `db`, for the live game's hot writes (scores.ts). Only to
   * be used inside a Kysely transaction, which holds this one connection for its duration.
   */
  sqlite?: SQLiteDatabase;
  /** Storage faults seen by any query or connection, and commits (DESIGN §16: /readyz, reconnects in an outage). */
  health: StorageHealth;
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
export const MIGRATIONS: Record<string, Migration> = {
  '001_initial': initial,
  '002_media': media,
  '004_cluster': cluster,
  '005_results': results,
  '006_showtimes': showtimes,
  '007_import_draw': importDraw,
  '008_answer_log': answerLog,
  '009_players': players,
  '010_answer_log_session': answerLogSession,
  '011_audience_title': audienceTitle,
  '013_live_roster': liveRoster,
  '014_answer_log_by_rowid': answerLogByRowid,
  '015_scores_unranked': scoresUnranked,
  '016_answers_unindexed_player': answersUnindexedPlayer,
};
/** Opens and migrates to the latest schema (`migrations`: tests pass an older release's set). */
export async function openDatabase(options: OpenDatabaseOptions, migrations: Record<string, Migration> = MIGRATIONS): Promise<DatabaseHandle> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const handle = options.databaseUrl ? openPostgres(options.databaseUrl, options.pgSchema) : openSqlite(options.dataDir);
  try {
    // On PostgreSQL the migration bookkeeping lives in our own schema: Kysely otherwise looks for its
    // tables across every schema and trips over another application's (or another test run's).
    const migrationTableSchema = handle.dialect === 'postgres' ? (options.pgSchema ?? 'public') : undefined;
    // Numbers were reserved per feature and land in any order (007 shipped before 003–006), so a
    // database may already hold a later one than a migration it lacks: run the missing ones.
    const { error, results } = await new Migrator({ db: handle.db, provider, migrationTableSchema, allowUnorderedMigrations: true }).migrateToLatest();
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
  const file = path.join(dataDir, 'marquee.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode and much faster under answer bursts.
  sqlite.pragma('synchronous = NORMAL');
  // A statement over many rows inside a transaction (settling the answer logs of many games in the
  // live writes' shared one) journals the pages it changes; past 64 KiB SQLite moved that journal to
  // a file in /var/tmp, written a page at a time on the event loop, and a full /var/tmp failed the
  // commit. In memory those settles took a third less (docs/PERFORMANCE.md, "Session 52").
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('busy_timeout = 5000');
  const checkpointer = new WalCheckpointer(sqlite, file, {
    driverPath: SQLiteDriverPath,
    onError: (err) => console.error(err instanceof Error ? err.message : err),
  });
  const health = new StorageHealth();
  const db = new Kysely<Database>({ dialect: new ObservedSqliteDialect({ database: withStatementCache(sqlite) }, health), plugins: [new JoinParametersPlugin()] });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    health,
    close: async () => {
      await checkpointer.close();
      await db.destroy();
    },
  };
}

/** Prepared statements kept: far more than the distinct queries a running server repeats. */
const STATEMENT_CACHE_SIZE = 200;
/** Longer SQL (a multi-row insert of a batch, whose length varies) is rarely repeated: not kept. */
const MAX_CACHED_SQL_LENGTH = 4096;

/**
 * Kysely prepares every query it runs, and better-sqlite3 compiles the SQL on every prepare: the
 * same statements (an answer batch, a score upsert, a token check at each phone's connect) would
 * be compiled again thousands of times in a show. Statements are kept by their SQL text, least
 * recently used dropped first. Safe to share: Kysely runs one query at a time on this connection.
 */
function withStatementCache(sqlite: SQLiteDatabase): SqliteDatabase {
  const statements = new Map<string, SQLiteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      if (sqlText.length > MAX_CACHED_SQL_LENGTH) return sqlite.prepare(sqlText);
      let statement = statements.get(sqlText);
      if (statement) statements.delete(sqlText); // re-inserted below: most recently used last
      else statement = sqlite.prepare(sqlText);
      statements.set(sqlText, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/** A connection attempt that gets no answer (a dead host, a cut network) fails after this long. */
const PG_CONNECT_TIMEOUT_MS = 5_000;

/**
 * The timeout goes on each client's own connect, not on the pool: the pool's option would also
 * fail a query that merely waits that long for a free connection (a reconnect storm on a busy
 * machine), which is load, not a fault.
 */
class TimedConnectClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS });
  }
}

function openPostgres(url: string, schema: string | undefined): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    Client: TimedConnectClient,
    // A connection whose server vanished without a word is found out by the kernel, not left hanging.
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const health = new StorageHealth();
  // A lost connection makes its pg client emit 'error', whether it is idle in the pool or checked
  // out (in a transaction, or running a query). The pool listens to idle ones only: without a
  // listener of our own on every client, a connection lost while in use ended the process
  // (DESIGN §16). The query in flight fails on its own and its caller retries; the pool drops
  // the broken client on release.
  pool.on('connect', (client) => client.on('error', (err) => health.failed(err)));
  pool.on('error', (err) => health.failed(err));
  const db = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool }, schema ?? 'public', health) });
  return { db, dialect: 'postgres', health, close: () => db.destroy() };
}

class ObservedSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly health: StorageHealth,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new ObservedDriver(super.createDriver(), this.health);
  }
}

/**
 * Kysely's PostgreSQL introspector (which its Migrator uses to find its own tables) reads every
 * schema in the database and calls name-based catalog functions on each: a schema dropped by
 * someone else mid-query (another application, another test run) fails our start with "schema
 * … does not exist". The Migrator only needs our own schema, so that is all this one looks at.
 */
class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly schema: string,
    private readonly health: StorageHealth,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new ObservedDriver(super.createDriver(), this.health);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    const schema = this.schema;
    const getTables = async (): Promise<TableMetadata[]> => {
      const { rows } = await sql<{ name: string; kind: string }>`
        select c.relname as name, c.relkind as kind from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(db);
      return rows.map((r) => ({ name: r.name, schema, isView: r.kind === 'v' || r.kind === 'm', columns: [] }));
    };
    return {
      getSchemas: async (): Promise<SchemaMetadata[]> => {
        const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
        return rows;
      },
      getTables,
      getMetadata: async (): Promise<DatabaseMetadata> => ({ tables: await getTables() }),
    };
  }
}
