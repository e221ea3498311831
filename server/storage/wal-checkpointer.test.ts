import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLite, SQLiteDriverPath, type SQLiteDatabase } from './sqlite-driver.js';
import { WalCheckpointer } from './wal-checkpointer.js';

const open: { db: SQLiteDatabase; checkpointer: WalCheckpointer }[] = [];

function setUp(driverPath = SQLiteDriverPath, thresholdBytes?: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-wal-'));
  const file = path.join(dir, 'test.sqlite');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table rows (id integer primary key, payload text not null)');
  const errors: unknown[] = [];
  const checkpointer = new WalCheckpointer(db, file, { driverPath, thresholdBytes, checkEveryMs: 10, onError: (err) => errors.push(err) });
  open.push({ db, checkpointer });
  const insert = db.prepare('insert into rows (payload) values (?)');
  const write = (transactions: number) => {
    for (let t = 0; t < transactions; t++) db.transaction(() => { for (let i = 0; i < 50; i++) insert.run('x'.repeat(500)); })();
  };
  return { db, file, checkpointer, errors, write };
}

afterEach(async () => {
  for (const { db, checkpointer } of open.splice(0)) {
    await checkpointer.close();
    if (db.open) db.close();
  }
});

describe('WAL checkpoints on a worker thread', () => {
  it('commits on the main connection never checkpoint; the worker moves the WAL into the database file', async () => {
    const { db, file, checkpointer, errors, write } = setUp();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    write(200); // ~5 MB: past SQLite's own 1,000-page threshold
    const mainFileBefore = fs.statSync(file).size;
    const result = await checkpointer.checkpoint();
    expect(result).not.toBeNull();
    expect(result!.log).toBeGreaterThan(1000);
    expect(result!.checkpointed).toBe(result!.log);
    expect(fs.statSync(file).size).toBeGreaterThan(mainFileBefore + 4_000_000);
    // The next write starts the WAL again from the beginning.
    write(1);
    const again = await checkpointer.checkpoint();
    expect(again!.log).toBeLessThan(50);
    expect(errors).toEqual([]);
  });

  it('checkpoints by itself once the WAL passes the threshold', async () => {
    const { file, write, errors } = setUp(SQLiteDriverPath, 256 * 1024);
    write(40); // ~1 MB
    const wal = `${file}-wal`;
    const fullAt = fs.statSync(wal).size;
    expect(fullAt).toBeGreaterThan(256 * 1024);
    // Observed, not timed: the database file receives the pages.
    const before = fs.statSync(file).size;
    await expect.poll(() => fs.statSync(file).size, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before + 500_000);
    expect(errors).toEqual([]);
  });

  it('stays idle while nothing is written after a complete checkpoint, and checkpoints again after a write', async () => {
    const { file, write, checkpointer } = setUp(SQLiteDriverPath, 256 * 1024);
    write(40); // ~1 MB: past the threshold, and the WAL file keeps that size afterwards
    const before = fs.statSync(file).size;
    await expect.poll(() => fs.statSync(file).size, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before + 500_000);
    await expect.poll(() => checkpointer.runs, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0);
    // Many checks (every 10 ms) see the same, fully copied WAL: at most the one that was running.
    const runs = checkpointer.runs;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(checkpointer.runs).toBeLessThanOrEqual(runs + 1);
    const settled = checkpointer.runs;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(checkpointer.runs).toBe(settled);
    write(40);
    await expect.poll(() => checkpointer.runs, { timeout: 30_000, interval: 20 }).toBeGreaterThan(settled);
  });

  it('falls back to checkpoints on the main connection when the worker cannot run', async () => {
    const { db, checkpointer, errors } = setUp('/nonexistent/better-sqlite3');
    expect(await checkpointer.checkpoint()).toBeNull();
    expect(checkpointer.fellBack).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(String(errors[0])).toContain('the main connection checkpoints from now on');
  });

  it('closes its connection so the last close removes the WAL', async () => {
    const { db, file, checkpointer, write } = setUp();
    write(5);
    await checkpointer.checkpoint();
    await checkpointer.close();
    db.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const reader = new SQLite(file, { readonly: true });
    expect(reader.prepare('select count(*) as n from rows').get()).toEqual({ n: 250 });
    reader.close();
  });
});
