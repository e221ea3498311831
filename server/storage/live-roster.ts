import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Players who joined a live game since its resume snapshot's roster was last written (migration
 * 013, docs/REALTIME.md "The roster"). The live runner appends a newcomer in the group commit of
 * its connect and clears the session's rows whenever it stores a snapshot (whose roster lists
 * everyone present by then), so there are only ever a few; a resume reads them with the snapshot.
 */
export class LiveRosterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Who joined after the stored roster was written. */
  async list(sessionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('live_roster').select('player_id').where('session_id', '=', sessionId).execute();
    return rows.map((r) => r.player_id);
  }

  /** Appends newcomers (inside the runner's transaction); one already listed stays as it is. */
  async append(db: Db, sessionId: string, playerIds: string[]): Promise<void> {
    if (playerIds.length === 0) return;
    await db
      .insertInto('live_roster')
      .values(playerIds.map((playerId) => ({ session_id: sessionId, player_id: playerId })))
      .onConflict((oc) => oc.columns(['session_id', 'player_id']).doNothing())
      .execute();
  }

  /** A snapshot with a fresh roster is being stored in the same transaction: the appended rows are in it. */
  async clear(db: Db, sessionId: string): Promise<void> {
    await db.deleteFrom('live_roster').where('session_id', '=', sessionId).execute();
  }
}
