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
