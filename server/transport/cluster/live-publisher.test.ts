/**
 * The Live now panel's figures across instances (DESIGN §18): each instance publishes its games
 * into one Redis hash, any instance reads them all. Real Redis: the shared one for the normal
 * cases, a test's own (OwnRedis) for the outage, so that no other suite's Redis is paused.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoomSummary } from '../../game/rooms/index.js';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { LIVE_FORGET_MS, LIVE_PUBLISH_SOON_MS, LIVE_READ_TIMEOUT_MS, LIVE_STALE_MS, type LivePublisher, startLivePublisher } from './live-publisher.js';
import { OwnRedis } from './testing/redis-server.js';

const game = (sessionId: string, phones: number): RoomSummary => ({ sessionId, item: 'question', questionNumber: 1, questions: 3, phones, displays: 1, answered: 0, reconnectsLastMinute: 0 });
const quietLog = { warn: () => undefined };

describe('live games published across instances (real Redis)', () => {
  const redis = testRedis();
  let prefix: string;
  const started: LivePublisher[] = [];
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    for (const publisher of started.splice(0)) await publisher.stop();
    await dropPrefix(redis, prefix);
  });
  afterAll(() => redis.quit());

  /** An instance whose clock reads `redisNow()`: Redis's clock, as RedisClock measures it. */
  function instance(instanceId: string, games: RoomSummary[], redisNow: () => number): LivePublisher {
    const publisher = startLivePublisher({ redis, keys: { liveGames: `${prefix}:live` }, instanceId, rooms: { summaries: () => games }, log: quietLog, now: redisNow });
    started.push(publisher);
    return publisher;
  }

  const field = async (instanceId: string) => redis.hget(`${prefix}:live`, instanceId);

  it("any instance lists every instance's games, its own from memory", async () => {
    // A clock far from this machine's: if anything judged by Date.now(), every entry would be stale.
    const redisNow = () => 1_000_000;
    const mine = [game('s-1', 10)];
    const a = instance('i-a', mine, redisNow);
    instance('i-b', [game('s-2', 20), game('s-3', 30)], redisNow);
    await expect.poll(() => field('i-b')).not.toBeNull();
    mine.push(game('s-4', 40)); // taken up since a's last publish: read from its memory
    const listed = await a.read();
    expect(listed.map((g) => g.sessionId).sort()).toEqual(['s-1', 's-2', 's-3', 's-4']);
    expect(listed.find((g) => g.sessionId === 's-3')?.phones).toBe(30);
  });

  it('publishes games taken up at once, many at a time in one write, and nothing once stopped', async () => {
    let writes = 0;
    const counting = { status: redis.status, hgetall: redis.hgetall.bind(redis), hdel: redis.hdel.bind(redis), hset: ((...args: Parameters<typeof redis.hset>) => (writes++, redis.hset(...args))) as typeof redis.hset };
    const games: RoomSummary[] = [];
    const publisher = startLivePublisher({ redis: counting, keys: { liveGames: `${prefix}:live` }, instanceId: 'i-a', rooms: { summaries: () => games }, log: quietLog, now: () => 3_000_000 });
    started.push(publisher);
    expect(writes).toBe(0); // nothing to tell yet
    // A hundred games taken up in one stretch (an instance's start, a takeover).
    for (let i = 0; i < 100; i++) {
      games.push(game(`s-${i}`, i));
      publisher.publishSoon();
    }
    await expect.poll(() => field('i-a')).not.toBeNull();
    expect(writes).toBe(1);
    expect((JSON.parse((await field('i-a'))!) as { games: unknown[] }).games).toHaveLength(100);

    // Stopped (the instance shuts down, its entry removed): a room closing late writes nothing back.
    await publisher.stop();
    publisher.publishSoon();
    // A timer due later than the publish's: it fires after it, however busy the machine.
    await new Promise((resolve) => setTimeout(resolve, LIVE_PUBLISH_SOON_MS * 4));
    expect(writes).toBe(1);
    expect(await field('i-a')).toBeNull();
  });

  it('shows a game two instances report (a takeover) once, with the newer figures', async () => {
    const redisNow = () => 2_000_000;
    const reader = instance('i-reader', [], redisNow);
    const key = `${prefix}:live`;
    // c took s-1 over from b, which has not published since; then another instance takes s-2 from c.
    await redis.hset(key, 'i-b', JSON.stringify({ atMs: 2_000_000 - 1_500, games: [game('s-1', 9)] }));
    await redis.hset(key, 'i-c', JSON.stringify({ atMs: 2_000_000 - 100, games: [game('s-1', 12), game('s-2', 5)] }));
    expect((await reader.read()).map((g) => [g.sessionId, g.phones])).toEqual([
      ['s-1', 12],
      ['s-2', 5],
    ]);
    const readerGames = [game('s-2', 6)];
    const taker = instance('i-taker', readerGames, redisNow);
    expect((await taker.read()).map((g) => [g.sessionId, g.phones]).sort()).toEqual([
      ['s-1', 12],
      ['s-2', 6],
    ]);
  });

  it("judges an entry's age by Redis's clock; forgets an instance silent for a minute", async () => {
    let redisMs = 5_000_000;
    const redisNow = () => redisMs;
    const reader = instance('i-reader', [], redisNow);
    const b = instance('i-b', [game('s-b', 5)], redisNow);
    await expect.poll(() => field('i-b')).not.toBeNull();
    // Fresh by Redis's clock, whatever this machine's says.
    expect((await reader.read()).map((g) => g.sessionId)).toEqual(['s-b']);
    // b's instance dies without a word (stop would remove its field: it is written back instead).
    const last = await field('i-b');
    await b.stop();
    await redis.hset(`${prefix}:live`, 'i-b', last!);
    redisMs += LIVE_STALE_MS + 1;
    expect(await reader.read()).toEqual([]);
    expect(await field('i-b')).not.toBeNull(); // stale, not yet forgotten: it may be back
    redisMs += LIVE_FORGET_MS;
    expect(await reader.read()).toEqual([]);
    await expect.poll(() => field('i-b')).toBeNull();
  });
});

describe('live games while Redis is away (a Redis of the test’s own)', () => {
  let own: OwnRedis;
  let client: Redis;
  let publisher: LivePublisher | undefined;
  beforeEach(async () => {
    own = await OwnRedis.start();
    client = new Redis(own.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    await client.ping();
  });
  afterEach(async () => {
    await publisher?.stop();
    client.disconnect();
    await own.kill();
  });

  const startOn = (games: RoomSummary[]) =>
    (publisher = startLivePublisher({ redis: client, keys: { liveGames: 'live' }, instanceId: 'i-a', rooms: { summaries: () => games }, log: quietLog, now: () => Date.now() }));

  it('answers from its own games at once when Redis is down', async () => {
    await client.hset('live', 'i-b', JSON.stringify({ atMs: Date.now(), games: [game('s-b', 3)] }));
    const a = startOn([game('s-a', 7)]);
    await own.kill();
    await expect.poll(() => client.status, { timeout: 5_000 }).not.toBe('ready');
    // Answered without waiting for Redis (a command queued for it would wait until it is back).
    const read = a.read().then((games) => games.map((g) => g.sessionId));
    const waited = new Promise((resolve) => setTimeout(resolve, 5_000, 'still waiting'));
    expect(await Promise.race([read, waited])).toEqual(['s-a']);
  });

  it('gives up on a Redis that is connected but does not answer, and reads all again once it does', async () => {
    await client.hset('live', 'i-b', JSON.stringify({ atMs: Date.now(), games: [game('s-b', 3)] }));
    const a = startOn([game('s-a', 7)]);
    // Every client's commands held (a Redis stuck behind a slow command or a full network buffer).
    const admin = new Redis(own.url);
    await admin.call('CLIENT', 'PAUSE', '10000', 'ALL');
    const startedAt = performance.now();
    expect((await a.read()).map((g) => g.sessionId)).toEqual(['s-a']);
    // It waited its timeout, not the pause's 10 s.
    const tookMs = performance.now() - startedAt;
    expect(tookMs).toBeGreaterThanOrEqual(LIVE_READ_TIMEOUT_MS - 5);
    expect(tookMs).toBeLessThan(8_000);
    await admin.call('CLIENT', 'UNPAUSE');
    admin.disconnect();
    // b has published meanwhile (its entry from before the pause is stale by now).
    await client.hset('live', 'i-b', JSON.stringify({ atMs: Date.now(), games: [game('s-b', 3)] }));
    await expect.poll(async () => (await a.read()).map((g) => g.sessionId).sort()).toEqual(['s-a', 's-b']);
  });
});
