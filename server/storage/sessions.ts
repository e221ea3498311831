import type { NicknameMode, PrizeDrawSettings, Session, Theme } from '../../protocol/api.js';
import type { Kysely, QueryResult, Selectable } from 'kysely';
import type { Database, SessionTable } from './schema.js';
import { compiledOnce, newId, nowIso, parseJson } from './util.js';

export type { Session };
export type SessionStatus = SessionTable['status'];

export interface SessionInput {
  title: string;
  auditoriumId: string | null;
  startsAt: string | null;
  autoRotate: boolean;
  mediaItemsPerTransition: number;
  returnMessage: string | null;
  prizeDraw?: PrizeDrawSettings;
  maxPlayers?: number;
  nicknames?: NicknameMode;
}

export const DEFAULT_MAX_PLAYERS = 2000;

export const NO_PRIZE_DRAW: PrizeDrawSettings = { enabled: false, prize: '', consentText: '' };

export function toPrizeDraw(json: string | null | undefined): PrizeDrawSettings {
  const value = parseJson<Partial<PrizeDrawSettings> | null>(json, null);
  if (!value || typeof value !== 'object') return { ...NO_PRIZE_DRAW };
  return {
    enabled: value.enabled === true,
    prize: typeof value.prize === 'string' ? value.prize : '',
    consentText: typeof value.consentText === 'string' ? value.consentText : '',
  };
}

/**
 * The columns a Session is read from: not the resume snapshot (`live_state`, tens of KB with a
 * full house's roster, read only by the room that resumes the game) nor the owner epoch. Every
 * WebSocket connect looks its session up, so a storm of reconnects must not read the snapshot
 * thousands of times.
 */
const SESSION_COLUMNS = [
  'id', 'title', 'status', 'created_at', 'auditorium_id', 'starts_at', 'auto_rotate', 'media_items_per_transition',
  'return_message', 'current_question_index', 'theme', 'prize_draw', 'max_players', 'nicknames', 'audience_title',
] as const satisfies readonly (keyof SessionTable)[];

type SessionRow = Omit<Selectable<SessionTable>, 'prize_draw' | 'owner_epoch' | 'live_state' | 'max_players' | 'nicknames' | 'ended_at' | 'audience_title'> & {
  prize_draw?: string | null;
  max_players?: number;
  nicknames?: NicknameMode;
  audience_title?: string | null;
};

export function toSession(row: SessionRow): Session {
  const theme = parseJson<unknown>(row.theme, {});
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    createdAt: row.created_at,
    auditoriumId: row.auditorium_id,
    startsAt: row.starts_at,
    autoRotate: row.auto_rotate === 1,
    mediaItemsPerTransition: row.media_items_per_transition,
    returnMessage: row.return_message,
    currentQuestionIndex: row.current_question_index,
    // Written by us after validation; anything else (a damaged value) reads as the empty theme.
    theme: theme && typeof theme === 'object' && !Array.isArray(theme) ? (theme as Theme) : {},
    prizeDraw: toPrizeDraw(row.prize_draw),
    maxPlayers: row.max_players ?? DEFAULT_MAX_PLAYERS,
    nicknames: row.nicknames === 'generated' ? 'generated' : 'free',
    ...(row.audience_title ? { audienceTitle: row.audience_title } : {}),
  };
}

export class SessionRepository {
  /** `get`, compiled once: it runs for every registration, admin request and screen's connect. */
  private readonly byId: (values: { id: string }) => Promise<QueryResult<SessionRow>>;

  constructor(private readonly db: Kysely<Database>) {
    this.byId = compiledOnce(db, (slot) => db.selectFrom('sessions').select(SESSION_COLUMNS).where('id', '=', slot('id')));
  }

  async list(): Promise<Session[]> {
    const rows = await this.db.selectFrom('sessions').select(SESSION_COLUMNS).orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toSession);
  }

  async get(id: string): Promise<Session | undefined> {
    const { rows } = await this.byId({ id });
    return rows[0] && toSession(rows[0]);
  }

  async listByStatus(status: SessionStatus): Promise<Session[]> {
    const rows = await this.db.selectFrom('sessions').select(SESSION_COLUMNS).where('status', '=', status).execute();
    return rows.map(toSession);
  }

  /**
   * The session live in an auditorium (what its screen shows): a showtime's pre-show first, else
   * the most recently created one started by hand.
   */
  async liveInAuditorium(auditoriumId: string): Promise<string | null> {
    const rows = await this.db
      .selectFrom('sessions')
      .leftJoin('showtimes', (join) => join.onRef('showtimes.session_id', '=', 'sessions.id').on('showtimes.pre_show_state', '=', 'live'))
      .select(['sessions.id', 'sessions.created_at', 'showtimes.id as showtime_id'])
      .where('sessions.auditorium_id', '=', auditoriumId)
      .where('sessions.status', '=', 'live')
      .execute();
    rows.sort((a, b) => Number(b.showtime_id !== null) - Number(a.showtime_id !== null) || b.created_at.localeCompare(a.created_at));
    return rows[0]?.id ?? null;
  }

  async create(input: SessionInput, status: SessionStatus, theme: Theme = {}): Promise<Session> {
    const row = {
      id: newId(),
      title: input.title,
      status,
      created_at: nowIso(),
      auditorium_id: input.auditoriumId,
      starts_at: input.startsAt,
      auto_rotate: input.autoRotate ? 1 : 0,
      media_items_per_transition: input.mediaItemsPerTransition,
      return_message: input.returnMessage,
      current_question_index: 0,
      theme: JSON.stringify(theme),
      live_state: null,
      prize_draw: input.prizeDraw ? JSON.stringify(input.prizeDraw) : null,
      max_players: input.maxPlayers ?? DEFAULT_MAX_PLAYERS,
      nicknames: input.nicknames ?? 'free',
    };
    await this.db.insertInto('sessions').values(row).execute();
    return toSession(row);
  }

  async update(id: string, patch: Partial<SessionInput> & { status?: SessionStatus; theme?: Theme }): Promise<Session | undefined> {
    const values: Partial<Selectable<SessionTable>> = {};
    if (patch.title !== undefined) {
      values.title = patch.title;
      // An operator's rename is what everyone sees from then on, a pre-show copy included; the
      // edit form sends the unchanged title with every save, which keeps the audience's title.
      const current = await this.db.selectFrom('sessions').select('title').where('id', '=', id).executeTakeFirst();
      if (current && current.title !== patch.title) values.audience_title = null;
    }
    if (patch.auditoriumId !== undefined) values.auditorium_id = patch.auditoriumId;
    if (patch.startsAt !== undefined) values.starts_at = patch.startsAt;
    if (patch.autoRotate !== undefined) values.auto_rotate = patch.autoRotate ? 1 : 0;
    if (patch.mediaItemsPerTransition !== undefined) values.media_items_per_transition = patch.mediaItemsPerTransition;
    if (patch.returnMessage !== undefined) values.return_message = patch.returnMessage;
    if (patch.status !== undefined) values.status = patch.status;
    if (patch.theme !== undefined) values.theme = JSON.stringify(patch.theme);
    if (patch.prizeDraw !== undefined) values.prize_draw = JSON.stringify(patch.prizeDraw);
    if (patch.maxPlayers !== undefined) values.max_players = patch.maxPlayers;
    if (patch.nicknames !== undefined) values.nicknames = patch.nicknames;
    if (Object.keys(values).length > 0) {
      await this.db.updateTable('sessions').set(values).where('id', '=', id).execute();
    }
    return this.get(id);
  }

  /**
   * Moves a session to a new status only if it is still in one of `from`; false when another
   * request changed it first. Going live or finishing clears the runner's snapshot and position.
   */
  async transition(id: string, from: SessionStatus[], to: SessionStatus): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      // Finishing starts the 24 h after which the session's player tokens expire (DESIGN §15).
      .set({ status: to, live_state: null, current_question_index: 0, ended_at: to === 'finished' ? nowIso() : null })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes a session unless it is live (checked in the same statement, so a start cannot slip between). */
  async deleteUnlessLive(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).where('status', '!=', 'live').executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async countByStatus(status: SessionStatus): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async getLiveState(id: string): Promise<string | null> {
    const row = await this.db.selectFrom('sessions').select('live_state').where('id', '=', id).executeTakeFirst();
    return row?.live_state ?? null;
  }

  async saveLiveState(id: string, liveState: string | null, currentQuestionIndex: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ live_state: liveState, current_question_index: currentQuestionIndex })
      .where('id', '=', id)
      .execute();
  }
}
