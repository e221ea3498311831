import type { Question } from '../../protocol/api.js';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, QuestionTable } from './schema.js';
import { inChunks, newId, nextCreatedAtMs, parseJson } from './util.js';

export type { Question };

export type QuestionInput = Omit<Question, 'id' | 'createdAt'>;

export function toQuestion(row: Selectable<QuestionTable>): Question {
  return {
    id: row.id,
    text: row.text,
    choices: parseJson<string[]>(row.choices, []),
    correctIndex: row.correct_index,
    points: row.points,
    timeLimitSeconds: row.time_limit_seconds,
    categories: parseJson<string[]>(row.categories, []),
    mediaId: row.media_id,
    createdAt: row.created_at,
  };
}

function toRow(input: QuestionInput) {
  return {
    text: input.text,
    choices: JSON.stringify(input.choices),
    correct_index: input.correctIndex,
    points: input.points,
    time_limit_seconds: input.timeLimitSeconds,
    categories: JSON.stringify(input.categories),
    media_id: input.mediaId,
  };
}

export class QuestionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** All questions, or those of one session in the session's order. */
  async list(sessionId?: string): Promise<Question[]> {
    if (sessionId) {
      const rows = await this.db
        .selectFrom('questions as q')
        .innerJoin('session_items as i', 'i.question_id', 'q.id')
        .selectAll('q')
        .where('i.session_id', '=', sessionId)
        .orderBy('i.order_index')
        .execute();
      return rows.map(toQuestion);
    }
    const rows = await this.db.selectFrom('questions').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toQuestion);
  }

  async get(id: string): Promise<Question | undefined> {
    const row = await this.db.selectFrom('questions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toQuestion(row);
  }

  async getMany(ids: string[]): Promise<Question[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('questions').selectAll().where('id', 'in', ids).execute();
    return rows.map(toQuestion);
  }

  async create(input: QuestionInput): Promise<Question> {
    const row = { id: newId(), created_at: new Date(await nextCreatedAtMs(this.db, 'questions')).toISOString(), ...toRow(input) };
    await this.db.insertInto('questions').values(row).execute();
    return toQuestion(row);
  }

  /** Every question text in the bank (the import's duplicate check). */
  async texts(db: Kysely<Database> | Transaction<Database> = this.db): Promise<string[]> {
    const rows = await db.selectFrom('questions').select('text').execute();
    return rows.map((r) => r.text);
  }

  /**
   * Many questions in multi-row inserts (the caller's transaction makes them all or nothing).
   * Creation times step by a millisecond each, so the bank (ordered by creation) keeps the file's order.
   */
  async insertMany(db: Kysely<Database> | Transaction<Database>, inputs: QuestionInput[], ids?: string[]): Promise<void> {
    const base = await nextCreatedAtMs(db, 'questions');
    const rows = inputs.map((input, i) => ({ id: ids?.[i] ?? newId(), created_at: new Date(base + i).toISOString(), ...toRow(input) }));
    await inChunks(rows, (chunk) => db.insertInto('questions').values(chunk).execute());
  }

  async update(id: string, input: QuestionInput): Promise<Question | undefined> {
    const result = await this.db.updateTable('questions').set(toRow(input)).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('questions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
