import type { Auditorium } from '../../protocol/api.js';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { newId, nowIso } from './util.js';

export type { Auditorium };

export class AuditoriumRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Auditorium[]> {
    const rows = await this.db.selectFrom('auditoriums').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }));
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('auditoriums').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async create(name: string): Promise<Auditorium> {
    const row = { id: newId(), name, created_at: nowIso() };
    await this.db.insertInto('auditoriums').values(row).execute();
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }
}
