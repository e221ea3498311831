/**
 * A session's results (DESIGN §10), read from what the live game stored: scores, answers and
 * askings. Works during a game (the live runner writes as it goes) and after it.
 *
 * The exports read page by page (keyset pagination in an indexed order): a 100,000-answer file
 * never holds more than one page in memory, and no query keeps a connection (SQLite has one)
 * busy while a slow client downloads.
 */
import { type Kysely, sql } from 'kysely';
import type { PlayerAnswerRow, QuestionResults, ResultsLeaderboardEntry } from '../../protocol/api.js';
import type { Database } from './schema.js';
import { parseJson } from './util.js';

/** Rows per page of an export. */
export const EXPORT_PAGE_SIZE = 1000;

/** Both drivers' aggregates as numbers (PostgreSQL returns bigint and numeric as strings). */
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export interface ExportAnswerRow {
  name: string;
  email: string;
  question: string;
  asking: number;
  selectedIndex: number;
  isCorrect: boolean;
  pointsEarned: number;
  elapsedMs: number;
}

export interface ExportPlayerRow {
  name: string;
  email: string;
  /** The session's title; null for a player with no score in any session. */
  session: string | null;
  points: number | null;
  registeredAt: string;
}

/** Gives each entry its rank as the rows stream by: the same total shares a rank (1, 2, 2, 4). */
export class Ranker {
  private index = 0;
  private rank = 0;
  private previous = Number.NaN;

  next(pointsTotal: number): number {
    this.index++;
    if (pointsTotal !== this.previous) this.rank = this.index;
    this.previous = pointsTotal;
    return this.rank;
  }
}

export class ResultsRepository {
  /**
   * `settle` moves a session's logged answers into `answers` (SQLite's answer log, scores.ts), so
   * results include the answers of a question still open, as they always have.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settle: (sessionId: string) => Promise<void> = async () => {},
  ) {}

  /** One page of the leaderboard in rank order (total, then who reached it first, then id), after `after`. */
  async leaderboardPage(
    sessionId: string,
    after: { pointsTotal: number; reachedAt: string; playerId: string } | null,
    limit = EXPORT_PAGE_SIZE,
  ): Promise<{ playerId: string; name: string; email: string; pointsTotal: number; reachedAt: string }[]> {
    let query = this.db
      .selectFrom('scores as s')
      .innerJoin('players as p', 'p.id', 's.player_id')
      .select(['s.player_id', 'p.name', 'p.email', 's.points_total', 's.reached_at'])
      .where('s.session_id', '=', sessionId);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('s.points_total', '<', after.pointsTotal),
          eb.and([eb('s.points_total', '=', after.pointsTotal), eb('s.reached_at', '>', after.reachedAt)]),
          eb.and([eb('s.points_total', '=', after.pointsTotal), eb('s.reached_at', '=', after.reachedAt), eb('s.player_id', '>', after.playerId)]),
        ]),
      );
    }
    const rows = await query.orderBy('s.points_total', 'desc').orderBy('s.reached_at').orderBy('s.player_id').limit(limit).execute();
    return rows.map((r) => ({ playerId: r.player_id, name: r.name, email: r.email, pointsTotal: r.points_total, reachedAt: r.reached_at }));
  }

  /** Answers given and answers right, per player of a session (all of them, or those of `playerIds`). */
  async answerCounts(sessionId: string, playerIds?: string[]): Promise<Map<string, { answered: number; correct: number }>> {
    if (playerIds?.length === 0) return new Map();
    await this.settle(sessionId);
    let query = this.db
      .selectFrom('answers')
      .select(['player_id', (eb) => eb.fn.countAll().as('answered'), (eb) => eb.fn.sum('is_correct').as('correct')])
      .where('session_id', '=', sessionId);
    if (playerIds) query = query.where('player_id', 'in', playerIds);
    const rows = await query.groupBy('player_id').execute();
    return new Map(rows.map((r) => [r.player_id, { answered: num(r.answered), correct: num(r.correct) }]));
  }

  /** Every leaderboard page with its ranks and counts, for the results CSV. */
  async *leaderboard(sessionId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<ResultsLeaderboardEntry[]> {
    const ranker = new Ranker();
    let after: Parameters<ResultsRepository['leaderboardPage']>[1] = null;
    for (;;) {
      const page = await this.leaderboardPage(sessionId, after, pageSize);
      if (page.length === 0) return;
      const counts = await this.answerCounts(sessionId, page.map((r) => r.playerId));
      yield page.map((r) => ({
        rank: ranker.next(r.pointsTotal),
        player: { id: r.playerId, name: r.name, email: r.email },
        pointsTotal: r.pointsTotal,
        answered: counts.get(r.playerId)?.answered ?? 0,
        correct: counts.get(r.playerId)?.correct ?? 0,
      }));
      if (page.length < pageSize) return;
      after = page.at(-1)!;
    }
  }

  /**
   * Per question: the session's questions in play order, then any question answered here that
   * has since been taken out of the session (its answers still count).
   */
  async questionStats(sessionId: string): Promise<QuestionResults[]> {
    await this.settle(sessionId);
    const totals = await this.db
      .selectFrom('answers')
      .select([
        'question_id',
        (eb) => eb.fn.countAll().as('answers'),
        (eb) => eb.fn.sum('is_correct').as('correct'),
        (eb) => eb.fn.avg('elapsed_ms').as('average'),
        // Answers stored before askings were recorded still tell that their asking happened.
        sql<number>`count(distinct asking)`.as('answered_askings'),
      ])
      .where('session_id', '=', sessionId)
      .groupBy('question_id')
      .execute();
    const splits = await this.db
      .selectFrom('answers')
      .select(['question_id', 'selected_index', (eb) => eb.fn.countAll().as('n')])
      .where('session_id', '=', sessionId)
      .groupBy(['question_id', 'selected_index'])
      .execute();
    const askings = await this.db
      .selectFrom('question_askings')
      .select(['question_id', (eb) => eb.fn.countAll().as('n')])
      .where('session_id', '=', sessionId)
      .groupBy('question_id')
      .execute();
    const inSession = await this.db
      .selectFrom('session_items')
      .select('question_id')
      .where('session_id', '=', sessionId)
      .where('item_type', '=', 'question')
      .orderBy('order_index')
      .execute();

    const order = inSession.map((r) => r.question_id!);
    for (const r of [...totals, ...askings]) if (!order.includes(r.question_id)) order.push(r.question_id);
    if (order.length === 0) return [];
    const questions = new Map(
      (await this.db.selectFrom('questions').select(['id', 'text', 'choices', 'correct_index']).where('id', 'in', order).execute()).map((q) => [q.id, q]),
    );
    const totalOf = new Map(totals.map((t) => [t.question_id, t]));
    const askedOf = new Map(askings.map((a) => [a.question_id, num(a.n)]));
    return order.flatMap((questionId) => {
      const question = questions.get(questionId);
      if (!question) return [];
      const total = totalOf.get(questionId);
      const distribution = [0, 0, 0, 0];
      for (const s of splits) if (s.question_id === questionId) distribution[s.selected_index] = num(s.n);
      const answers = num(total?.answers);
      return [
        {
          questionId,
          text: question.text,
          askings: Math.max(askedOf.get(questionId) ?? 0, num(total?.answered_askings)),
          answers,
          correct: num(total?.correct),
          averageMs: answers > 0 ? Math.round(num(total?.average)) : null,
          distribution,
          correctIndex: question.correct_index,
          choices: parseJson<string[]>(question.choices, []),
        },
      ];
    });
  }

  /** One player's answers in a session, in the order given. */
  async playerAnswers(sessionId: string, playerId: string): Promise<PlayerAnswerRow[]> {
    await this.settle(sessionId);
    const rows = await this.db
      .selectFrom('answers as a')
      .innerJoin('questions as q', 'q.id', 'a.question_id')
      .select(['a.question_id', 'q.text', 'q.choices', 'a.asking', 'a.selected_index', 'a.is_correct', 'a.points_earned', 'a.elapsed_ms', 'a.answered_at'])
      .where('a.session_id', '=', sessionId)
      .where('a.player_id', '=', playerId)
      .orderBy('a.asking')
      .execute();
    return rows.map((r) => ({
      questionId: r.question_id,
      text: r.text,
      asking: r.asking,
      selectedIndex: r.selected_index,
      choice: parseJson<string[]>(r.choices, [])[r.selected_index] ?? '',
      isCorrect: r.is_correct === 1,
      pointsEarned: r.points_earned,
      answerMs: r.elapsed_ms,
      answeredAt: r.answered_at,
    }));
  }

  /** One page of a session's answers in the primary key's order (asking, player), after `after`. */
  async answerPage(
    sessionId: string,
    after: { asking: number; playerId: string } | null,
    limit = EXPORT_PAGE_SIZE,
  ): Promise<(ExportAnswerRow & { playerId: string })[]> {
    await this.settle(sessionId);
    let query = this.db
      .selectFrom('answers as a')
      .innerJoin('players as p', 'p.id', 'a.player_id')
      .innerJoin('questions as q', 'q.id', 'a.question_id')
      .select(['a.asking', 'a.player_id', 'p.name', 'p.email', 'q.text', 'a.selected_index', 'a.is_correct', 'a.points_earned', 'a.elapsed_ms'])
      .where('a.session_id', '=', sessionId);
    if (after) {
      const { asking, playerId } = after;
      query = query.where((eb) => eb.or([eb('a.asking', '>', asking), eb.and([eb('a.asking', '=', asking), eb('a.player_id', '>', playerId)])]));
    }
    const rows = await query.orderBy('a.asking').orderBy('a.player_id').limit(limit).execute();
    return rows.map((r) => ({
      playerId: r.player_id,
      name: r.name,
      email: r.email,
      question: r.text,
      asking: r.asking,
      selectedIndex: r.selected_index,
      isCorrect: r.is_correct === 1,
      pointsEarned: r.points_earned,
      elapsedMs: r.elapsed_ms,
    }));
  }

  /** Every answer of a session, page by page, in asking order. */
  async *answers(sessionId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<ExportAnswerRow[]> {
    let after: { asking: number; playerId: string } | null = null;
    for (;;) {
      const page = await this.answerPage(sessionId, after, pageSize);
      if (page.length === 0) return;
      yield page;
      if (page.length < pageSize) return;
      const last = page.at(-1)!;
      after = { asking: last.asking, playerId: last.playerId };
    }
  }

  /**
   * Every player, oldest registration first, one row per session they scored in (a player who
   * never answered has one row without a session), page by page of players.
   */
  async *players(pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<ExportPlayerRow[]> {
    let after: { createdAt: string; id: string } | null = null;
    for (;;) {
      let query = this.db.selectFrom('players').select(['id', 'name', 'email', 'created_at']);
      if (after) {
        const { createdAt, id } = after;
        query = query.where((eb) => eb.or([eb('created_at', '>', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '>', id)])]));
      }
      const players = await query.orderBy('created_at').orderBy('id').limit(pageSize).execute();
      if (players.length === 0) return;
      const scores = await this.db
        .selectFrom('scores as s')
        .innerJoin('sessions as se', 'se.id', 's.session_id')
        .select(['s.player_id', 'se.title', 's.points_total', 'se.created_at'])
        .where('s.player_id', 'in', players.map((p) => p.id))
        .orderBy('se.created_at')
        .orderBy('se.id')
        .execute();
      const byPlayer = new Map<string, typeof scores>();
      for (const s of scores) byPlayer.set(s.player_id, [...(byPlayer.get(s.player_id) ?? []), s]);
      yield players.flatMap((p): ExportPlayerRow[] => {
        const base = { name: p.name, email: p.email, registeredAt: p.created_at };
        const own = byPlayer.get(p.id);
        if (!own) return [{ ...base, session: null, points: null }];
        return own.map((s) => ({ ...base, session: s.title, points: s.points_total }));
      });
      if (players.length < pageSize) return;
      const last = players.at(-1)!;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}
