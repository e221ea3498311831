/**
 * Fencing of a session's writes by its owner's epoch (DESIGN §9). Taking a session's lease
 * increments `sessions.owner_epoch`; every game write transaction first runs
 * `UPDATE sessions SET owner_epoch = owner_epoch WHERE id = ? AND owner_epoch = <mine>`.
 * Zero rows means another instance took the session since: the write is refused (FencedError)
 * and nothing of that transaction is stored. On PostgreSQL the UPDATE also locks the row, so a
 * takeover that bumps the epoch waits for a write in flight, or that write sees the new epoch.
 */
import type { Kysely, Transaction } from 'kysely';
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

export async function checkEpoch(trx: Transaction<Database>, sessionId: string, epoch: number | undefined): Promise<void> {
  if (epoch === undefined) throw new FencedError(sessionId);
  const result = await trx
    .updateTable('sessions')
    .set((eb) => ({ owner_epoch: eb.ref('owner_epoch') }))
    .where('id', '=', sessionId)
    .where('owner_epoch', '=', epoch)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new FencedError(sessionId);
}

/** The fence of an instance: the epoch it holds for each session it owns (none: refused). */
export function epochFence(epochOf: (sessionId: string) => number | undefined, onFenced: (sessionId: string) => void): WriteFence {
  return async (trx, sessionId) => {
    try {
      await checkEpoch(trx, sessionId, epochOf(sessionId));
    } catch (err) {
      if (err instanceof FencedError) onFenced(sessionId);
      throw err;
    }
  };
}
