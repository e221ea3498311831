/**
 * SQLite's WAL checkpoints, run on a worker thread instead of inside a commit on the event loop.
 *
 * By default SQLite checkpoints from whichever commit pushes the WAL past 1,000 pages: that commit
 * copies the pages into the database file and fsyncs it, blocking the event loop meanwhile. In an
 * answer burst (thousands of small transactions whose index pages are scattered, since player ids
 * are random) that was a checkpoint every few commits and most of the burst's database time, with
 * stalls of a second when the disk was slow (docs/PERFORMANCE.md). The main connection now never
 * checkpoints; a second connection on a worker thread runs a PASSIVE checkpoint (which never blocks
 * the writer) whenever the WAL has grown past a threshold. If the worker cannot run, the main
 * connection checkpoints by itself again, as before.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { SQLiteDatabase } from './sqlite-driver.js';

/** SQLite's own default threshold (1,000 pages of 4 KiB). */
const DEFAULT_THRESHOLD_BYTES = 4 * 1024 * 1024;
const DEFAULT_CHECK_EVERY_MS = 250;
/** After a reset the WAL file is truncated to this size, so one burst does not keep its disk space. */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const CLOSE_TIMEOUT_MS = 5_000;

export interface CheckpointResult {
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface WalCheckpointerOptions {
  /** Path of the better-sqlite3 build the main thread loaded (the worker loads the same). */
  driverPath: string;
  thresholdBytes?: number;
  checkEveryMs?: number;
  onError?: (err: unknown) => void;
}

// Plain CommonJS, run with `eval`: no separate file to find from the sources (tsx) and from the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driverPath);
const db = new SQLite(workerData.dbPath, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err && err.message || err) });
  }
});
`;

type WorkerReply = { ok: true; log: number; checkpointed: number } | { ok: false; error: string };

export class WalCheckpointer {
  private worker: Worker | null = null;
  private failed = false;
  private running: Promise<CheckpointResult | null> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly walPath: string;
  /**
   * The WAL as it was when a checkpoint then copied every frame: while it is unchanged there is
   * nothing to copy. The file keeps its size after a checkpoint (SQLite reuses it from the start),
   * so without this an idle server checkpointed four times a second after its first burst.
   */
  private caughtUp: { size: number; mtimeMs: number } | null = null;
  /** Checkpoints run on the worker so far. */
  runs = 0;

  constructor(
    private readonly main: SQLiteDatabase,
    private readonly dbPath: string,
    private readonly options: WalCheckpointerOptions,
  ) {
    this.walPath = `${dbPath}-wal`;
    main.pragma('wal_autocheckpoint = 0');
    main.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    this.timer = setInterval(() => this.checkSize(), options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** True once the worker failed and the main connection checkpoints by itself. */
  get fellBack(): boolean {
    return this.failed;
  }

  /** Checkpoints now (after the one running, if any); null when the worker is not available. */
  async checkpoint(): Promise<CheckpointResult | null> {
    while (this.running) await this.running;
    if (this.failed) return null;
    this.running = this.runOnWorker().finally(() => (this.running = null));
    return this.running;
  }

  /** Stops the worker (closing its connection), so the main connection's close is the last one. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    while (this.running) await this.running;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    const timeout = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timeout);
  }

  private checkSize(): void {
    if (this.running || this.failed) return;
    let wal: fs.Stats;
    try {
      wal = fs.statSync(this.walPath);
    } catch {
      return; // no WAL yet
    }
    if (wal.size < (this.options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES)) return;
    const { caughtUp } = this;
    if (caughtUp && caughtUp.size === wal.size && caughtUp.mtimeMs === wal.mtimeMs) return;
    // Read before the checkpoint: a commit during it changes the WAL, and the next check runs again.
    const seen = { size: wal.size, mtimeMs: wal.mtimeMs };
    void this.checkpoint().then((result) => {
      this.caughtUp = result && result.checkpointed === result.log ? seen : null;
    });
  }

  private startWorker(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driverPath: this.options.driverPath, dbPath: this.dbPath } });
    worker.unref();
    worker.on('error', (err) => this.fail(err));
    return worker;
  }

  private runOnWorker(): Promise<CheckpointResult | null> {
    return new Promise((resolve) => {
      let worker: Worker;
      try {
        worker = this.worker ??= this.startWorker();
      } catch (err) {
        this.fail(err);
        resolve(null);
        return;
      }
      const onMessage = (reply: WorkerReply) => {
        worker.off('exit', onExit);
        if (reply.ok) resolve({ log: reply.log, checkpointed: reply.checkpointed });
        else {
          this.options.onError?.(new Error(`WAL checkpoint failed: ${reply.error}`));
          resolve(null);
        }
      };
      const onExit = () => {
        worker.off('message', onMessage);
        resolve(null);
      };
      worker.once('message', onMessage);
      worker.once('exit', onExit);
      this.runs++;
      worker.postMessage('checkpoint');
    });
  }

  /** The worker cannot run: the main connection goes back to checkpointing by itself. */
  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    clearInterval(this.timer);
    this.worker = null;
    try {
      this.main.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // closed meanwhile: nothing left to checkpoint for
    }
    const reason = err instanceof Error ? err.message : String(err);
    this.options.onError?.(new Error(`WAL checkpoint worker failed (${reason}); the main connection checkpoints from now on`));
  }
}
