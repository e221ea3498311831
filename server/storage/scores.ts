import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

export interface ScoreRow {
  playerId: string;
  name: string;
  pointsTotal: number;
  reachedAt: string;
}

export interface AnswerRecord {
  sessionId: string;
  playerId: string;
  questionId: string;
  asking: number;
  selectedIndex: number;
  isCorrect: boolean;
  pointsEarned: number;
  elapsedMs: number;
  answeredAt: string;
}

/** Answers and per-session scores: written by the live runner, cleared by restart. */
export class ScoreRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async listScores(sessionId: string): Promise<ScoreRow[]> {
    const rows = await this.db
      .selectFrom('scores as s')
      .innerJoin('players as p', 'p.id', 's.player_id')
      .select(['s.player_id', 'p.name', 's.points_total', 's.reached_at'])
      .where('s.session_id', '=', sessionId)
      .orderBy('s.points_total', 'desc')
      .orderBy('s.reached_at')
      .orderBy('s.player_id')
      .execute();
    return rows.map((r) => ({ playerId: r.player_id, name: r.name, pointsTotal: r.points_total, reachedAt: r.reached_at }));
  }

  async answersForAsking(sessionId: string, asking: number): Promise<AnswerRecord[]> {
    const rows = await this.db
      .selectFrom('answers')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('asking', '=', asking)
      .execute();
    return rows.map((r) => ({
      sessionId: r.session_id,
      playerId: r.player_id,
      questionId: r.question_id,
      asking: r.asking,
      selectedIndex: r.selected_index,
      isCorrect: r.is_correct === 1,
      pointsEarned: r.points_earned,
      elapsedMs: r.elapsed_ms,
      answeredAt: r.answered_at,
    }));
  }

  /**
   * Stores a batch of answers in one transaction (a burst of hundreds arrives within a second).
   * An answer already stored for the same asking is kept as it was: the first one counts.
   */
  async saveAnswers(answers: AnswerRecord[]): Promise<void> {
    if (answers.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < answers.length; i += 500) {
        await trx
          .insertInto('answers')
          .values(
            answers.slice(i, i + 500).map((a) => ({
              session_id: a.sessionId,
              player_id: a.playerId,
              question_id: a.questionId,
              asking: a.asking,
              selected_index: a.selectedIndex,
              is_correct: a.isCorrect ? 1 : 0,
              points_earned: a.pointsEarned,
              elapsed_ms: a.elapsedMs,
              answered_at: a.answeredAt,
            })),
          )
          .onConflict((oc) => oc.columns(['session_id', 'asking', 'player_id']).doNothing())
          .execute();
      }
    });
  }

  /** Writes absolute totals (idempotent, so a retried batch cannot double-count). */
  async saveScores(sessionId: string, scores: { playerId: string; pointsTotal: number; reachedAt: string }[]): Promise<void> {
    if (scores.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < scores.length; i += 500) {
        await trx
          .insertInto('scores')
          .values(
            scores.slice(i, i + 500).map((s) => ({
              session_id: sessionId,
              player_id: s.playerId,
              points_total: s.pointsTotal,
              reached_at: s.reachedAt,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['session_id', 'player_id']).doUpdateSet((eb) => ({
              points_total: eb.ref('excluded.points_total'),
              reached_at: eb.ref('excluded.reached_at'),
            })),
          )
          .execute();
      }
    });
  }

  async clearSession(trx: Kysely<Database> | Transaction<Database>, sessionId: string): Promise<void> {
    await trx.deleteFrom('answers').where('session_id', '=', sessionId).execute();
    await trx.deleteFrom('scores').where('session_id', '=', sessionId).execute();
  }
}
