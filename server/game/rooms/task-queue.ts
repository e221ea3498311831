/**
 * A room's queue: tasks run strictly one after another, so the effects of one engine step (some
 * of them awaited database writes) never interleave with the next.
 */
export class RoomClosedError extends Error {
  constructor(sessionId: string) {
    super(`The room of session ${sessionId} is closed`);
  }
}

export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** Set once the room is disposed: anything queued later is refused with RoomClosedError. */
  closed = false;

  constructor(private readonly sessionId: string) {}

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(() => {
      if (this.closed) throw new RoomClosedError(this.sessionId);
      return task();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves when every task queued so far (and any queued meanwhile) has run. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const tail = this.tail;
      await tail;
      if (tail === this.tail) break;
    }
  }
}
