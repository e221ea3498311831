/**
 * The operator's overview in multi-instance mode (sessions/live-games.ts): each instance writes
 * the summaries of the games it owns into one Redis hash, field = its id, value = `{ atMs, games }`,
 * every LIVE_PUBLISH_MS: one HSET per instance per period, however many games it runs. Any
 * instance answers GET /api/admin/live by one HGETALL, skipping fields older than LIVE_STALE_MS
 * (an instance that died without removing its field; a game it ran is then shown "down" until
 * another instance takes it over and reports it). Written only while it owns a game or just
 * stopped owning one, so an idle instance costs nothing.
 */
import type { Redis } from 'ioredis';
import type { RoomLog, RoomManager, RoomSummary } from '../../game/rooms/index.js';
import type { ClusterKeys } from './keys.js';

export const LIVE_PUBLISH_MS = 2_000;
export const LIVE_STALE_MS = 3 * LIVE_PUBLISH_MS;

interface Published {
  atMs: number;
  games: RoomSummary[];
}

export interface LivePublisher {
  /** Every instance's games (fresh entries only). */
  read(): Promise<RoomSummary[]>;
  stop(): Promise<void>;
}

export function startLivePublisher(deps: { redis: Redis; keys: ClusterKeys; instanceId: string; rooms: RoomManager; log: RoomLog }, periodMs = LIVE_PUBLISH_MS): LivePublisher {
  const { redis, keys, instanceId, rooms } = deps;
  let hadGames = false;
  const publish = () => {
    const games = rooms.summaries();
    if (games.length === 0 && !hadGames) return;
    hadGames = games.length > 0;
    const value: Published = { atMs: Date.now(), games };
    redis.hset(keys.liveGames, instanceId, JSON.stringify(value)).catch((err) => deps.log.warn({ err }, 'cluster: could not publish the live games'));
  };
  const timer = setInterval(publish, periodMs);
  timer.unref();
  publish();
  return {
    async read() {
      const all = await redis.hgetall(keys.liveGames);
      const now = Date.now();
      const games: RoomSummary[] = [];
      for (const raw of Object.values(all)) {
        try {
          const entry = JSON.parse(raw) as Published;
          if (now - entry.atMs <= LIVE_STALE_MS) games.push(...entry.games);
        } catch {
          // Not ours to judge: a field written by another release; skipped.
        }
      }
      return games;
    },
    async stop() {
      clearInterval(timer);
      // Best effort: a Redis that is down must not hold up the shutdown (its queued command would
      // wait for a connection forever); a stale entry is ignored by readers once it is 6 s old.
      if (redis.status !== 'ready') return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        redis.hdel(keys.liveGames, instanceId).catch(() => undefined),
        new Promise<void>((resolve) => (timeout = setTimeout(resolve, 1_000))),
      ]);
      clearTimeout(timeout);
    },
  };
}
