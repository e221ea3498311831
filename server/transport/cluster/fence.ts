/**
 * Fencing of a session's writes by its owner's epoch (DESIGN §9). Taking a session's lease
 * increments `sessions.owner_epoch`; every game write transaction first reads the epochs of the
 * sessions it writes, locking their rows on PostgreSQL (`SELECT … FOR UPDATE`). An epoch other
 * than this instance's means another instance took the session since: the write is refused
 * (FencedError) and nothing of that transaction is stored. Since the rows are locked, a takeover
 * that bumps the epoch waits for a write in flight, or that write sees the new epoch.
 */
import { type Kysely, SqliteAdapter } from 'kysely';
import { FencedError, type WriteFence } from '../../game/rooms/index.js';
import type { Database } from '../../storage/schema.js';

/** Increments the session's epoch and returns the new one; undefined when the session is gone. */
export async function takeEpoch(db: Kysely<Database>, sessionId: string): Promise<number | undefined> {
  const row = await db
    .updateTable('sessions')
    .set((eb) => ({ owner_epoch: eb('owner_epoch', '+', 1) }))
    .where('id', '=', sessionId)
    .returning('owner_epoch')
    .executeTakeFirst();
  return row?.owner_epoch;
}

/**
 * The fence of an instance: the epoch it holds for each session it owns (none: refused). All the
 * sessions of a transaction are checked in one query, since a shared transaction carries hundreds
 * of sessions' batches (issue 26). On PostgreSQL their rows are locked in session order (`for
 * update`): a takeover's UPDATE waits for the write in flight, and two
 * instances' transactions never lock the same rows in opposite orders. SQLite has one writer at a
 * time, so a plain read suffices there.
 */
export function epochFence(epochOf: (sessionId: string) => number | undefined, onFenced: (sessionId: string) => void): WriteFence {
  return async (trx, sessionIds) => {
    const unique = [...new Set(sessionIds)];
    if (unique.length === 0) return;
    let query = trx.selectFrom('sessions').select(['id', 'owner_epoch']).where('id', 'in', unique).orderBy('id');
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) query = query.forUpdate();
    const stored = new Map((await query.execute()).map((r) => [r.id, r.owner_epoch]));
    const stale = unique.find((id) => epochOf(id) === undefined || stored.get(id) !== epochOf(id));
    if (stale === undefined) return;
    onFenced(stale);
    throw new FencedError(stale);
  };
}
