/**
 * `npm run backup -- DIR`: a consistent copy of a running Marquee's SQLite data (DESIGN §12,
 * docs/OPERATIONS.md).
 *
 * The database goes first, through SQLite's online backup API (better-sqlite3's `.backup()`):
 * it copies the pages of one consistent state while the server keeps writing (WAL mode lets
 * readers and the writer work at once). The media files follow: finished objects never change
 * (new ones get new ids), so every object the copied database refers to is copied, and uploads
 * still in flight are skipped. The folder is itself a DATA_DIR: restoring is copying it back.
 *
 * PostgreSQL is refused: pg_dump does this job there, and S3 media are backed up at the bucket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SQLite } from '../storage/sqlite-driver.js';
import type { Config } from '../config.js';

export const DATABASE_FILE = 'marquee.sqlite';
export const MANIFEST_FILE = 'backup.json';
/** Uploads in flight live in these folders of media/ (see LocalMediaStore). */
const IN_FLIGHT_DIRS = new Set(['.incoming', '.multipart']);

export class BackupError extends Error {}

export interface BackupResult {
  dir: string;
  databaseBytes: number;
  mediaFiles: number;
  /** Set when media live in S3: they are not in the backup. */
  s3Bucket: string | undefined;
}

function ensureEmptyDir(dir: string): void {
  if (fs.existsSync(dir)) {
    if (!fs.statSync(dir).isDirectory()) throw new BackupError(`${dir} is a file: give a new or empty folder`);
    if (fs.readdirSync(dir).length > 0) throw new BackupError(`${dir} is not empty: give a new or empty folder (a backup never overwrites another)`);
  }
  fs.mkdirSync(dir, { recursive: true });
}

async function backupDatabase(source: string, target: string): Promise<void> {
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // All remaining pages in one step: a write by the server between steps would restart the copy.
    await db.backup(target, { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
  } finally {
    db.close();
  }
  const copy = new SQLite(target, { readonly: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copied database failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

/** Copies finished media objects; returns how many files were copied. */
function backupMedia(source: string, target: string): number {
  if (!fs.existsSync(source)) return 0;
  let files = 0;
  fs.cpSync(source, target, {
    recursive: true,
    filter: (from) => {
      if (path.dirname(from) === source && IN_FLIGHT_DIRS.has(path.basename(from))) return false;
      if (fs.statSync(from).isFile()) files++;
      return true;
    },
  });
  return files;
}

export async function backup(config: Config, targetDir: string): Promise<BackupResult> {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: the data is in PostgreSQL, which this command does not copy. ' +
        'Use pg_dump (e.g. pg_dump --format=custom --file=marquee.dump "$DATABASE_URL"); docs/OPERATIONS.md has the steps.',
    );
  }
  const source = path.join(config.dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`No database at ${source}: is DATA_DIR right?`);
  const dir = path.resolve(targetDir);
  if (dir === path.resolve(config.dataDir)) throw new BackupError('The backup folder must not be DATA_DIR itself');
  ensureEmptyDir(dir);

  const databaseFile = path.join(dir, DATABASE_FILE);
  await backupDatabase(source, databaseFile);
  const mediaFiles = config.s3 ? 0 : backupMedia(path.join(config.dataDir, 'media'), path.join(dir, 'media'));
  const result: BackupResult = { dir, databaseBytes: fs.statSync(databaseFile).size, mediaFiles, s3Bucket: config.s3?.bucket };
  const manifest = { createdAt: new Date().toISOString(), database: DATABASE_FILE, mediaFiles, mediaInS3Bucket: result.s3Bucket ?? null };
  fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return result;
}
