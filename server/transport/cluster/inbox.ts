/**
 * The owner's side of the inbox (DESIGN §9): client messages from every instance, in order, read
 * from the session's Redis stream and acknowledged once stored; and the same messages from the
 * sockets on the owner's own instance, handed over directly (they need no Redis, DESIGN §16).
 */
import type { Broadcaster, Room } from '../../game/rooms/index.js';
import { type InboxEntry, entryTimeMs, instanceOf, parseInboxEntry } from './envelope.js';
import type { StreamEntries } from './inbox-reader.js';
import type { Owned, OwnerDeps } from './owned.js';

export const INBOX_GROUP = 'owner';
export const INBOX_READ_COUNT = 500;
export const INBOX_READ_BLOCK_MS = 2_000;

export interface InboxContext {
  deps: OwnerDeps;
  /** The broadcaster the rooms publish through (set by the node). */
  publisherFor(sessionId: string): Broadcaster;
}

/** The instance a client message came from (its connection id names it). */
function originOf(entry: InboxEntry): string {
  if (entry.k !== 'event') return instanceOf(entry.c);
  const { event } = entry;
  return 'connectionId' in event && typeof event.connectionId === 'string' ? instanceOf(event.connectionId) : '';
}

/** Entries of the session's stream (read by inbox-reader.ts, one blocked read for all sessions). */
export function handleEntries(ctx: InboxContext, owned: Owned, entries: StreamEntries): void {
  const room = owned.room;
  if (!room || owned.stopping || entries.length === 0) return;
  const ids: string[] = [];
  for (const [id, fields] of entries) {
    ids.push(id);
    const raw = fields[fields.indexOf('m') + 1];
    const entry = raw === undefined ? null : parseInboxEntry(raw);
    if (!entry) continue;
    // Stamped by the instance it reached (never later than Redis got it: a clock ahead gains nothing).
    const arrivedAtMs = Math.min(entry.t ?? Number.POSITIVE_INFINITY, entryTimeMs(id)) - owned.clockOffsetMs;
    owned.relay.seen(originOf(entry), arrivedAtMs);
    // A socket here handed over directly already (see applyDirect): its older entries are stale.
    if (entry.k === 'connect' && owned.direct.has(entry.c)) continue;
    applyEntry(ctx, owned, room, entry, arrivedAtMs);
  }
  // Acknowledged once the room has run them and stored their answers: an owner that dies before
  // leaves them pending, and the next owner runs them again.
  room
    .settled()
    .then(() => (owned.stopping ? undefined : ctx.deps.redis.xack(ctx.deps.keys.inbox(owned.sessionId), INBOX_GROUP, ...ids)))
    .catch((err) => ctx.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: acknowledging inbox entries failed'));
}

/**
 * A message of a socket on the owner's own instance, handed over without Redis: stamped now, run
 * at once. A socket that connected this way sends everything this way while the owner stays.
 */
export function applyDirect(ctx: InboxContext, owned: Owned, entry: InboxEntry): boolean {
  const room = owned.room;
  if (!room || owned.stopping) return false;
  if (entry.k === 'connect') owned.direct.add(entry.c);
  if (entry.k === 'disconnect') owned.direct.delete(entry.c);
  applyEntry(ctx, owned, room, entry, ctx.deps.clock.now());
  return true;
}

function applyEntry(ctx: InboxContext, owned: Owned, room: Room, entry: InboxEntry, arrivedAtMs: number): void {
  const log = (err: unknown) => ctx.deps.log.warn({ err, sessionId: owned.sessionId }, 'cluster: a relayed client message failed');
  switch (entry.k) {
    case 'connect': {
      // The same socket announced again (a new owner, Redis back): it rejoins, counted once.
      if (owned.members.has(entry.c)) room.disconnect(entry.c).catch(log);
      owned.members.set(entry.c, { role: entry.role });
      if (entry.playerId !== undefined) owned.routes.add(entry.c, entry.playerId);
      owned.unusedSinceMs = null;
      const member = { connectionId: entry.c, role: entry.role, playerId: entry.playerId, name: entry.name };
      const publisher = ctx.publisherFor(owned.sessionId);
      room.connect(member, (initial) => publisher.toConnection(owned.sessionId, entry.c, initial)).catch(log);
      break;
    }
    case 'disconnect':
      owned.routes.remove(entry.c);
      if (owned.members.delete(entry.c)) room.disconnect(entry.c).catch(log);
      break;
    case 'event':
      room.dispatch(entry.event, arrivedAtMs);
      break;
  }
}
