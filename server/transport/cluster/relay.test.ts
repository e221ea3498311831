import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../protocol/index.js';
import type { RoomLog } from '../../game/rooms/index.js';
import { decodeOutbox } from './envelope.js';
import { ClusterKeys } from './keys.js';
import { relayPublisher } from './relay.js';
import { PlayerRoutes } from './routes.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as RoomLog;

/** A publisher over a fake Redis that records what it was asked to publish, and where. */
function setUp(options: { epoch?: number } = {}) {
  const published: { channel: string; header: Record<string, unknown>; frame: string }[] = [];
  const redis = {
    publish: async (channel: string, payload: string) => {
      const decoded = decodeOutbox(Buffer.from(payload))!;
      published.push({ channel, header: decoded.header, frame: decoded.frame.toString() });
      return 1;
    },
  };
  const routes = new PlayerRoutes();
  const state = { epoch: 'epoch' in options ? options.epoch : 4 };
  const publisher = relayPublisher({
    keys: new ClusterKeys('t'),
    redis: redis as never,
    log: silentLog,
    owner: { publishEpoch: () => state.epoch, instancesOf: (_s, playerId) => routes.instancesOf(playerId) },
  });
  return { published, routes, publisher, state };
}

const accepted: ServerMessage = { type: 'answer_accepted', questionId: 'q1', selectedIndex: 2 } as ServerMessage;

describe('the relay publisher', () => {
  it('publishes a broadcast once, on the session channel', () => {
    const { published, publisher } = setUp();
    publisher.toSession('s1', 'audience', { type: 'timer_tick', timeRemaining: 5 } as ServerMessage);
    expect(published).toEqual([{ channel: 't:out:s1', header: { e: 4, k: 'audience' }, frame: '{"type":"timer_tick","timeRemaining":5}' }]);
  });

  it('sends a player’s own message only to the instances holding that player’s sockets, the same bytes to each', () => {
    const { published, publisher, routes } = setUp();
    routes.add('node-2/7', 'p1');
    routes.add('node-3/9', 'p1');
    routes.add('node-1/1', 'p2');
    publisher.toPlayer('s1', 'p1', accepted);
    expect(published.map((p) => p.channel).sort()).toEqual(['t:to:node-2', 't:to:node-3']);
    for (const p of published) {
      expect(p.header).toEqual({ e: 4, k: 'player', p: 'p1', s: 's1' });
      expect(p.frame).toBe(JSON.stringify(accepted));
    }
  });

  it('follows a reconnect to another instance', () => {
    const { published, publisher, routes } = setUp();
    routes.add('node-1/1', 'p1');
    routes.remove('node-1/1');
    routes.add('node-3/2', 'p1');
    publisher.toPlayer('s1', 'p1', accepted);
    expect(published.map((p) => p.channel)).toEqual(['t:to:node-3']);
  });

  it('falls back to the session channel for a player with no known socket (nothing is lost)', () => {
    const { published, publisher } = setUp();
    publisher.toPlayer('s1', 'p9', accepted);
    expect(published).toEqual([{ channel: 't:out:s1', header: { e: 4, k: 'player', p: 'p9' }, frame: JSON.stringify(accepted) }]);
  });

  it('sends a reply to one socket to the instance its connection id names', () => {
    const { published, publisher } = setUp();
    publisher.toConnection('s1', 'node-2/17', { type: 'error', message: 'no' } as ServerMessage);
    expect(published).toEqual([{ channel: 't:to:node-2', header: { e: 4, k: 'conn', c: 'node-2/17', s: 's1' }, frame: '{"type":"error","message":"no"}' }]);
  });

  it('publishes nothing while this instance may not (not the owner, or its lease ran out)', () => {
    const { published, publisher, routes } = setUp({ epoch: undefined });
    routes.add('node-2/7', 'p1');
    publisher.toSession('s1', 'all', accepted);
    publisher.toPlayer('s1', 'p1', accepted);
    publisher.toConnection('s1', 'node-2/7', accepted);
    expect(published).toEqual([]);
  });
});
