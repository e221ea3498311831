import { describe, expect, it } from 'vitest';
import { RoomClosedError, TaskQueue } from './task-queue.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TaskQueue', () => {
  it('runs tasks one after another, never inside the call that queued them, an awaited one before the next', async () => {
    const queue = new TaskQueue('s');
    const log: string[] = [];
    let release!: () => void;
    queue.post(() => log.push('a'), undefined, 0, () => undefined);
    expect(log).toEqual([]); // not run inside post
    const slow = queue.run(async () => {
      log.push('b start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('b end');
      return 42;
    });
    queue.post(() => log.push('c'), undefined, 0, () => undefined);
    await tick();
    expect(log).toEqual(['a', 'b start']);
    release();
    expect(await slow).toBe(42);
    await queue.whenIdle();
    expect(log).toEqual(['a', 'b start', 'b end', 'c']);
  });

  it("lets a run() caller's continuation go before the next task", async () => {
    const queue = new TaskQueue('s');
    const log: string[] = [];
    const first = queue.run(() => 'one').then((value) => log.push(`caller saw ${value}`));
    queue.post(() => log.push('next task'), undefined, 0, () => undefined);
    await first;
    await queue.whenIdle();
    expect(log).toEqual(['caller saw one', 'next task']);
  });

  it('hands errors to their own task and goes on with the next', async () => {
    const queue = new TaskQueue('s');
    const errors: unknown[] = [];
    queue.post(() => {
      throw new Error('sync');
    }, undefined, 0, (err) => errors.push(err));
    queue.post(() => Promise.reject(new Error('async')), undefined, 0, (err) => errors.push(err));
    const after = queue.run(() => 'still runs');
    await expect(queue.run(() => Promise.reject(new Error('awaited')))).rejects.toThrow('awaited');
    expect(await after).toBe('still runs');
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync', 'async']);
  });

  it('refuses tasks once closed', async () => {
    const queue = new TaskQueue('s');
    queue.closed = true;
    const errors: unknown[] = [];
    queue.post(() => 'never', undefined, 0, (err) => errors.push(err));
    await expect(queue.run(() => 'never')).rejects.toBeInstanceOf(RoomClosedError);
    expect(errors[0]).toBeInstanceOf(RoomClosedError);
  });

  it('keeps order across thousands of tasks queued while one waits (the queue compacts as it goes)', async () => {
    const queue = new TaskQueue('s');
    const seen: number[] = [];
    let release!: () => void;
    queue.post(() => new Promise<void>((resolve) => (release = resolve)), undefined, 0, () => undefined);
    const later = (i: number) => queue.post((n) => seen.push(n), i, 0, () => undefined);
    for (let i = 0; i < 3000; i++) {
      queue.post(() => {
        seen.push(i);
        // Two thirds in, more are queued behind the rest: the run so far is dropped from the queue.
        if (i === 2000) for (let j = 3000; j < 4000; j++) later(j);
        // Every 500th waits a turn, while more are queued behind it.
        if (i % 500 === 0) return new Promise<void>((resolve) => setImmediate(resolve));
        return undefined;
      }, undefined, 0, () => undefined);
    }
    await tick();
    release();
    await queue.whenIdle();
    expect(seen).toEqual(Array.from({ length: 4000 }, (_, i) => i));
  });

  it('whenIdle waits for tasks queued meanwhile', async () => {
    const queue = new TaskQueue('s');
    const log: string[] = [];
    queue.post(async () => {
      await tick();
      queue.post(() => log.push('queued meanwhile'), undefined, 0, () => undefined);
    }, undefined, 0, () => undefined);
    await queue.whenIdle();
    expect(log).toEqual(['queued meanwhile']);
    await expect(queue.whenIdle()).resolves.toBeUndefined();
  });

  it('hands a posted task its own argument and stamp, and the argument to its error handler', async () => {
    const queue = new TaskQueue('s');
    const seen: string[] = [];
    const failed: string[] = [];
    // One task and one handler for every post, as a room makes them.
    const task = (name: string, stamp: number) => {
      if (name === 'bad') throw new Error('refused');
      seen.push(`${name}@${stamp}`);
    };
    const onError = (err: unknown, name: string) => failed.push(`${name}: ${(err as Error).message}`);
    queue.post(task, 'first', 10, onError);
    queue.post(task, 'bad', 20, onError);
    queue.post(task, 'third', 30, onError);
    await queue.whenIdle();
    expect(seen).toEqual(['first@10', 'third@30']);
    expect(failed).toEqual(['bad: refused']);
  });

  it('runs what is posted after it went idle, in order, again and again', async () => {
    const queue = new TaskQueue('s');
    const seen: number[] = [];
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 3; i++) queue.post((n) => seen.push(n), burst * 3 + i, 0, () => undefined);
      await queue.whenIdle();
      expect(seen).toEqual(Array.from({ length: (burst + 1) * 3 }, (_, i) => i));
    }
  });
});
