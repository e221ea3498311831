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
 * The sockets on the owner's own instance get every frame directly (`local`), without Redis: its
 * phones keep the countdown, their answers and the reveal through a Redis outage (DESIGN §16).
 * Frames published on a channel this instance hears too name it as their origin (`o`), and its
 * edge drops them there, so no socket gets a frame twice.
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
import { questionClockOf } from './edge-ticks.js';
import { encodeOutbox, instanceOf, type OutboxHeader } from './envelope.js';
import type { ClusterKeys } from './keys.js';

export interface RelayOwner {
  /** The epoch to stamp on the session's frames; undefined when this instance must stay silent. */
  publishEpoch(sessionId: string): number | undefined;
  /** The epoch while this instance runs the session, even with its lease lapsed in a Redis outage (the database fences it); undefined otherwise. */
  localEpoch(sessionId: string): number | undefined;
  /** The instances holding the player's sockets; undefined when none is known. */
  instancesOf(sessionId: string, playerId: string): Iterable<string> | undefined;
}

/** This instance's sockets (edge.ts): an owner's frame written to them as if it came through Redis. */
export interface LocalFrames {
  deliver(sessionId: string, header: OutboxHeader, frame: Buffer): void;
}

export interface RelayDeps {
  keys: ClusterKeys;
  redis: Pick<Redis, 'publish'>;
  owner: RelayOwner;
  log: RoomLog;
  instanceId: string;
  local: LocalFrames;
}

export function relayPublisher({ keys, redis, owner, log, instanceId, local }: RelayDeps): Broadcaster {
  const publish = (sessionId: string, channel: string, header: OutboxHeader, frame: string) => {
    redis.publish(channel, encodeOutbox(header, frame)).catch((err) => log.warn({ err, sessionId }, 'cluster: publishing a frame failed'));
  };
  return {
    toSession(sessionId: string, target: BroadcastTarget, message: ServerMessage) {
      const own = owner.localEpoch(sessionId);
      if (own === undefined) return;
      const frame = JSON.stringify(message);
      const q = questionClockOf(message);
      local.deliver(sessionId, { e: own, k: target, q }, Buffer.from(frame));
      const e = owner.publishEpoch(sessionId);
      if (e !== undefined) publish(sessionId, keys.outbox(sessionId), { e, k: target, o: instanceId, q }, frame);
    },
    toPlayer(sessionId: string, playerId: string, message: ServerMessage) {
      const own = owner.localEpoch(sessionId);
      if (own === undefined) return;
      const frame = JSON.stringify(message);
      const instances = owner.instancesOf(sessionId, playerId);
      const e = owner.publishEpoch(sessionId);
      if (!instances) {
        local.deliver(sessionId, { e: own, k: 'player', p: playerId }, Buffer.from(frame));
        if (e !== undefined) publish(sessionId, keys.outbox(sessionId), { e, k: 'player', p: playerId, o: instanceId }, frame);
        return;
      }
      for (const instance of instances) {
        if (instance === instanceId) local.deliver(sessionId, { e: own, k: 'player', p: playerId }, Buffer.from(frame));
        else if (e !== undefined) publish(sessionId, keys.instanceChannel(instance), { e, k: 'player', p: playerId, s: sessionId }, frame);
      }
    },
    toConnection(sessionId: string, connectionId: string, message: ServerMessage) {
      const own = owner.localEpoch(sessionId);
      if (own === undefined) return;
      const frame = JSON.stringify(message);
      const instance = instanceOf(connectionId);
      if (instance === instanceId) {
        local.deliver(sessionId, { e: own, k: 'conn', c: connectionId }, Buffer.from(frame));
        return;
      }
      const e = owner.publishEpoch(sessionId);
      if (e === undefined) return;
      if (instance) publish(sessionId, keys.instanceChannel(instance), { e, k: 'conn', c: connectionId, s: sessionId }, frame);
      else publish(sessionId, keys.outbox(sessionId), { e, k: 'conn', c: connectionId }, frame);
    },
  };
}
