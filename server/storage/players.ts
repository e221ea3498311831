import type { Player } from '../../protocol/api.js';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PlayerTable } from './schema.js';
import { newId, nowIso } from './util.js';

export type { Player };

const toPlayer = (r: Selectable<PlayerTable>): Player => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at });

export class PlayerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Player[]> {
    const rows = await this.db.selectFrom('players').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toPlayer);
  }

  async get(id: string): Promise<Player | undefined> {
    const row = await this.db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toPlayer(row);
  }

  /**
   * Returns the player with this email (case-insensitive), creating it if new, and stores a fresh
   * token for this device. Each device keeps its own token, so joining again elsewhere logs no one out.
   */
  async register(name: string, email: string, tokenHash: string): Promise<Player> {
    const emailKey = email.toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('players')
        .values({ id: newId(), name, email, email_key: emailKey, created_at: nowIso() })
        .onConflict((oc) => oc.column('email_key').doNothing())
        .execute();
      const row = await trx.selectFrom('players').selectAll().where('email_key', '=', emailKey).executeTakeFirstOrThrow();
      await trx.insertInto('player_tokens').values({ token_hash: tokenHash, player_id: row.id, created_at: nowIso() }).execute();
      return toPlayer(row);
    });
  }

  /** The player a token belongs to, only if it is this player's token. */
  async verifyToken(playerId: string, tokenHash: string): Promise<Player | undefined> {
    const row = await this.db
      .selectFrom('player_tokens as t')
      .innerJoin('players as p', 'p.id', 't.player_id')
      .selectAll('p')
      .where('t.token_hash', '=', tokenHash)
      .where('p.id', '=', playerId)
      .executeTakeFirst();
    return row && toPlayer(row);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('players').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
