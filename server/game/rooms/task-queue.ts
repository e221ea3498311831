/**
 * A room's queue: tasks run strictly one after another, so the effects of one engine step (some
 * of them awaited database writes) never interleave with the next.
 *
 * Most tasks are a socket's event (`post`): nobody waits for them, and most finish without
 * awaiting anything (an answer's step only hands its write to the group commit). Those run back to
 * back in one microtask, without a promise each: a promise chain per event was three promises and
 * as many microtask jobs per answer, at 1,000 sessions a good part of a round's garbage (issue
 * 26). A task never runs inside the call that queued it, always after the current synchronous code.
 */
export class RoomClosedError extends Error {
  constructor(sessionId: string) {
    super(`The room of session ${sessionId} is closed`);
  }
}

interface Entry {
  task: (arg: unknown, stamp: number) => unknown;
  /** Handed to `task` (`arg` to `reject` too): a posted event rides in its entry, not in a closure made for it. */
  arg: unknown;
  stamp: number;
  /** Set for `run`: its caller's promise. */
  resolve: ((value: unknown) => void) | null;
  reject: (err: unknown, arg: unknown) => void;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';

export class TaskQueue {
  /**
   * Queued from `head` to `tail`; taken ones are cleared (undefined) so they can be collected. The
   * array is reused from drain to drain (its slots overwritten, not released): a room's queue
   * mostly holds one event at a time, and an array per drain was a good part of its garbage.
   */
  private entries: (Entry | undefined)[] = [];
  private head = 0;
  private tail = 0;
  /** A drain is scheduled or running (including a task's promise awaited). */
  private busy = false;
  private idleWaiters: (() => void)[] = [];
  /** Set once the room is disposed: anything queued later is refused with RoomClosedError. */
  closed = false;

  constructor(private readonly sessionId: string) {}

  /** Queues a task; the promise settles with its outcome. */
  run<T>(task: () => Promise<T> | T): Promise<T> {
    return new Promise<T>((resolve, reject) => this.push({ task, arg: undefined, stamp: 0, resolve: resolve as (value: unknown) => void, reject }));
  }

  /**
   * Queues `task(arg, stamp)`, which nobody waits for; `onError` gets what it throws (or
   * RoomClosedError) and the same `arg`. Both are meant to be made once per room, not per event: a
   * room posts every answer, and two closures per event were most of the queue's garbage (issue 26).
   */
  post<A>(task: (arg: A, stamp: number) => unknown, arg: A, stamp: number, onError: (err: unknown, arg: A) => void): void {
    this.push({ task: task as Entry['task'], arg, stamp, resolve: null, reject: onError as Entry['reject'] });
  }

  /** Resolves when every task queued so far (and any queued meanwhile) has run. */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private push(entry: Entry): void {
    // Drained down to nothing after every burst; compacted too should one never end.
    if (this.head > 1024 && this.head * 2 > this.tail) {
      this.entries = this.entries.slice(this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
    this.entries[this.tail++] = entry;
    if (this.busy) return;
    this.busy = true;
    queueMicrotask(this.drain);
  }

  private readonly drain = (): void => {
    for (;;) {
      if (this.head === this.tail) {
        this.head = 0;
        this.tail = 0;
        this.busy = false;
        if (this.idleWaiters.length > 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
        return;
      }
      const entry = this.entries[this.head]!;
      this.entries[this.head++] = undefined;
      let result: unknown;
      try {
        if (this.closed) throw new RoomClosedError(this.sessionId);
        result = entry.task(entry.arg, entry.stamp);
      } catch (err) {
        entry.reject(err, entry.arg);
        // A caller's continuation runs before the next task, as it would after an awaited task.
        if (entry.resolve) return queueMicrotask(this.drain);
        continue;
      }
      if (isThenable(result)) {
        result.then(
          (value) => {
            entry.resolve?.(value);
            queueMicrotask(this.drain);
          },
          (err: unknown) => {
            entry.reject(err, entry.arg);
            queueMicrotask(this.drain);
          },
        );
        return;
      }
      if (entry.resolve) {
        entry.resolve(result);
        return queueMicrotask(this.drain);
      }
    }
  };
}
