import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../protocol/index.js';
import type { RoomLog } from '../../game/rooms/index.js';
import { decodeOutbox } from './envelope.js';
import { ClusterKeys } from './keys.js';
import { relayPublisher } from './relay.js';
import { PlayerRoutes } from './routes.js';

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as RoomLog;

/** A publisher over a fake Redis that records what it was asked to publish, and where. */
function setUp(options: { epoch?: number; localEpoch?: number } = {}) {
  const published: { channel: string; header: Record<string, unknown>; frame: string }[] = [];
  const local: { sessionId: string; header: Record<string, unknown>; frame: string }[] = [];
  const redis = {
    publish: async (channel: string, payload: string) => {
      const decoded = decodeOutbox(Buffer.from(payload))!;
      published.push({ channel, header: decoded.header, frame: decoded.frame.toString() });
      return 1;
    },
  };
  const routes = new PlayerRoutes();
  const state = { epoch: 'epoch' in options ? options.epoch : 4 };
  const ownEpoch = 'localEpoch' in options ? options.localEpoch : state.epoch;
  const publisher = relayPublisher({
    keys: new ClusterKeys('t'),
    redis: redis as never,
    log: silentLog,
    owner: { publishEpoch: () => state.epoch, localEpoch: () => ownEpoch, instancesOf: (_s, playerId) => routes.instancesOf(playerId) },
    instanceId: 'node-1',
    local: { deliver: (sessionId, header, frame) => local.push({ sessionId, header, frame: frame.toString() }) },
  });
  return { published, local, routes, publisher, state };
}

const accepted: ServerMessage = { type: 'answer_accepted', questionId: 'q1', selectedIndex: 2 } as ServerMessage;

describe('the relay publisher', () => {
  it('publishes a broadcast once, on the session channel, naming its origin; the sockets here get it directly', () => {
    const { published, local, publisher } = setUp();
    publisher.toSession('s1', 'audience', { type: 'presence', players: 5 } as ServerMessage);
    const frame = '{"type":"presence","players":5}';
    expect(published).toEqual([{ channel: 't:out:s1', header: { e: 4, k: 'audience', o: 'node-1' }, frame }]);
    expect(local).toEqual([{ sessionId: 's1', header: { e: 4, k: 'audience' }, frame }]);
  });

  it('tags a tick with the question’s clock and a question_end with its close, for the countdown on other instances', () => {
    const { published, local, publisher } = setUp();
    publisher.toSession('s1', 'all', { type: 'timer_tick', questionId: 'q1', timeRemaining: 5, serverTime: 1_000, endsAt: 6_000 });
    publisher.toSession('s1', 'all', { type: 'question_end', questionId: 'q1', correctIndex: 1, distribution: [0, 1, 0, 0] });
    expect(published.map((p) => p.header)).toEqual([
      { e: 4, k: 'all', o: 'node-1', q: ['q1', 1_000, 6_000, 1] },
      { e: 4, k: 'all', o: 'node-1', q: 0 },
    ]);
    expect(local.map((l) => l.header)).toEqual([
      { e: 4, k: 'all', q: ['q1', 1_000, 6_000, 1] },
      { e: 4, k: 'all', q: 0 },
    ]);
  });

  it('gives a player or a socket on its own instance its frames directly, publishing nothing for them', () => {
    const { published, local, publisher, routes } = setUp();
    routes.add('node-1/3', 'p1');
    publisher.toPlayer('s1', 'p1', accepted);
    publisher.toConnection('s1', 'node-1/3', accepted);
    expect(published).toEqual([]);
    expect(local.map((l) => l.header)).toEqual([
      { e: 4, k: 'player', p: 'p1' },
      { e: 4, k: 'conn', c: 'node-1/3' },
    ]);
  });

  it('keeps its own sockets going while its lease has lapsed in a Redis outage (publishing nothing)', () => {
    const { published, local, publisher, routes } = setUp({ epoch: undefined, localEpoch: 4 });
    routes.add('node-2/7', 'p1');
    publisher.toSession('s1', 'all', { type: 'presence', players: 4 } as ServerMessage);
    publisher.toPlayer('s1', 'p1', accepted);
    expect(published).toEqual([]);
    expect(local.map((l) => l.header)).toEqual([{ e: 4, k: 'all' }]);
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
    expect(published).toEqual([{ channel: 't:out:s1', header: { e: 4, k: 'player', p: 'p9', o: 'node-1' }, frame: JSON.stringify(accepted) }]);
  });

  it('sends a reply to one socket to the instance its connection id names', () => {
    const { published, publisher } = setUp();
    publisher.toConnection('s1', 'node-2/17', { type: 'error', message: 'no' } as ServerMessage);
    expect(published).toEqual([{ channel: 't:to:node-2', header: { e: 4, k: 'conn', c: 'node-2/17', s: 's1' }, frame: '{"type":"error","message":"no"}' }]);
  });

  it('publishes nothing while this instance does not run the session', () => {
    const { published, local, publisher, routes } = setUp({ epoch: undefined, localEpoch: undefined });
    routes.add('node-2/7', 'p1');
    publisher.toSession('s1', 'all', accepted);
    publisher.toPlayer('s1', 'p1', accepted);
    publisher.toConnection('s1', 'node-2/7', accepted);
    expect(published).toEqual([]);
    expect(local).toEqual([]);
  });
});
