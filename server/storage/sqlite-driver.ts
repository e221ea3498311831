import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 12 builds on node::ObjectWrap, which from Node.js 24.19 aborts the whole process
 * when the garbage collector frees a statement outside JavaScript ("Assertion failed: (env) !=
 * nullptr", WiseLibs/better-sqlite3#1515). Version 13 (N-API) is free of that but does not run on
 * Node.js 20. Until Node.js 20 support ends, each runtime loads the build it can run; both have
 * the same API.
 */
const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

const driverName = nodeMajor >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

export const SQLite: typeof BetterSqlite3 = require(driverName);
/** Where the loaded build lives (a worker thread loads the same one: wal-checkpointer.ts). */
export const SQLiteDriverPath: string = require.resolve(driverName);
export type SQLiteDatabase = BetterSqlite3.Database;
export type SQLiteStatement = BetterSqlite3.Statement;
