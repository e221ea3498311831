import type { ColumnType } from 'kysely';

/**
 * Table shapes as stored. Portable across SQLite and PostgreSQL: timestamps are ISO-8601 text
 * (they sort as text), booleans are 0/1 integers, lists and objects are JSON text.
 */
export interface AdminTable {
  id: string;
  username: string;
  password_hash: string;
  created_at: string;
}

export interface AdminTokenTable {
  token_hash: string;
  admin_id: string;
  created_at: string;
  expires_at: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface AuditoriumTable {
  id: string;
  name: string;
  created_at: string;
  /** The session copied for each showtime's pre-show; null: no pre-shows. */
  pre_show_session_id: ColumnType<string | null, string | null | undefined, string | null>;
  pre_show_lead_minutes: ColumnType<number, number | undefined, number>;
  pre_show_end_minutes: ColumnType<number, number | undefined, number>;
}

export type PreShowState = 'pending' | 'live' | 'done' | 'skipped';

export interface ShowtimeTable {
  id: string;
  auditorium_id: string;
  title: string;
  /** UTC ISO-8601. */
  starts_at: string;
  /** The offset the time was written with (its local wall time names the pre-show). */
  utc_offset_minutes: number;
  created_at: string;
  pre_show_state: ColumnType<PreShowState, PreShowState | undefined, PreShowState>;
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
  pre_show_ends_at: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_at: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_by: ColumnType<string | null, string | null | undefined, string | null>;
  note: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionTable {
  id: string;
  title: string;
  status: 'draft' | 'scheduled' | 'live' | 'finished';
  created_at: string;
  auditorium_id: string | null;
  starts_at: string | null;
  auto_rotate: number;
  media_items_per_transition: number;
  return_message: string | null;
  current_question_index: number;
  theme: string;
  /** The live runner's resume snapshot (JSON), null when not live. */
  live_state: string | null;
  /** The prize draw's settings (JSON { enabled, prize, consentText }); null: no draw. */
  prize_draw: ColumnType<string | null, string | null | undefined, string | null>;
  /** Fencing epoch of the session's owner in multi-instance mode (server/transport/cluster/fence.ts). */
  owner_epoch: ColumnType<number, number | undefined, number>;
  /** Registrations allowed (DESIGN §15). */
  max_players: ColumnType<number, number | undefined, number>;
  nicknames: ColumnType<'free' | 'generated', 'free' | 'generated' | undefined, 'free' | 'generated'>;
  /** When the session last finished: its player tokens expire 24 h later. */
  ended_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the audience sees instead of `title` (a pre-show copy: its template's title); null: the title. */
  audience_title: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface QuestionTable {
  id: string;
  text: string;
  choices: string;
  correct_index: number;
  points: number;
  time_limit_seconds: number;
  categories: string;
  media_id: string | null;
  created_at: string;
}

export interface SessionItemTable {
  id: string;
  session_id: string;
  order_index: number;
  item_type: 'question' | 'slide' | 'media_block';
  question_id: string | null;
  slide_type: string | null;
  slide_data: string | null;
  media_item_count: number | null;
}

export interface MediaTable {
  id: string;
  file_path: string;
  phone_file_path: string | null;
  file_type: string;
  duration: number;
  promotional_link: string | null;
  created_at: string;
}

export interface SessionMediaTable {
  session_id: string;
  media_id: string;
  created_at: string;
}

export interface PlayerTable {
  id: string;
  name: string;
  email: string;
  /** "{sessionId} {lower-cased email}" (one player per email per session); older players: the email alone. */
  email_key: string;
  created_at: string;
  /** The session the player joined (null: registered before players were per session). */
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for the session's first player, 2 for the next...: a hidden player shows as "Player {n}". */
  join_order: ColumnType<number | null, number | null | undefined, number | null>;
  hidden: ColumnType<number, number | undefined, number>;
  kicked: ColumnType<number, number | undefined, number>;
}

export interface PlayerTokenTable {
  token_hash: string;
  player_id: string;
  created_at: string;
  /** The only session the token authorises (null: issued before tokens were scoped: none). */
  session_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface LiveRosterTable {
  session_id: string;
  player_id: string;
}

export interface AnswerTable {
  session_id: string;
  player_id: string;
  question_id: string;
  /** Which asking of a question in this session (a question asked again in a later loop is a new asking). */
  asking: number;
  selected_index: number;
  is_correct: number;
  points_earned: number;
  elapsed_ms: number;
  answered_at: string;
}

/** One asking of a question in a session (the "times asked" of the results). */
export interface QuestionAskingTable {
  session_id: string;
  asking: number;
  question_id: string;
  asked_at: string;
}

export interface ScoreTable {
  session_id: string;
  player_id: string;
  points_total: number;
  /** When the player reached the current total: the leaderboard tie-break. */
  reached_at: string;
}

/** A player's yes to the prize draw of one session, with the words they agreed to. */
export interface PrizeConsentTable {
  session_id: string;
  player_id: string;
  consent_text: string;
  consented_at: string;
}

export interface PrizeDrawTable {
  id: string;
  session_id: string;
  created_at: string;
  drawn_by: string;
  prize: string;
  requested_count: number;
  min_score: number | null;
  /** How many players the winners were drawn from. */
  eligible: number;
}

export interface PrizeDrawWinnerTable {
  draw_id: string;
  player_id: string;
  /** 1-based order in which the winner was drawn. */
  position: number;
  points_total: number;
}

export interface Database {
  admins: AdminTable;
  admin_tokens: AdminTokenTable;
  settings: SettingTable;
  auditoriums: AuditoriumTable;
  showtimes: ShowtimeTable;
  sessions: SessionTable;
  questions: QuestionTable;
  session_items: SessionItemTable;
  media: MediaTable;
  session_media: SessionMediaTable;
  players: PlayerTable;
  player_tokens: PlayerTokenTable;
  answers: AnswerTable;
  /** SQLite's log of the latest questions' answers, moved into `answers` at the game's next quiet step (scores.ts). */
  answer_log: AnswerTable;
  /** Players who joined a live game since its snapshot's roster was last written (migration 013). */
  live_roster: LiveRosterTable;
  question_askings: QuestionAskingTable;
  scores: ScoreTable;
  prize_consents: PrizeConsentTable;
  prize_draws: PrizeDrawTable;
  prize_draw_winners: PrizeDrawWinnerTable;
}
