/**
 * Metrics at the seams of the live game, without touching rooms or the hub: the room's
 * Broadcaster and RoomStorage are wrapped where realtime.ts wires them. Only whole broadcasts
 * and whole write batches are measured; sends to single players and sockets are not.
 */
import { performance } from 'node:perf_hooks';
import type { Broadcaster } from '../game/rooms/broadcaster.js';
import type { AnswerWrite, CommitBatch, RoomStorage } from '../game/rooms/storage.js';
import type { Metrics } from './metrics.js';

const secondsSince = (startMs: number) => (performance.now() - startMs) / 1000;

/** The same broadcaster; `toSession` (one fan-out to a role group) is timed. */
export function timedBroadcaster<T extends Broadcaster>(inner: T, metrics: Metrics): Broadcaster {
  return {
    toSession(sessionId, target, message) {
      const startMs = performance.now();
      inner.toSession(sessionId, target, message);
      metrics.broadcastSeconds.labels(target).observe(secondsSince(startMs));
    },
    toPlayer: (sessionId, playerId, message) => inner.toPlayer(sessionId, playerId, message),
    toConnection: (sessionId, connectionId, message) => inner.toConnection(sessionId, connectionId, message),
  };
}

/**
 * The same storage (every other method reached through the prototype chain); each commit of a
 * live game is timed, and stored answers counted once per batch.
 */
export function instrumentedRoomStorage(inner: RoomStorage, metrics: Metrics): RoomStorage {
  const commits = metrics.databaseWriteSeconds.labels({ operation: 'commit' });
  const timed = async (write: () => Promise<void>) => {
    const startMs = performance.now();
    await write();
    commits.observe(secondsSince(startMs));
  };
  const overrides: Pick<RoomStorage, 'commit' | 'commitMany'> = {
    commit: async (batch: CommitBatch) => {
      await timed(() => inner.commit(batch));
      if (batch.answers.length > 0) metrics.answers.inc(batch.answers.length);
    },
    // Several sessions' batches and the instance's listed answers in one transaction (shared-commits.ts): one commit timed.
    commitMany: inner.commitMany && (async (batches: CommitBatch[], listed?: AnswerWrite[]) => {
      await timed(() => inner.commitMany!(batches, listed));
      const answers = batches.reduce((sum, b) => sum + b.answers.length, listed?.length ?? 0);
      if (answers > 0) metrics.answers.inc(answers);
    }),
  };
  return Object.assign(Object.create(inner) as RoomStorage, overrides);
}
