import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SERVICE_CONNECT_TIMEOUT_MS } from './databases.js';

/** The machine's Redis the multi-instance suites run against (unique key prefixes, never a flush). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export const uniquePrefix = (): string => `mqtest:${randomBytes(6).toString('hex')}`;

/** A client for assertions; closed by the caller. */
export function testRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** Removes every key under a test's prefix (SCAN, never FLUSH). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export async function checkRedis(url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: SERVICE_CONNECT_TIMEOUT_MS });
  // The socket's error (ECONNREFUSED…) arrives as an event; connect() only says "Connection is closed".
  let socketError: Error | undefined;
  redis.on('error', (err: Error) => (socketError ??= err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    const cause = socketError ?? (err as Error);
    throw new Error(`Redis is required for the test suite at ${url}: ${cause.message}`, { cause });
  } finally {
    redis.disconnect();
  }
}
