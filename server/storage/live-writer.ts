/**
 * The live game's shared transactions on SQLite, written on a thread of their own.
 *
 * better-sqlite3 is synchronous: on the event loop's connection every commit held every game of
 * the instance for as long as it took, and when the disk was busy (another process writing, a
 * checkpoint's fsync) that was 80–100 ms stretches of nothing: no question went out, no timer
 * fired (docs/PERFORMANCE.md, "A busy disk stops the event loop"). Here a worker thread holds a
 * second connection to the same file and writes each `LiveWork` (live-commit.ts) in one
 * transaction; the event loop only hands it over and, once it is committed, sends the
 * confirmations (DESIGN §8: a confirmation is still a commit). The answer log's bookkeeping stays
 * with the event loop's connection (scores.ts): the work carries the rowids to settle, the reply
 * the rowids logged.
 *
 * Two connections write the file, so every transaction begins IMMEDIATE (a deferred one that read
 * before the other's commit could not write after it) and waits up to the busy timeout for the
 * other's. If the thread cannot start or dies, the writer stops and the live writes go back to the
 * event loop's connection, as before.
 */
import { Worker } from 'node:worker_threads';
import type { LiveWork, LogChanges } from './live-commit.js';
import { configureConnection, type SQLite as SQLiteConstructor, type SQLiteDatabase } from './sqlite-driver.js';

const CLOSE_TIMEOUT_MS = 5_000;

export type WriterRequest = { type: 'write'; id: number; work: LiveWork } | { type: 'close' };
export type WriterReply = { id: number; changes: LogChanges } | { id: number; error: { message: string; code?: string } };

/** The writer thread's connection: the event loop's settings, and no checkpoints of its own (wal-checkpointer.ts runs them). */
export function openLiveWriterConnection(SQLite: typeof SQLiteConstructor, dbPath: string): SQLiteDatabase {
  const sqlite = new SQLite(dbPath, { fileMustExist: true });
  configureConnection(sqlite);
  sqlite.pragma('wal_autocheckpoint = 0');
  return sqlite;
}

/** An error as the writer thread saw it: SQLite's code kept, so StorageHealth names the fault (faults.ts). */
export class LiveWriteError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'LiveWriteError';
  }
}

export class LiveWriter {
  private worker: Worker | null = null;
  private failed = false;
  /** The thread has opened its connection: `write` goes to it (unless it failed since, or the writer is closed). */
  private opened = false;
  private closed = false;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (changes: LogChanges) => void; reject: (err: Error) => void }>();

  constructor(
    private readonly dbPath: string,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** True once the thread is up and while it runs; false while it starts, once it failed, and once closed: write on the event loop's connection. */
  get available(): boolean {
    return this.opened && !this.failed && !this.closed;
  }

  /**
   * Starts the thread if it is not running. Until it is up (`available`), the live writes go on
   * the event loop's connection: a thread took up to 3 s to start on a loaded machine, and a
   * game's first commit must not wait for it.
   */
  warm(): void {
    if (this.worker || this.failed || this.closed) return;
    try {
      this.worker = this.start();
    } catch (err) {
      this.fail(err);
    }
  }

  /** Writes `work` in one transaction on the writer's thread; resolves once it is committed. */
  write(work: LiveWork): Promise<LogChanges> {
    return new Promise<LogChanges>((resolve, reject) => {
      if (this.failed || this.closed) {
        reject(new Error('the live writer thread is not running'));
        return;
      }
      let worker: Worker;
      try {
        worker = this.worker ??= this.start();
      } catch (err) {
        this.fail(err);
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      // Kept alive while a commit is on its way: a confirmation must not be lost to an idle exit.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ type: 'write', id, work } satisfies WriterRequest);
    });
  }

  /** Lets the commits on their way finish, then closes the thread's connection. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Messages are handled in order: the close comes after every write posted before it.
    worker.postMessage({ type: 'close' } satisfies WriterRequest);
    const timeout = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timeout);
  }

  private start(): Worker {
    // From the build a .js beside this file; from the sources (tests, tsx) the .ts, through tsx.
    const fromSources = import.meta.url.endsWith('.ts');
    const worker = new Worker(new URL(fromSources ? './live-writer-worker.ts' : './live-writer-worker.js', import.meta.url), {
      workerData: { dbPath: this.dbPath },
      execArgv: fromSources ? ['--import', 'tsx'] : [],
    });
    worker.unref();
    worker.on('message', (reply: WriterReply | 'open') => {
      if (reply === 'open') this.opened = true;
      else this.replied(worker, reply);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', () => {
      if (this.pending.size > 0) this.fail(new Error('the live writer thread exited'));
    });
    return worker;
  }

  private replied(worker: Worker, reply: WriterReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) worker.unref();
    if ('changes' in reply) waiting.resolve(reply.changes);
    else waiting.reject(new LiveWriteError(reply.error.message, reply.error.code));
  }

  /** The thread cannot run: whatever was on its way is refused (and retried by the rooms), later work goes to the event loop's connection. */
  private fail(err: unknown): void {
    const first = !this.failed;
    this.failed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) void worker.terminate();
    const refused = new Error(`the live writer thread stopped: ${err instanceof Error ? err.message : String(err)}`);
    for (const { reject } of this.pending.values()) reject(refused);
    this.pending.clear();
    if (first) this.onError(err);
  }
}
