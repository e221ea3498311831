/**
 * Showtimes and pre-show settings as the admin API offers them (DESIGN §13): add, list, delete,
 * import, the auditorium's settings, and what an auditorium screen shows now.
 */
import type { AuditoriumNow, Theme } from '../../../protocol/api.js';
import { decodeUtf8, invalidFile, invalidRows, readCsvTable, throwIfInvalid, type CsvSpec, type LineError } from '../files/csv-table.js';
import { DomainError } from '../../errors.js';
import type { SessionLifecycle } from '../sessions/lifecycle.js';
import type { Auditorium, PreShowSettings } from '../../storage/auditoriums.js';
import { toShowtime, type Showtime } from '../../storage/showtimes.js';
import type { Store } from '../../storage/store.js';
import { checkShowtime, crowdingMessage, findCrowding, SHOWTIME_IMPORT_MAX_ROWS, type Scheduled } from './input.js';
import { endPreShowSession } from './runner.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../storage/schema.js';

export const SHOWTIME_CSV_COLUMNS = ['title', 'starts_at'] as const;
type Column = (typeof SHOWTIME_CSV_COLUMNS)[number];

const CSV_SPEC: CsvSpec<Column> = {
  columns: SHOWTIME_CSV_COLUMNS,
  required: SHOWTIME_CSV_COLUMNS,
  rowNoun: 'showtime',
  maxRows: SHOWTIME_IMPORT_MAX_ROWS,
  tooManyRows: (count) =>
    invalidFile(
      `The file has ${count.toLocaleString('en-US')} showtimes; at most ${SHOWTIME_IMPORT_MAX_ROWS.toLocaleString('en-US')} can be imported at once. Split it into smaller files.`,
    ),
};

/** The same film at the same moment: importing a file again adds nothing twice. */
const sameShowing = (a: Scheduled, b: Scheduled) => a.startsAt === b.startsAt && a.title.trim().toLowerCase() === b.title.trim().toLowerCase();

export class ShowtimeService {
  constructor(
    private readonly store: Store,
    private readonly lifecycle: SessionLifecycle,
    private readonly clock: { now(): number },
  ) {}

  async auditorium(id: string): Promise<Auditorium> {
    const auditorium = await this.store.auditoriums.get(id);
    if (!auditorium) throw DomainError.notFound('Auditorium not found');
    return auditorium;
  }

  async list(auditoriumId: string): Promise<Showtime[]> {
    const auditorium = await this.auditorium(auditoriumId);
    const rows = await this.store.showtimes.listForAuditorium(auditoriumId, this.clock.now());
    return rows.map((r) => toShowtime(r, auditorium));
  }

  async add(auditoriumId: string, raw: { title: string; startsAt: string }): Promise<Showtime> {
    const auditorium = await this.auditorium(auditoriumId);
    const checked = checkShowtime(raw, this.clock.now());
    if ('problems' in checked) throw DomainError.invalid(`Invalid showtime: ${checked.problems.join('; ')}`);
    const showtime = checked.value;
    const row = await this.store.db.transaction().execute(async (trx) => {
      await this.lockAuditorium(trx, auditoriumId);
      const existing = await this.scheduled(auditoriumId, trx);
      const crowded = findCrowding(showtime, existing, auditorium.preShowLeadMinutes);
      if (crowded) throw DomainError.conflict(crowdingMessage(showtime, crowded, auditorium.preShowLeadMinutes));
      return (await this.store.showtimes.insertMany(trx, auditoriumId, [showtime]))[0]!;
    });
    return toShowtime(row, auditorium);
  }

  /**
   * CSV `title,starts_at`. Malformed or past rows: 400; rows crowding another showtime: 409; both in
   * the question import's shape ({ message, errors: [{ line, message }] }) and nothing stored.
   */
  async import(auditoriumId: string, bytes: Uint8Array): Promise<{ imported: number; skipped: number }> {
    const auditorium = await this.auditorium(auditoriumId);
    const { rows, errors } = readCsvTable(decodeUtf8(bytes), CSV_SPEC);
    const now = this.clock.now();
    const read: (Scheduled & { line: number; utcOffsetMinutes: number })[] = [];
    for (const row of rows) {
      const checked = checkShowtime({ title: row.cell('title') ?? '', startsAt: row.cell('starts_at') ?? '' }, now, { title: 'title', startsAt: 'starts_at' });
      if ('problems' in checked) for (const message of checked.problems) errors.push({ line: row.line, message });
      else read.push({ line: row.line, ...checked.value });
    }
    throwIfInvalid(errors);

    return this.store.db.transaction().execute(async (trx) => {
      await this.lockAuditorium(trx, auditoriumId);
      const accepted: Scheduled[] = await this.scheduled(auditoriumId, trx);
      const fresh: typeof read = [];
      const crowding: LineError[] = [];
      for (const showtime of read) {
        if (accepted.some((a) => sameShowing(a, showtime))) continue;
        const crowded = findCrowding(showtime, accepted, auditorium.preShowLeadMinutes);
        if (crowded) crowding.push({ line: showtime.line, message: crowdingMessage(showtime, crowded, auditorium.preShowLeadMinutes) });
        accepted.push(showtime);
        fresh.push(showtime);
      }
      if (crowding.length > 0) {
        const error = invalidRows(crowding, 'line');
        throw new DomainError('conflict', error.message, error.extra);
      }
      await this.store.showtimes.insertMany(trx, auditoriumId, fresh);
      return { imported: fresh.length, skipped: read.length - fresh.length };
    });
  }

  /** Deletes a showtime; its pre-show, if running, stops now (one not yet started never will). */
  async remove(id: string): Promise<void> {
    const row = await this.store.showtimes.get(id);
    if (!row || !(await this.store.showtimes.delete(id))) throw DomainError.notFound('Showtime not found');
    if (row.session_id && row.pre_show_state === 'live') await endPreShowSession(this.store, this.lifecycle, row.session_id);
  }

  async updateAuditorium(id: string, patch: Partial<PreShowSettings> & { name?: string }): Promise<Auditorium> {
    const current = await this.auditorium(id);
    if (patch.preShowSessionId && !(await this.store.sessions.get(patch.preShowSessionId))) {
      throw DomainError.invalid('Invalid body: preShowSessionId: no such session');
    }
    const lead = patch.preShowLeadMinutes ?? current.preShowLeadMinutes;
    const end = patch.preShowEndMinutes ?? current.preShowEndMinutes;
    if (end >= lead) {
      throw DomainError.invalid(`Invalid body: the pre-show must stop after it starts: preShowEndMinutes (${end}) must be less than preShowLeadMinutes (${lead})`);
    }
    if (lead > current.preShowLeadMinutes) {
      // A longer lead can make showtimes that were far enough apart crowd each other.
      const upcoming = (await this.scheduled(id)).filter((s) => s.startsAt > this.clock.now()).sort((a, b) => a.startsAt - b.startsAt);
      for (let i = 1; i < upcoming.length; i++) {
        if (findCrowding(upcoming[i]!, [upcoming[i - 1]!], lead)) {
          throw DomainError.conflict(`A lead time of ${lead} min would make showtimes overlap: ${crowdingMessage(upcoming[i]!, upcoming[i - 1]!, lead)}`);
        }
      }
    }
    return (await this.store.auditoriums.update(id, patch))!;
  }

  /** What the auditorium screen shows: the session live there, and the next film not yet begun. */
  async now(auditoriumId: string): Promise<AuditoriumNow> {
    const auditorium = await this.auditorium(auditoriumId);
    const next = await this.store.showtimes.next(auditoriumId, this.clock.now());
    return {
      auditorium: { id: auditorium.id, name: auditorium.name },
      liveSessionId: await this.store.sessions.liveInAuditorium(auditoriumId),
      next: next ? { title: next.title, startsAt: next.starts_at } : null,
    };
  }

  /** The idle screen wears the pre-show template's theme (Marquee's default without a template). */
  async idleTheme(auditoriumId: string): Promise<Theme> {
    const auditorium = await this.auditorium(auditoriumId);
    const template = auditorium.preShowSessionId ? await this.store.sessions.get(auditorium.preShowSessionId) : undefined;
    return template?.theme ?? {};
  }

  /**
   * Serializes the overlap check and the insert per auditorium across connections and instances
   * (PostgreSQL row lock). SQLite runs one transaction at a time on its one connection already.
   */
  private async lockAuditorium(trx: Transaction<Database>, auditoriumId: string): Promise<void> {
    if (this.store.handle.dialect === 'postgres') await trx.selectFrom('auditoriums').select('id').where('id', '=', auditoriumId).forUpdate().execute();
  }

  private async scheduled(auditoriumId: string, db = this.store.db): Promise<Scheduled[]> {
    const rows = await this.store.showtimes.listForAuditorium(auditoriumId, this.clock.now(), db);
    return rows.map((r) => ({ title: r.title, startsAt: Date.parse(r.starts_at) }));
  }
}
