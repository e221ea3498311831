import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 13: an N-API build that ships inside the package (prebuilds/), so it loads on the
 * pinned Node.js 24 whatever Node.js ran `npm install`. Version 12 aborted Node.js 24.19+ when the
 * garbage collector freed a statement (WiseLibs/better-sqlite3#1515).
 */
const require = createRequire(import.meta.url);

export const SQLite: typeof BetterSqlite3 = require('better-sqlite3');
/** Where the driver lives (a worker thread loads the same one: wal-checkpointer.ts). */
export const SQLiteDriverPath: string = require.resolve('better-sqlite3');
export type SQLiteDatabase = BetterSqlite3.Database;
export type SQLiteStatement = BetterSqlite3.Statement;

/**
 * Every connection's settings (the event loop's and the live writer's, live-writer.ts). The WAL
 * journal mode is the file's, set once by the first: db.ts.
 */
export function configureConnection(sqlite: SQLiteDatabase): void {
  sqlite.pragma('foreign_keys = ON');
  // NORMAL is durable across application crashes in WAL mode and much faster under answer bursts.
  sqlite.pragma('synchronous = NORMAL');
  // A statement over many rows inside a transaction (settling the answer logs of many games in the
  // live writes' shared one) journals the pages it changes; past 64 KiB SQLite moved that journal to
  // a file in /var/tmp, written a page at a time, and a full /var/tmp failed the commit. In memory
  // those settles took a third less (docs/PERFORMANCE.md, "Session 52").
  sqlite.pragma('temp_store = MEMORY');
  // Two connections write (the live writer's thread and the event loop's): each waits for the other's commit.
  sqlite.pragma('busy_timeout = 5000');
}
