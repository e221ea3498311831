import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { InboxReader, type StreamEntries } from './inbox-reader.js';

const BLOCK_MS = 5_000;

describe('one inbox reader per instance (real Redis)', () => {
  const redis = testRedis();
  let prefix: string;
  let reader: InboxReader | undefined;
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    reader?.close();
    await dropPrefix(redis, prefix);
  });
  afterAll(() => redis.quit());

  function start(consumer: string) {
    const got: { sessionId: string; messages: string[]; atMs: number }[] = [];
    const errors: unknown[] = [];
    reader = new InboxReader({
      connect: () => redis.duplicate(),
      redis,
      group: 'owner',
      consumer,
      count: 100,
      blockMs: BLOCK_MS,
      onEntries: (sessionId: string, entries: StreamEntries) =>
        got.push({ sessionId, messages: entries.map(([, fields]) => fields[1]), atMs: Date.now() }),
      onError: (err) => errors.push(err),
    });
    return { reader, got, errors };
  }

  const until = async (check: () => boolean, ms = 3_000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('reads every session on one connection; a session added or removed during a blocked read takes effect at once', async () => {
    const stream = (s: string) => `${prefix}:in:${s}`;
    // A previous owner read one entry of s1 and died before acknowledging it.
    await redis.xgroup('CREATE', stream('s1'), 'owner', '0', 'MKSTREAM');
    await redis.xadd(stream('s1'), '*', 'm', 'left pending');
    await redis.xreadgroup('GROUP', 'owner', 'dead', 'COUNT', 10, 'STREAMS', stream('s1'), '>');
    await redis.xadd(stream('s1'), '*', 'm', 'after it');

    const { reader, got, errors } = start('me');
    reader.add('s1', stream('s1'));
    await until(() => got.flatMap((g) => g.messages).length === 2);
    // The pending entry first, then the newer one.
    expect(got.flatMap((g) => g.messages)).toEqual(['left pending', 'after it']);

    // The read is blocked on s1 now; s2 joins and its entry arrives long before the block time.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const addedAt = Date.now();
    reader.add('s2', stream('s2'));
    await redis.xadd(stream('s2'), '*', 'm', 'for s2');
    await until(() => got.some((g) => g.sessionId === 's2'));
    expect(got.find((g) => g.sessionId === 's2')!.atMs - addedAt).toBeLessThan(BLOCK_MS / 2);

    // s1 is let go: what arrives for it afterwards is left to the next owner.
    reader.remove(stream('s1'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await redis.xadd(stream('s1'), '*', 'm', 'for the next owner');
    await redis.xadd(stream('s2'), '*', 'm', 'still mine');
    await until(() => got.some((g) => g.messages.includes('still mine')));
    expect(got.flatMap((g) => g.messages)).not.toContain('for the next owner');
    const next = (await redis.xreadgroup('GROUP', 'owner', 'next', 'COUNT', 10, 'STREAMS', stream('s1'), '>')) as [string, StreamEntries][];
    expect(next[0][1].map(([, fields]) => fields[1])).toEqual(['for the next owner']);
    expect(errors).toEqual([]);
  });
});
