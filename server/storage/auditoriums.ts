import type { Auditorium } from '../../protocol/api.js';
import type { Kysely, Selectable } from 'kysely';
import type { AuditoriumTable, Database } from './schema.js';
import { newId, nextCreatedAtMs } from './util.js';

export type { Auditorium };

export const PRE_SHOW_DEFAULTS = { leadMinutes: 20, endMinutes: 2 } as const;

export interface PreShowSettings {
  preShowSessionId: string | null;
  preShowLeadMinutes: number;
  preShowEndMinutes: number;
}

function toAuditorium(r: Selectable<AuditoriumTable>): Auditorium {
  return {
    id: r.id,
    name: r.name,
    createdAt: r.created_at,
    preShowSessionId: r.pre_show_session_id,
    preShowLeadMinutes: r.pre_show_lead_minutes,
    preShowEndMinutes: r.pre_show_end_minutes,
  };
}

export class AuditoriumRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Auditorium[]> {
    const rows = await this.db.selectFrom('auditoriums').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toAuditorium);
  }

  async get(id: string): Promise<Auditorium | undefined> {
    const row = await this.db.selectFrom('auditoriums').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAuditorium(row);
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('auditoriums').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async create(name: string): Promise<Auditorium> {
    const row = {
      id: newId(),
      name,
      created_at: new Date(await nextCreatedAtMs(this.db, 'auditoriums')).toISOString(),
      pre_show_session_id: null,
      pre_show_lead_minutes: PRE_SHOW_DEFAULTS.leadMinutes,
      pre_show_end_minutes: PRE_SHOW_DEFAULTS.endMinutes,
    };
    await this.db.insertInto('auditoriums').values(row).execute();
    return toAuditorium(row);
  }

  async update(id: string, patch: Partial<PreShowSettings> & { name?: string }): Promise<Auditorium | undefined> {
    const values: Partial<Selectable<AuditoriumTable>> = {};
    if (patch.name !== undefined) values.name = patch.name;
    if (patch.preShowSessionId !== undefined) values.pre_show_session_id = patch.preShowSessionId;
    if (patch.preShowLeadMinutes !== undefined) values.pre_show_lead_minutes = patch.preShowLeadMinutes;
    if (patch.preShowEndMinutes !== undefined) values.pre_show_end_minutes = patch.preShowEndMinutes;
    if (Object.keys(values).length > 0) await this.db.updateTable('auditoriums').set(values).where('id', '=', id).execute();
    return this.get(id);
  }
}
