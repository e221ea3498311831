import type { PrizeDraw } from '../../protocol/api.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { nowIso } from './util.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface EligiblePlayer {
  id: string;
  name: string;
  email: string;
  pointsTotal: number;
}

export interface PrizeConsent {
  consentText: string;
  consentedAt: string;
}

export interface NewDraw {
  id: string;
  sessionId: string;
  drawnBy: string;
  prize: string;
  requestedCount: number;
  minScore: number | null;
  eligible: number;
  winners: EligiblePlayer[];
}

/** Prize-draw consents and draws (DESIGN §11). Consents and winner rows go with their player. */
export class DrawRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Keeps the first consent: the moment and the words the player first agreed to. */
  async recordConsent(sessionId: string, playerId: string, consentText: string): Promise<void> {
    await this.db
      .insertInto('prize_consents')
      .values({ session_id: sessionId, player_id: playerId, consent_text: consentText, consented_at: nowIso() })
      .onConflict((oc) => oc.columns(['session_id', 'player_id']).doNothing())
      .execute();
  }

  async consent(sessionId: string, playerId: string): Promise<PrizeConsent | undefined> {
    const row = await this.db
      .selectFrom('prize_consents')
      .select(['consent_text', 'consented_at'])
      .where('session_id', '=', sessionId)
      .where('player_id', '=', playerId)
      .executeTakeFirst();
    return row && { consentText: row.consent_text, consentedAt: row.consented_at };
  }

  /** Consenting players of the session, never drawn before in it, with at least `minScore` points. */
  async eligible(db: Db, sessionId: string, minScore: number): Promise<EligiblePlayer[]> {
    const rows = await db
      .selectFrom('prize_consents as c')
      .innerJoin('players as p', 'p.id', 'c.player_id')
      .leftJoin('scores as s', (join) => join.onRef('s.player_id', '=', 'c.player_id').on('s.session_id', '=', sessionId))
      .select(['p.id', 'p.name', 'p.email', sql<number>`coalesce(s.points_total, 0)`.as('points_total')])
      .where('c.session_id', '=', sessionId)
      .where(sql<boolean>`coalesce(s.points_total, 0) >= ${minScore}`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('prize_draw_winners as w')
              .innerJoin('prize_draws as d', 'd.id', 'w.draw_id')
              .select('w.player_id')
              .where('d.session_id', '=', sessionId)
              .whereRef('w.player_id', '=', 'c.player_id'),
          ),
        ),
      )
      // DESIGN §15: only players who played this game (an answer; the caller settled SQLite's log
      // first) and were not removed by the host.
      .where('p.kicked', '=', 0)
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('answers as a').select('a.player_id').where('a.session_id', '=', sessionId).whereRef('a.player_id', '=', 'c.player_id')),
      )
      .orderBy('p.id')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, pointsTotal: Number(r.points_total) }));
  }

  async insert(db: Db, draw: NewDraw): Promise<PrizeDraw> {
    const createdAt = nowIso();
    await db
      .insertInto('prize_draws')
      .values({
        id: draw.id,
        session_id: draw.sessionId,
        created_at: createdAt,
        drawn_by: draw.drawnBy,
        prize: draw.prize,
        requested_count: draw.requestedCount,
        min_score: draw.minScore,
        eligible: draw.eligible,
      })
      .execute();
    if (draw.winners.length > 0) {
      await db
        .insertInto('prize_draw_winners')
        .values(draw.winners.map((w, i) => ({ draw_id: draw.id, player_id: w.id, position: i + 1, points_total: w.pointsTotal })))
        .execute();
    }
    return {
      id: draw.id,
      createdAt,
      eligible: draw.eligible,
      winners: draw.winners.map((w) => ({ player: { id: w.id, name: w.name, email: w.email }, pointsTotal: w.pointsTotal })),
      drawnBy: draw.drawnBy,
      prize: draw.prize,
      minScore: draw.minScore,
    };
  }

  /** The session's draws, newest first, winners in drawing order. */
  async list(sessionId: string, drawId?: string): Promise<PrizeDraw[]> {
    let query = this.db.selectFrom('prize_draws').selectAll().where('session_id', '=', sessionId);
    if (drawId) query = query.where('id', '=', drawId);
    const draws = await query.orderBy('created_at', 'desc').orderBy('id').execute();
    if (draws.length === 0) return [];
    const winners = await this.db
      .selectFrom('prize_draw_winners as w')
      .innerJoin('players as p', 'p.id', 'w.player_id')
      .select(['w.draw_id', 'w.points_total', 'p.id', 'p.name', 'p.email'])
      .where('w.draw_id', 'in', draws.map((d) => d.id))
      .orderBy('w.position')
      .execute();
    return draws.map((d) => ({
      id: d.id,
      createdAt: d.created_at,
      eligible: d.eligible,
      winners: winners
        .filter((w) => w.draw_id === d.id)
        .map((w) => ({ player: { id: w.id, name: w.name, email: w.email }, pointsTotal: w.points_total })),
      drawnBy: d.drawn_by,
      prize: d.prize,
      minScore: d.min_score,
    }));
  }
}
