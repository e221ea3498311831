import type { Showtime } from '../../protocol/api.js';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Auditorium } from './auditoriums.js';
import type { Database, ShowtimeTable } from './schema.js';
import { newId, nowIso } from './util.js';
import { preShowWindow, type PlanShowtime } from '../domain/showtimes/plan.js';

export type { Showtime };
type Db = Kysely<Database> | Transaction<Database>;
export type ShowtimeRow = Selectable<ShowtimeTable>;

export interface NewShowtime {
  title: string;
  /** Epoch ms. */
  startsAt: number;
  utcOffsetMinutes: number;
}

/** The longest lead a setting allows: pending showtimes further out than this cannot be due yet. */
const MAX_LEAD_MS = 120 * 60_000;

export function toShowtime(row: ShowtimeRow, auditorium: Pick<Auditorium, 'preShowLeadMinutes' | 'preShowEndMinutes'>): Showtime {
  const window = preShowWindow(Date.parse(row.starts_at), { leadMinutes: auditorium.preShowLeadMinutes, endMinutes: auditorium.preShowEndMinutes });
  const claimed = row.pre_show_state !== 'pending' && row.claimed_at !== null;
  return {
    id: row.id,
    auditoriumId: row.auditorium_id,
    title: row.title,
    startsAt: row.starts_at,
    createdAt: row.created_at,
    preShow: {
      state: row.pre_show_state,
      startsAt: claimed ? row.claimed_at! : new Date(window.startsAt).toISOString(),
      endsAt: row.pre_show_ends_at ?? new Date(window.endsAt).toISOString(),
      sessionId: row.session_id,
      note: row.note,
    },
  };
}

export class ShowtimeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Upcoming first (soonest first), then those that have begun, most recent first. */
  async listForAuditorium(auditoriumId: string, now: number, db: Db = this.db): Promise<ShowtimeRow[]> {
    const rows = await db.selectFrom('showtimes').selectAll().where('auditorium_id', '=', auditoriumId).orderBy('starts_at').orderBy('id').execute();
    const cut = new Date(now).toISOString();
    return [...rows.filter((r) => r.starts_at > cut), ...rows.filter((r) => r.starts_at <= cut).reverse()];
  }

  async get(id: string, db: Db = this.db): Promise<ShowtimeRow | undefined> {
    return db.selectFrom('showtimes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertMany(db: Db, auditoriumId: string, showtimes: NewShowtime[]): Promise<ShowtimeRow[]> {
    const rows: ShowtimeRow[] = showtimes.map((s) => ({
      id: newId(),
      auditorium_id: auditoriumId,
      title: s.title,
      starts_at: new Date(s.startsAt).toISOString(),
      utc_offset_minutes: s.utcOffsetMinutes,
      created_at: nowIso(),
      pre_show_state: 'pending',
      session_id: null,
      pre_show_ends_at: null,
      claimed_at: null,
      claimed_by: null,
      note: null,
    }));
    // Batches keep well under SQLite's limit of bound parameters per statement.
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('showtimes').values(rows.slice(i, i + 500)).execute();
    return rows;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('showtimes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** The soonest showtime not begun yet in an auditorium (the idle screen's "next film"). */
  async next(auditoriumId: string, now: number): Promise<ShowtimeRow | undefined> {
    return this.db
      .selectFrom('showtimes')
      .selectAll()
      .where('auditorium_id', '=', auditoriumId)
      .where('starts_at', '>', new Date(now).toISOString())
      .orderBy('starts_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** The scheduler's input: every running claim, and every waiting showtime that could be due. */
  async planInput(now: number): Promise<PlanShowtime[]> {
    const horizon = new Date(now + MAX_LEAD_MS).toISOString();
    const rows = await this.db
      .selectFrom('showtimes')
      .leftJoin('sessions', 'sessions.id', 'showtimes.session_id')
      .select([
        'showtimes.id',
        'showtimes.auditorium_id',
        'showtimes.title',
        'showtimes.starts_at',
        'showtimes.pre_show_state',
        'showtimes.session_id',
        'showtimes.pre_show_ends_at',
        'sessions.status as session_status',
      ])
      .where((eb) => eb.or([eb('showtimes.pre_show_state', '=', 'live'), eb.and([eb('showtimes.pre_show_state', '=', 'pending'), eb('showtimes.starts_at', '<=', horizon)])]))
      .execute();
    return rows.map((r) => ({
      id: r.id,
      auditoriumId: r.auditorium_id,
      title: r.title,
      startsAt: Date.parse(r.starts_at),
      claim: {
        state: r.pre_show_state,
        sessionId: r.session_id,
        sessionStatus: r.session_status ?? null,
        endsAt: r.pre_show_ends_at === null ? null : Date.parse(r.pre_show_ends_at),
      },
    }));
  }

  // Each claim step below is one conditional update: true only for the caller that made it.

  /** pending → live, with its end fixed now. */
  async claimStart(id: string, endsAt: number, now: number, by: string): Promise<boolean> {
    return this.changed(
      this.db
        .updateTable('showtimes')
        .set({ pre_show_state: 'live', pre_show_ends_at: new Date(endsAt).toISOString(), claimed_at: new Date(now).toISOString(), claimed_by: by })
        .where('id', '=', id)
        .where('pre_show_state', '=', 'pending'),
    );
  }

  /** Records the copy made for a claimed pre-show, unless another copy was recorded first (or the showtime is gone). */
  async attachSession(id: string, sessionId: string): Promise<boolean> {
    return this.changed(
      this.db.updateTable('showtimes').set({ session_id: sessionId }).where('id', '=', id).where('pre_show_state', '=', 'live').where('session_id', 'is', null),
    );
  }

  /** live → done (note: why it ended early, if it did). */
  async finish(id: string, note: string | null = null): Promise<boolean> {
    return this.changed(this.db.updateTable('showtimes').set({ pre_show_state: 'done', note }).where('id', '=', id).where('pre_show_state', '=', 'live'));
  }

  /** pending → skipped, with the reason. */
  async skip(id: string, reason: string): Promise<boolean> {
    return this.changed(this.db.updateTable('showtimes').set({ pre_show_state: 'skipped', note: reason }).where('id', '=', id).where('pre_show_state', '=', 'pending'));
  }

  private async changed(query: { executeTakeFirst(): Promise<{ numUpdatedRows: bigint }> }): Promise<boolean> {
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
