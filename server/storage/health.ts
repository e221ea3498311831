/**
 * What the database itself has been telling us (DESIGN §16): every storage fault a query or a
 * connection ran into, and every transaction that committed. /readyz reports a fault seen
 * within the last moments even when its own `select 1` works (a full disk refuses writes and
 * still answers reads); the socket endpoint checks reconnecting phones without the database
 * while it is down. Faults of the query (a constraint, a bad value) are not storage faults.
 *
 * A fault is current until a transaction commits, or until FAULT_FRESH_MS passed without another
 * one: a room's writes are retried every few hundred milliseconds while storage is down, so a
 * real outage keeps it fresh, and a lone failed request does not hold the instance unready.
 */
import { storageFaultCause } from './faults.js';

export const FAULT_FRESH_MS = 2_000;

export interface StorageFault {
  /** The short cause ("disk full", "connection refused"). */
  cause: string;
  error: unknown;
  atMs: number;
}

type Listener = (fault: StorageFault | undefined) => void;

export class StorageHealth {
  private last: StorageFault | undefined;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The fault storage is in now, if any. */
  get fault(): StorageFault | undefined {
    if (this.last && this.now() - this.last.atMs > FAULT_FRESH_MS) this.last = undefined;
    return this.last;
  }

  get isDown(): boolean {
    return this.fault !== undefined;
  }

  /** Records `err` if it is a storage fault; returns its cause (undefined: not a storage fault). */
  failed(err: unknown): string | undefined {
    const cause = storageFaultCause(err);
    if (!cause) return undefined;
    const changed = this.fault?.cause !== cause;
    this.last = { cause, error: err, atMs: this.now() };
    if (changed) this.emit(this.last);
    return cause;
  }

  /** Storage takes writes again: a transaction committed, or /readyz's checks passed. */
  recovered(): void {
    if (!this.last) return;
    this.last = undefined;
    this.emit(undefined);
  }

  /** Called on every change: a new fault or cause, or storage back. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(fault: StorageFault | undefined): void {
    for (const listener of this.listeners) listener(fault);
  }
}
