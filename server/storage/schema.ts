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
  /** Lower-cased email: registering again with the same address returns the same player. */
  email_key: string;
  created_at: string;
}

export interface PlayerTokenTable {
  token_hash: string;
  player_id: string;
  created_at: string;
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

export interface ScoreTable {
  session_id: string;
  player_id: string;
  points_total: number;
  /** When the player reached the current total: the leaderboard tie-break. */
  reached_at: string;
}

export interface Database {
  admins: AdminTable;
  admin_tokens: AdminTokenTable;
  settings: SettingTable;
  auditoriums: AuditoriumTable;
  sessions: SessionTable;
  questions: QuestionTable;
  session_items: SessionItemTable;
  media: MediaTable;
  session_media: SessionMediaTable;
  players: PlayerTable;
  player_tokens: PlayerTokenTable;
  answers: AnswerTable;
  scores: ScoreTable;
}
