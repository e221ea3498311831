import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Players who joined a live game since its resume snapshot's roster was last written (migration
 * 013, docs/REALTIME.md "The roster"). The live runner appends a newcomer in the group commit of
 * its connect and clears the session's rows whenever it stores a snapshot (whose roster lists
 * everyone present by then), so there are only ever a few; a resume reads them with the snapshot.
 * The runner's writes are in live-writes.ts.
 */
export class LiveRosterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Who joined after the stored roster was written. */
  async list(sessionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('live_roster').select('player_id').where('session_id', '=', sessionId).execute();
    return rows.map((r) => r.player_id);
  }
}
