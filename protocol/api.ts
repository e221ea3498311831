/**
 * JSON shapes of the REST API (DESIGN §2), shared by the server's repositories and the web app.
 * Timestamps are ISO-8601 strings; ids are opaque strings.
 */
import type { MediaView, SessionStatus, SlideType } from './views.js';

/**
 * Where a phone whose socket is down sends its pick (body: messages.ts `PlayerAnswerBody`). Here,
 * beside the other REST shapes, so the phone's bundle can import it without the zod schemas.
 */
export const PLAYER_ANSWER_PATH = '/api/player/answer';

export type QuestionTextSize = 'small' | 'medium' | 'large' | 'xlarge';
export type QuestionFontWeight = 'normal' | 'medium' | 'semibold' | 'bold' | 'black';
export type BackgroundOverlay = 'none' | 'light' | 'medium' | 'dark';

/** SPEC §3 Theme: every field optional; images are media paths (null or absent: none). */
export interface Theme {
  primaryColor?: string;
  secondaryColor?: string;
  backgroundColor?: string;
  textColor?: string;
  successColor?: string;
  timerWarningColor?: string;
  primaryFont?: string;
  secondaryFont?: string;
  monoFont?: string;
  questionTextSize?: QuestionTextSize;
  questionFontWeight?: QuestionFontWeight;
  backgroundOverlay?: BackgroundOverlay;
  backdropBlur?: boolean;
  logo?: string | null;
  headerBackgroundImage?: string | null;
  mainBackgroundImage?: string | null;
}

/** A session's consent-first prize draw (DESIGN §11). */
export interface PrizeDrawSettings {
  enabled: boolean;
  /** What can be won, e.g. "Two tickets for next Friday". */
  prize: string;
  /** The words next to the join form's consent box, stored with each consent. */
  consentText: string;
}

export interface Session {
  id: string;
  title: string;
  status: SessionStatus;
  createdAt: string;
  auditoriumId: string | null;
  startsAt: string | null;
  autoRotate: boolean;
  mediaItemsPerTransition: number;
  returnMessage: string | null;
  currentQuestionIndex: number;
  theme: Theme;
  prizeDraw: PrizeDrawSettings;
  /** Registrations allowed (DESIGN §15): 1-100000, default 2000. */
  maxPlayers: number;
  /** `free`: players type their name (filtered); `generated`: the server names them. */
  nicknames: NicknameMode;
  /** The title screens and phones show when it is not `title`: a pre-show copy shows its template's (DESIGN §17). */
  audienceTitle?: string;
}

export const NICKNAME_MODES = ['free', 'generated'] as const;
export type NicknameMode = (typeof NICKNAME_MODES)[number];

export type ItemType = 'question' | 'slide' | 'media_block';

/** An entry of `GET /api/admin/sessions/{id}/items`. */
export interface SessionItem {
  id: string;
  sessionId: string;
  orderIndex: number;
  itemType: ItemType;
  questionId: string | null;
  question: { id: string; text: string; categories: string[]; points: number; timeLimitSeconds: number } | null;
  slideType: SlideType | null;
  slideData: { text?: string } | null;
  mediaItemCount: number | null;
}

/** An entry of `GET /api/admin/sessions/{id}/questions`. */
export interface SessionQuestionLink {
  questionId: string;
  sessionId: string;
  orderIndex: number;
}

export interface Question {
  id: string;
  text: string;
  choices: string[];
  correctIndex: number;
  points: number;
  timeLimitSeconds: number;
  categories: string[];
  mediaId: string | null;
  createdAt: string;
}

export interface Player {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  /** The session the player joined (null: registered before players were per session). */
  sessionId: string | null;
  /** Order of joining that session, from 1: a hidden player shows as "Player {joinOrder}". */
  joinOrder: number | null;
  hidden: boolean;
  kicked: boolean;
}

export interface Auditorium {
  id: string;
  name: string;
  createdAt: string;
  /** The session copied for each showtime's pre-show (DESIGN §13); null: no automatic pre-shows. */
  preShowSessionId: string | null;
  /** Minutes before a showtime its pre-show starts (1–120, default 20). */
  preShowLeadMinutes: number;
  /** Minutes before a showtime its pre-show stops (0–60, default 2). */
  preShowEndMinutes: number;
}

/** Where a showtime's pre-show stands: waiting, running, over, or left out (with the reason in `note`). */
export type PreShowState = 'pending' | 'live' | 'done' | 'skipped';

/** A film showing in an auditorium (DESIGN §13), with its pre-show. */
export interface Showtime {
  id: string;
  auditoriumId: string;
  title: string;
  /** ISO-8601 in UTC. */
  startsAt: string;
  createdAt: string;
  preShow: {
    state: PreShowState;
    /** When the pre-show starts and stops: from the auditorium's settings, fixed once it has started. */
    startsAt: string;
    endsAt: string;
    /** The copy made for this showing, once made. */
    sessionId: string | null;
    /** Why a pre-show was skipped or ended early. */
    note: string | null;
  };
}

/** `GET /api/auditoriums/{id}/now`: what an auditorium screen shows. */
export interface AuditoriumNow {
  auditorium: { id: string; name: string };
  liveSessionId: string | null;
  next: { title: string; startsAt: string } | null;
}

/** A library entry: what screens see of it (MediaView) plus when it was added. */
export interface Media extends MediaView {
  createdAt: string;
}

/** `GET /api/sessions/{id}`: what a display or a phone needs to draw the session. */
export interface PublicSessionInfo {
  id: string;
  title: string;
  status: SessionStatus;
  theme: Theme;
  mediaItemsPerTransition: number;
  /** Shown on the join form: the consent box appears only when enabled. */
  prizeDraw: PrizeDrawSettings;
}

/** An entry of `GET /api/admin/sessions/{id}/media`. */
export interface SessionMediaLink {
  mediaId: string;
  sessionId: string;
}

/** One prize draw: `POST /api/admin/sessions/{id}/draws` answers it, `GET` lists them newest first. */
export interface PrizeDraw {
  id: string;
  createdAt: string;
  /** How many players the winners were drawn from. */
  eligible: number;
  winners: { player: { id: string; name: string; email: string }; pointsTotal: number }[];
  /** The administrator who drew. */
  drawnBy: string;
  prize: string;
  minScore: number | null;
}

/** One row of a session's full leaderboard (DESIGN §10): everyone who answered, highest first. */
export interface ResultsLeaderboardEntry {
  /** 1-based; the same total shares a rank (1, 2, 2, 4). */
  rank: number;
  player: { id: string; name: string; email: string };
  pointsTotal: number;
  /** Answers given in this session, and how many were right. */
  answered: number;
  correct: number;
}

/** Per question of a session: how often it was asked and how the room answered. */
export interface QuestionResults {
  questionId: string;
  text: string;
  askings: number;
  answers: number;
  correct: number;
  /** Average time to answer, in ms; null when nobody answered. */
  averageMs: number | null;
  /** Answers per choice, [A, B, C, D]. */
  distribution: number[];
  /** Index 0–3 of the right choice (the admin's view of the results). */
  correctIndex: number;
  choices: string[];
}

export interface SessionResults {
  session: { id: string; title: string; status: SessionStatus };
  leaderboard: ResultsLeaderboardEntry[];
  questions: QuestionResults[];
}

/** One player's answers in one session, in the order they were given. */
export interface PlayerAnswerRow {
  questionId: string;
  text: string;
  asking: number;
  selectedIndex: number;
  /** The chosen answer's text. */
  choice: string;
  isCorrect: boolean;
  pointsEarned: number;
  answerMs: number;
  answeredAt: string;
}

export interface PlayerResults {
  player: { id: string; name: string; email: string };
  answers: PlayerAnswerRow[];
}

/** A question as question files carry it: the JSON export's entry shape (DESIGN §11). */
export type ImportedQuestion = Pick<Question, 'text' | 'choices' | 'correctIndex' | 'points' | 'timeLimitSeconds' | 'categories'>;

export type QuestionFileFormat = 'csv' | 'json';

/** The answer of `POST /api/admin/questions/import` (DESIGN §11). */
export interface ImportResult {
  imported: number;
  skipped: number;
  /** The questions that would be stored: only on a dry run (the preview). */
  questions?: ImportedQuestion[];
}

/** The "Elegant Gold" theme preset (SPEC §3), also the demo show's theme. */
export const ELEGANT_GOLD_THEME = {
  primaryColor: '#D4AF37',
  secondaryColor: '#B8860B',
  backgroundColor: '#000000',
  textColor: '#F5F0E1',
  successColor: '#9ACD32',
  timerWarningColor: '#FF8C00',
  primaryFont: 'Georgia, serif',
  secondaryFont: 'Georgia, serif',
  monoFont: "'Courier New', monospace",
  questionTextSize: 'large',
  questionFontWeight: 'semibold',
  backgroundOverlay: 'medium',
  backdropBlur: true,
} satisfies Theme;

/** One live game on the operator's overview, `GET /api/admin/live` (DESIGN §18). */
export interface LiveGame {
  sessionId: string;
  title: string;
  /** The auditorium's name; null when the session has none. */
  auditorium: string | null;
  status: 'live';
  /** What the screen shows: a question (open or its reveal), a slide, media, or nothing moving (a hold, the start). */
  item: 'question' | 'slide' | 'media' | 'idle';
  /** 1-based number of the question on screen, or of the last one asked; null before the first. */
  questionNumber: number | null;
  questions: number;
  /** Phones in the game now (players with an open socket). */
  phones: number;
  displays: number;
  /** Answers to the question on screen (0 when none is). */
  answered: number;
  /** Players who came back (a socket opened by a player seen earlier in the game) in the last 60 s. */
  reconnectsLastMinute: number;
  /** down: no instance runs the game; warn: no display up, or many phones coming back; ok otherwise (docs/REALTIME.md). */
  health: 'ok' | 'warn' | 'down';
}
