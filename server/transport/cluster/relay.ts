/**
 * The owner's Broadcaster in multi-instance mode: each message is serialized once and published
 * through Redis for the instances that hold its sockets.
 *
 * - Broadcasts (a question, a tick, a leaderboard) go once on the session's channel: every
 *   instance with sockets of the session is subscribed to it.
 * - A player's own messages (answer_accepted, answer_result, replies) go only on the channel of
 *   each instance holding one of that player's sockets (routes.ts); unknown, on the session's.
 * - A reply to one socket goes on the channel of the instance its connection id names.
 *
 * Order across channels holds: the owner publishes everything on one Redis connection, and each
 * instance receives its session channels and its own channel on one subscriber connection, so
 * Redis hands them over in the order they were published (a socket's first session_state, sent
 * to its instance, still arrives between the broadcasts before and after it).
 */
import type { Redis } from 'ioredis';
import type { ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget } from '../../game/engine/index.js';
import type { Broadcaster, RoomLog } from '../../game/rooms/index.js';
import { encodeOutbox, instanceOf, type OutboxHeader } from './envelope.js';
import type { ClusterKeys } from './keys.js';

export interface RelayOwner {
  /** The epoch to stamp on the session's frames; undefined when this instance must stay silent. */
  publishEpoch(sessionId: string): number | undefined;
  /** The instances holding the player's sockets; undefined when none is known. */
  instancesOf(sessionId: string, playerId: string): Iterable<string> | undefined;
}

export interface RelayDeps {
  keys: ClusterKeys;
  redis: Pick<Redis, 'publish'>;
  owner: RelayOwner;
  log: RoomLog;
}

export function relayPublisher({ keys, redis, owner, log }: RelayDeps): Broadcaster {
  const publish = (sessionId: string, channel: string, header: OutboxHeader, frame: ServerMessage | string) => {
    redis.publish(channel, encodeOutbox(header, frame)).catch((err) => log.warn({ err, sessionId }, 'cluster: publishing a frame failed'));
  };
  return {
    toSession(sessionId: string, target: BroadcastTarget, message: ServerMessage) {
      const e = owner.publishEpoch(sessionId);
      if (e !== undefined) publish(sessionId, keys.outbox(sessionId), { e, k: target }, message);
    },
    toPlayer(sessionId: string, playerId: string, message: ServerMessage) {
      const e = owner.publishEpoch(sessionId);
      if (e === undefined) return;
      const instances = owner.instancesOf(sessionId, playerId);
      if (!instances) {
        publish(sessionId, keys.outbox(sessionId), { e, k: 'player', p: playerId }, message);
        return;
      }
      const frame = JSON.stringify(message);
      for (const instance of instances) publish(sessionId, keys.instanceChannel(instance), { e, k: 'player', p: playerId, s: sessionId }, frame);
    },
    toConnection(sessionId: string, connectionId: string, message: ServerMessage) {
      const e = owner.publishEpoch(sessionId);
      if (e === undefined) return;
      const instance = instanceOf(connectionId);
      if (instance) publish(sessionId, keys.instanceChannel(instance), { e, k: 'conn', c: connectionId, s: sessionId }, message);
      else publish(sessionId, keys.outbox(sessionId), { e, k: 'conn', c: connectionId }, message);
    },
  };
}
