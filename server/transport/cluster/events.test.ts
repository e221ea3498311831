/**
 * Lifecycle events between instances (events.ts), two instances' event relays on the machine's
 * Redis under a unique prefix: each emits its own events at once and reads the others' in order,
 * including after the stream vanished (Redis restarted empty) or came back with lower ids.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RoomLog } from '../../game/rooms/index.js';
import type { LifecycleEvents } from '../../domain/sessions/lifecycle.js';
import { dropPrefix, testRedis, uniquePrefix } from '../../testing/redis.js';
import { ClusterEvents } from './events.js';
import { ClusterKeys } from './keys.js';
import { waitUntil } from './testing/cluster.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as RoomLog;

interface Instance {
  source: EventEmitter<LifecycleEvents>;
  events: ClusterEvents;
  seen: string[];
}

describe('lifecycle events across instances (real Redis)', () => {
  const redis = testRedis();
  let keys: ClusterKeys;
  let prefix: string;
  const open: { instance: Instance; connections: Redis[] }[] = [];

  function instance(origin: string): Instance {
    const connections = [testRedis(), testRedis()];
    const source = new EventEmitter<LifecycleEvents>();
    const events = new ClusterEvents({ keys, redis: connections[0], reader: connections[1], origin, log: silentLog }, source);
    const seen: string[] = [];
    for (const name of ['started', 'stopped', 'changed', 'updated', 'deleted'] as const) events.on(name, (id) => seen.push(`${name} ${id}`));
    events.on('winners', (id, w) => seen.push(`winners ${id} ${w.names.join('+')}`));
    events.start();
    const made = { source, events, seen };
    open.push({ instance: made, connections });
    return made;
  }

  beforeEach(() => {
    prefix = uniquePrefix();
    keys = new ClusterKeys(prefix);
  });
  afterEach(async () => {
    for (const { instance: i, connections } of open.splice(0)) {
      i.events.close();
      for (const c of connections) c.disconnect();
    }
    await dropPrefix(redis, prefix);
  });
  afterAll(() => redis.quit());

  it('the instance where it happened emits at once; the others get it once, in order', async () => {
    const a = instance('a:1');
    const b = instance('b:1');
    await Promise.all([a.events.ready, b.events.ready]);
    a.source.emit('updated', 's1');
    expect(a.seen).toEqual(['updated s1']); // synchronously, Redis or not
    a.source.emit('deleted', 's2');
    b.source.emit('changed', 's3');
    a.source.emit('winners', 's1', { prize: 'Popcorn', names: ['Ada', 'Bo'] });
    expect(b.seen).toEqual(['changed s3']);
    await waitUntil('B read what A did', () => b.seen.length === 4);
    await waitUntil('A read what B did', () => a.seen.length === 4);
    expect(b.seen).toEqual(['changed s3', 'updated s1', 'deleted s2', 'winners s1 Ada+Bo']);
    expect(a.seen).toEqual(['updated s1', 'deleted s2', 'winners s1 Ada+Bo', 'changed s3']);
  });

  it('an instance reads what was appended before it could read, after Redis lost the stream, and after it came back with lower ids', { timeout: 20_000 }, async () => {
    const a = instance('a:1');
    const b = instance('b:1');
    await Promise.all([a.events.ready, b.events.ready]);
    a.source.emit('started', 's1');
    await waitUntil('B has the first event', () => b.seen.length === 1);

    // Redis restarted empty: the stream is gone; what A appends next creates it again.
    await redis.del(keys.lifecycle);
    a.source.emit('stopped', 's1');
    await waitUntil('B has the event in the new stream', () => b.seen.length === 2);

    // ...and once with its clock behind: the new entries' ids are lower than the last one B read.
    await redis.del(keys.lifecycle);
    await redis.xadd(keys.lifecycle, '1-1', 'm', JSON.stringify({ event: 'deleted', args: ['s9'], o: 'c:1' }));
    // Each instance reads on its own: A (whose own events these were not) may come after B.
    await waitUntil('both have the event with a lower id', () => b.seen.length === 3 && a.seen.length === 3, 15_000);
    expect(b.seen).toEqual(['started s1', 'stopped s1', 'deleted s9']);
    expect(a.seen).toEqual(['started s1', 'stopped s1', 'deleted s9']);
  });
});
