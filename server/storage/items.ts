import type { ItemType, SessionItem, SessionQuestionLink, SlideType } from '../../protocol/index.js';
import { type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, SessionItemTable } from './schema.js';
import { newId, parseJson } from './util.js';

export type { ItemType, SessionItem, SlideType, SessionQuestionLink as QuestionLink };
export type Direction = 'up' | 'down';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Serialises changes to one session's order. Without it two appends (or moves) at the same time on
 * PostgreSQL read the same positions, and the unique order constraint fails the second with a 500.
 * A no-op update of the session row takes its row lock until the transaction ends (on SQLite,
 * the write lock, which serialises anyway).
 */
async function lockSessionOrder(trx: Transaction<Database>, sessionId: string): Promise<void> {
  await trx
    .updateTable('sessions')
    .set((eb) => ({ title: eb.ref('title') }))
    .where('id', '=', sessionId)
    .execute();
}

/**
 * The ordered list of a session's items. Order positions are unique per session (a constraint),
 * so moves swap two positions through a temporary negative one inside a transaction.
 */
export class ItemRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(sessionId: string): Promise<SessionItem[]> {
    const rows = await this.db
      .selectFrom('session_items as i')
      .leftJoin('questions as q', 'q.id', 'i.question_id')
      .select([
        'i.id', 'i.session_id', 'i.order_index', 'i.item_type', 'i.question_id', 'i.slide_type', 'i.slide_data',
        'i.media_item_count', 'q.text as q_text', 'q.categories as q_categories', 'q.points as q_points',
        'q.time_limit_seconds as q_time',
      ])
      .where('i.session_id', '=', sessionId)
      .orderBy('i.order_index')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      sessionId: r.session_id,
      orderIndex: r.order_index,
      itemType: r.item_type,
      questionId: r.question_id,
      question:
        r.question_id && r.q_text != null
          ? {
              id: r.question_id,
              text: r.q_text,
              categories: parseJson<string[]>(r.q_categories, []),
              points: r.q_points ?? 0,
              timeLimitSeconds: r.q_time ?? 0,
            }
          : null,
      slideType: (r.slide_type as SlideType | null) ?? null,
      slideData: r.slide_data ? parseJson<{ text?: string }>(r.slide_data, {}) : null,
      mediaItemCount: r.media_item_count,
    }));
  }

  async questionLinks(sessionId: string): Promise<SessionQuestionLink[]> {
    const rows = await this.db
      .selectFrom('session_items')
      .select(['question_id', 'session_id', 'order_index'])
      .where('session_id', '=', sessionId)
      .where('item_type', '=', 'question')
      .orderBy('order_index')
      .execute();
    return rows.map((r) => ({ questionId: r.question_id!, sessionId: r.session_id, orderIndex: r.order_index }));
  }

  /** Sessions holding a question (for the question bank's assign dialog and filter). */
  async sessionIdsForQuestion(questionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('session_items').select('session_id').where('question_id', '=', questionId).execute();
    return rows.map((r) => r.session_id);
  }

  async get(sessionId: string, itemId: string): Promise<Selectable<SessionItemTable> | undefined> {
    return this.db
      .selectFrom('session_items')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('id', '=', itemId)
      .executeTakeFirst();
  }

  async findQuestionItem(sessionId: string, questionId: string): Promise<Selectable<SessionItemTable> | undefined> {
    return this.db
      .selectFrom('session_items')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('question_id', '=', questionId)
      .executeTakeFirst();
  }

  async nextOrderIndex(db: Db, sessionId: string): Promise<number> {
    const row = await db
      .selectFrom('session_items')
      .select((eb) => eb.fn.max('order_index').as('maxIndex'))
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row?.maxIndex == null ? 0 : Number(row.maxIndex) + 1;
  }

  /**
   * Appends an item. `orderIndex` may be asked for (the question bank sends one); when that place is
   * taken, or none is given, the item goes to the end.
   */
  async append(
    sessionId: string,
    item: Omit<Selectable<SessionItemTable>, 'id' | 'session_id' | 'order_index'>,
    orderIndex?: number,
  ): Promise<Selectable<SessionItemTable>> {
    return this.db.transaction().execute(async (trx) => {
      await lockSessionOrder(trx, sessionId);
      let index = await this.nextOrderIndex(trx, sessionId);
      if (orderIndex !== undefined && orderIndex >= index) index = orderIndex;
      const row = { id: newId(), session_id: sessionId, order_index: index, ...item };
      await trx.insertInto('session_items').values(row).execute();
      return row;
    });
  }

  async setMediaItemCount(itemId: string, count: number): Promise<void> {
    await this.db.updateTable('session_items').set({ media_item_count: count }).where('id', '=', itemId).execute();
  }

  async remove(itemId: string): Promise<void> {
    await this.db.deleteFrom('session_items').where('id', '=', itemId).execute();
  }

  /** Swaps an item with its neighbour; false when it is already first (up) or last (down). */
  async move(sessionId: string, itemId: string, direction: Direction): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockSessionOrder(trx, sessionId);
      const item = await trx
        .selectFrom('session_items')
        .select(['id', 'order_index'])
        .where('session_id', '=', sessionId)
        .where('id', '=', itemId)
        .executeTakeFirst();
      if (!item) return false;
      const neighbour = await trx
        .selectFrom('session_items')
        .select(['id', 'order_index'])
        .where('session_id', '=', sessionId)
        .where('order_index', direction === 'up' ? '<' : '>', item.order_index)
        .orderBy('order_index', direction === 'up' ? 'desc' : 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!neighbour) return false;
      await trx.updateTable('session_items').set({ order_index: -1 - item.order_index }).where('id', '=', item.id).execute();
      await trx.updateTable('session_items').set({ order_index: item.order_index }).where('id', '=', neighbour.id).execute();
      await trx.updateTable('session_items').set({ order_index: neighbour.order_index }).where('id', '=', item.id).execute();
      return true;
    });
  }

  /** Copies every item of one session to another, keeping the order (used by duplicate). */
  async copyAll(trx: Db, fromSessionId: string, toSessionId: string): Promise<void> {
    const rows = await trx.selectFrom('session_items').selectAll().where('session_id', '=', fromSessionId).execute();
    if (rows.length === 0) return;
    await trx
      .insertInto('session_items')
      .values(rows.map((r) => ({ ...r, id: newId(), session_id: toSessionId })))
      .execute();
  }

  /** Question items of several sessions at once (one query); a session with none is absent. */
  async countQuestionsOf(sessionIds: string[]): Promise<Map<string, number>> {
    if (sessionIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('session_items')
      .select(['session_id', sql<number>`count(*)`.as('n')])
      .where('session_id', 'in', sessionIds)
      .where('item_type', '=', 'question')
      .groupBy('session_id')
      .execute();
    return new Map(rows.map((r) => [r.session_id, Number(r.n)]));
  }
}
