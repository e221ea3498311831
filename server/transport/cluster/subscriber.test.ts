/**
 * The subscriber connection of an instance (node.ts `connectRedis`), against the running Redis
 * through a cuttable proxy: a connection closed just as it comes back after a blip (an instance
 * shutting down then) must leave no promise rejected with nobody listening, which Node treats as
 * a crash. ioredis's own resubscription did (seen once in redis-faults.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomLog } from '../../game/rooms/index.js';
import { CuttableProxy } from '../../testing/cuttable-proxy.js';
import { TEST_REDIS_URL } from '../../testing/redis.js';
import { connectRedis } from './node.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as RoomLog;

describe('the subscriber connection', () => {
  let proxy: CuttableProxy;
  beforeAll(async () => {
    proxy = await CuttableProxy.start(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('closed as it comes back after a blip, leaves no rejected promise behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const subscriber = connectRedis(proxy.url(TEST_REDIS_URL), silentLog, 'subscriber');
    try {
      await subscriber.subscribe('marquee-test:subscriber-blip');
      const closed = new Promise<void>((resolve) => subscriber.once('end', () => resolve()));
      // Back after the blip: closed on the spot, before anything it sends on coming back is answered.
      subscriber.once('ready', () => subscriber.disconnect());
      proxy.resetConnections();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      subscriber.disconnect();
    }
  });
});
