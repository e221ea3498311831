/**
 * The operator's overview in multi-instance mode (sessions/live-games.ts): each instance writes
 * the summaries of the games it owns into one Redis hash, field = its id, value = `{ atMs, games }`,
 * every LIVE_PUBLISH_MS: one HSET per instance per period, however many games it runs. Any
 * instance answers GET /api/admin/live by one HGETALL, skipping fields older than LIVE_STALE_MS
 * (an instance that died without removing its field; a game it ran is then shown "down" until
 * another instance takes it over and reports it). Written only while it owns a game or just
 * stopped owning one, so an idle instance costs nothing.
 *
 * Times are Redis's clock as each instance measures it (redis-clock.ts): instances need no
 * synchronised clocks, so one whose clock is off is neither shown "down" nor kept after it died.
 * The reader's own games come from its memory, never older than its last publish. With Redis away
 * (DESIGN §16) the read answers from this instance's games alone, at once: the others' games
 * show "down", since nothing can tell whether they still run, and an operator's page must not
 * hang on a command queued for a Redis that is not there.
 */
import type { Redis } from 'ioredis';
import type { RoomLog, RoomManager, RoomSummary } from '../../game/rooms/index.js';
import type { ClusterKeys } from './keys.js';
import { atMost } from './owned.js';

export const LIVE_PUBLISH_MS = 2_000;
export const LIVE_STALE_MS = 3 * LIVE_PUBLISH_MS;
/** A field this old is an instance that is gone: the reader removes it (a live one writes every 2 s). */
export const LIVE_FORGET_MS = 60_000;
/** Redis answers in a millisecond; one that has not answered in this time is treated as away. */
export const LIVE_READ_TIMEOUT_MS = 500;

interface Published {
  atMs: number;
  games: RoomSummary[];
}

/** A game taken up here is published this soon, not at the next period: others would show it "down" meanwhile. */
export const LIVE_PUBLISH_SOON_MS = 50;

export interface LivePublisher {
  /** Every instance's games (fresh entries only); this instance's alone while Redis is away. */
  read(): Promise<RoomSummary[]>;
  /** This instance's games changed (one taken up, one gone live): published within LIVE_PUBLISH_SOON_MS, many changes at once in one write. */
  publishSoon(): void;
  stop(): Promise<void>;
}

export interface LivePublisherDeps {
  redis: Pick<Redis, 'status' | 'hset' | 'hgetall' | 'hdel'>;
  keys: Pick<ClusterKeys, 'liveGames'>;
  instanceId: string;
  rooms: Pick<RoomManager, 'summaries'>;
  log: Pick<RoomLog, 'warn'>;
  /** Now in Redis's clock (RedisClock.now, this clock until first measured). */
  now: () => number;
}

export function startLivePublisher(deps: LivePublisherDeps, periodMs = LIVE_PUBLISH_MS): LivePublisher {
  const { redis, keys, instanceId, rooms, now } = deps;
  let hadGames = false;
  const publish = () => {
    const games = rooms.summaries();
    if (games.length === 0 && !hadGames) return;
    hadGames = games.length > 0;
    const value: Published = { atMs: now(), games };
    redis.hset(keys.liveGames, instanceId, JSON.stringify(value)).catch((err) => deps.log.warn({ err }, 'cluster: could not publish the live games'));
  };
  const timer = setInterval(publish, periodMs);
  timer.unref();
  publish();
  let soon: NodeJS.Timeout | undefined;
  let stopped = false;
  return {
    publishSoon() {
      // Not after stop: the entry it removed would be written back, stale, by a room closing late.
      if (stopped) return;
      soon ??= setTimeout(() => {
        soon = undefined;
        publish();
      }, LIVE_PUBLISH_SOON_MS);
    },
    async read() {
      // Commands wait through an outage (the offline queue): one not sent now is not waited for.
      const all = redis.status === 'ready' ? await atMost(redis.hgetall(keys.liveGames), LIVE_READ_TIMEOUT_MS).catch(() => undefined) : undefined;
      // A game two instances report (one took it over, the other has not published since): the
      // newer entry's figures; this instance's own, from memory, over both.
      const games = new Map<string, { atMs: number; game: RoomSummary }>();
      const gone: string[] = [];
      const nowMs = now();
      for (const [field, raw] of Object.entries(all ?? {})) {
        if (field === instanceId) continue;
        try {
          const entry = JSON.parse(raw) as Published;
          const ageMs = nowMs - entry.atMs;
          if (ageMs > LIVE_STALE_MS) {
            if (ageMs > LIVE_FORGET_MS) gone.push(field);
            continue;
          }
          for (const game of entry.games) {
            if ((games.get(game.sessionId)?.atMs ?? -Infinity) < entry.atMs) games.set(game.sessionId, { atMs: entry.atMs, game });
          }
        } catch {
          // Not ours to judge: a field written by another release; skipped.
        }
      }
      if (gone.length > 0) redis.hdel(keys.liveGames, ...gone).catch(() => undefined);
      for (const game of rooms.summaries()) games.set(game.sessionId, { atMs: Infinity, game });
      return [...games.values()].map((entry) => entry.game);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(soon);
      // Best effort: a Redis that is down must not hold up the shutdown (its queued command would
      // wait for a connection forever); a stale entry is ignored by readers once it is 6 s old.
      if (redis.status !== 'ready') return;
      await atMost(redis.hdel(keys.liveGames, instanceId), 1_000).catch(() => undefined);
    },
  };
}
