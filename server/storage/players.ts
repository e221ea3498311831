import type { Player } from '../../protocol/api.js';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, PlayerTable } from './schema.js';
import type { SQLiteDatabase, SQLiteStatement } from './sqlite-driver.js';
import { compiledOnce, newId, nowIso } from './util.js';

export type { Player };

const toPlayer = (r: Selectable<PlayerTable>): Player => ({
  id: r.id,
  name: r.name,
  email: r.email,
  createdAt: r.created_at,
  sessionId: r.session_id,
  joinOrder: r.join_order,
  hidden: r.hidden === 1,
  kicked: r.kicked === 1,
});

/** One player per email per session (migration 009). */
export const emailKeyOf = (sessionId: string, email: string) => `${sessionId} ${email.toLowerCase()}`;

/** How long a session's player tokens outlive its end (DESIGN §15). */
export const TOKEN_LIFETIME_AFTER_END_MS = 24 * 60 * 60 * 1000;

/** The name screens show: "Player {n}" for a hidden player (SQL, for the leaderboard reads). */
export const screenNameSql = sql<string>`case when p.hidden = 1 then 'Player ' || coalesce(p.join_order, 0) else p.name end`;

export function screenName(player: Pick<Player, 'name' | 'hidden' | 'joinOrder'>): string {
  return player.hidden ? `Player ${player.joinOrder ?? 0}` : player.name;
}

export interface Registration {
  sessionId: string;
  name: string;
  email: string;
  /** Hash of the new token, stored when a new player is created. */
  tokenHash: string;
  /** Hash of the token the device already holds, if it sent one. */
  heldTokenHash: string | null;
  maxPlayers: number;
}

export type RegistrationOutcome =
  | { kind: 'created'; player: Player }
  /** The device holds this player's token: the same player, the same token. */
  | { kind: 'returning'; player: Player }
  | { kind: 'full' }
  | { kind: 'email_taken' }
  | { kind: 'kicked' };

export type TokenCheck = { ok: true; player: Player } | { ok: false; why: 'invalid' | 'kicked' | 'expired' };

export class PlayerRepository {
  private readonly batched: BatchedSqliteRegistrations | undefined;
  /** `checkToken`'s read, compiled once: every phone's connect runs it (a reconnect storm, ten thousand). */
  private readonly tokenRow;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres' = 'sqlite',
    sqlite?: SQLiteDatabase,
  ) {
    this.batched = sqlite && new BatchedSqliteRegistrations(db, sqlite);
    this.tokenRow = compiledOnce(db, (slot: (name: 'tokenHash' | 'playerId' | 'sessionId') => string) =>
      db
        .selectFrom('player_tokens as t')
        .innerJoin('players as p', 'p.id', 't.player_id')
        .innerJoin('sessions as s', 's.id', 't.session_id')
        .selectAll('p')
        .select(['s.status as session_status', 's.ended_at as session_ended_at'])
        .where('t.token_hash', '=', slot('tokenHash'))
        .where('p.id', '=', slot('playerId'))
        .where('t.session_id', '=', slot('sessionId')),
    );
  }

  async list(): Promise<Player[]> {
    const rows = await this.db.selectFrom('players').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toPlayer);
  }

  async get(id: string): Promise<Player | undefined> {
    const row = await this.db.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toPlayer(row);
  }

  /**
   * Registers a device in a session (DESIGN §15). Runs with the session row locked on PostgreSQL
   * (SQLite runs one write transaction at a time), so the cap and the join order hold under a storm.
   */
  async register(r: Registration): Promise<RegistrationOutcome> {
    if (this.batched) return this.batched.register(r);
    const emailKey = emailKeyOf(r.sessionId, r.email);
    return this.db.transaction().execute(async (trx): Promise<RegistrationOutcome> => {
      if (this.dialect === 'postgres') await trx.selectFrom('sessions').select('id').where('id', '=', r.sessionId).forUpdate().execute();
      const held = r.heldTokenHash
        ? await trx
            .selectFrom('player_tokens as t')
            .innerJoin('players as p', 'p.id', 't.player_id')
            .selectAll('p')
            .where('t.token_hash', '=', r.heldTokenHash)
            .where('t.session_id', '=', r.sessionId)
            .executeTakeFirst()
        : undefined;
      if (held?.kicked === 1) return { kind: 'kicked' };
      if (held && held.email_key === emailKey) return { kind: 'returning', player: toPlayer(held) };
      const existing = await trx.selectFrom('players').select(['kicked']).where('email_key', '=', emailKey).executeTakeFirst();
      if (existing) return existing.kicked === 1 ? { kind: 'kicked' } : { kind: 'email_taken' };
      const { last } = await trx
        .selectFrom('players')
        .select(sql<number | null>`max(join_order)`.as('last'))
        .where('session_id', '=', r.sessionId)
        .executeTakeFirstOrThrow();
      const row = newPlayerRow(r, emailKey, last);
      if (!row) return { kind: 'full' };
      await trx.insertInto('players').values(row).execute();
      await trx.insertInto('player_tokens').values({ token_hash: r.tokenHash, player_id: row.id, created_at: row.created_at, session_id: r.sessionId }).execute();
      return { kind: 'created', player: toPlayer(row) };
    });
  }

  /** Whether a token lets this player into this session now: issued for it, not kicked, not expired. */
  async checkToken(playerId: string, tokenHash: string, sessionId: string, nowMs = Date.now()): Promise<TokenCheck> {
    const [row] = (await this.tokenRow({ tokenHash, playerId, sessionId })).rows;
    if (!row) return { ok: false, why: 'invalid' };
    if (row.kicked === 1) return { ok: false, why: 'kicked' };
    const { session_status: status, session_ended_at: endedAt, ...player } = row;
    if (status === 'finished' && endedAt && Date.parse(endedAt) + TOKEN_LIFETIME_AFTER_END_MS <= nowMs) return { ok: false, why: 'expired' };
    return { ok: true, player: toPlayer(player) };
  }

  async rename(id: string, name: string): Promise<Player | undefined> {
    await this.db.updateTable('players').set({ name }).where('id', '=', id).execute();
    return this.get(id);
  }

  async setHidden(sessionId: string, id: string, hidden: boolean): Promise<boolean> {
    const result = await this.db.updateTable('players').set({ hidden: hidden ? 1 : 0 }).where('id', '=', id).where('session_id', '=', sessionId).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks the player kicked and takes their score off the session's standings. */
  async kick(sessionId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('players').set({ kicked: 1 }).where('id', '=', id).where('session_id', '=', sessionId).executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('scores').where('session_id', '=', sessionId).where('player_id', '=', id).execute();
      return true;
    });
  }

  /**
   * The player and all they own. Their answers go first, by hand: on SQLite `answers` has no key on
   * the player to cascade along (migration 016). Found through the session; a player from before
   * players were per session may have answered in any, so theirs take a scan.
   */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const player = await trx.selectFrom('players').select('session_id').where('id', '=', id).executeTakeFirst();
      if (!player) return false;
      let answers = trx.deleteFrom('answers').where('player_id', '=', id);
      if (player.session_id !== null) answers = answers.where('session_id', '=', player.session_id);
      await answers.execute();
      const result = await trx.deleteFrom('players').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
  }
}

/** The new player's row, next in the session's join order; null when the session is full. */
function newPlayerRow(r: Registration, emailKey: string, lastJoinOrder: number | null) {
  const joined = Number(lastJoinOrder ?? 0);
  if (joined >= r.maxPlayers) return null;
  return {
    id: newId(),
    name: r.name,
    email: r.email,
    email_key: emailKey,
    created_at: nowIso(),
    session_id: r.sessionId,
    join_order: joined + 1,
    hidden: 0,
    kicked: 0,
  };
}

interface PendingRegistration {
  registration: Registration;
  resolve: (outcome: RegistrationOutcome) => void;
  reject: (err: unknown) => void;
}

/**
 * Registration on SQLite (issue 26: 10,000 phones joining 1,000 games in seconds): the registrations
 * that arrive in one turn of the event loop share one transaction, each in a savepoint of its own,
 * as prepared statements on the raw connection. Each commit wrote the players' and tokens' index
 * pages of one phone, and Kysely built and compiled five queries for it: together most of a
 * registration's server time. Same rules and outcomes as the Kysely version above (which
 * PostgreSQL keeps), one registration after another as before; a registration that throws rolls
 * back its own savepoint only, and a failed commit fails the whole turn's.
 */
class BatchedSqliteRegistrations {
  private pending: PendingRegistration[] = [];
  private statements: Record<'held' | 'email' | 'last' | 'player' | 'token', SQLiteStatement> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite: SQLiteDatabase,
  ) {}

  register(registration: Registration): Promise<RegistrationOutcome> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ registration, resolve, reject }) === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const outcomes: ({ ok: RegistrationOutcome } | { err: unknown })[] = [];
    try {
      // Through Kysely's transaction: it holds the connection, so no other transaction interleaves.
      await this.db.transaction().execute(async () => {
        for (const { registration } of batch) {
          try {
            // better-sqlite3 runs a transaction inside another as a savepoint.
            outcomes.push({ ok: this.sqlite.transaction(() => this.registerOne(registration))() });
          } catch (err) {
            outcomes.push({ err });
          }
        }
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if ('ok' in outcome) p.resolve(outcome.ok);
      else p.reject(outcome.err);
    });
  }

  private registerOne(r: Registration): RegistrationOutcome {
    const st = (this.statements ??= {
      // Cast as join-params.ts does for Kysely's joins: bare, the join is re-prepared on every run.
      held: this.sqlite.prepare(
        'select p.* from player_tokens as t inner join players as p on p.id = t.player_id where t.token_hash = cast(? as text) and t.session_id = cast(? as text) limit 1',
      ),
      email: this.sqlite.prepare('select kicked from players where email_key = ? limit 1'),
      last: this.sqlite.prepare('select max(join_order) as last from players where session_id = ?'),
      player: this.sqlite.prepare(
        'insert into players (id, name, email, email_key, created_at, session_id, join_order, hidden, kicked) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      token: this.sqlite.prepare('insert into player_tokens (token_hash, player_id, created_at, session_id) values (?, ?, ?, ?)'),
    });
    const emailKey = emailKeyOf(r.sessionId, r.email);
    const held = r.heldTokenHash ? (st.held.get(r.heldTokenHash, r.sessionId) as Selectable<PlayerTable> | undefined) : undefined;
    if (held?.kicked === 1) return { kind: 'kicked' };
    if (held && held.email_key === emailKey) return { kind: 'returning', player: toPlayer(held) };
    const existing = st.email.get(emailKey) as { kicked: number } | undefined;
    if (existing) return existing.kicked === 1 ? { kind: 'kicked' } : { kind: 'email_taken' };
    const { last } = st.last.get(r.sessionId) as { last: number | null };
    const row = newPlayerRow(r, emailKey, last);
    if (!row) return { kind: 'full' };
    st.player.run(row.id, row.name, row.email, row.email_key, row.created_at, row.session_id, row.join_order, row.hidden, row.kicked);
    st.token.run(r.tokenHash, row.id, row.created_at, r.sessionId);
    return { kind: 'created', player: toPlayer(row) };
  }
}
