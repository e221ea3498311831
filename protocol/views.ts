/**
 * The shapes that cross the wire inside server messages: what a display, a phone and an admin
 * screen are allowed to see. Shared by the server and the web app, so nothing here may import
 * node:* or server code.
 *
 * The one rule that matters most: a `QuestionView` (what players and displays get) has no
 * `correctIndex`. Only `AdminQuestionView` carries it; the answer reaches everyone else in
 * `question_end`, after the question has closed.
 */

export type SessionStatus = 'draft' | 'scheduled' | 'live' | 'finished';

export type SlideType = 'intro' | 'rules' | 'break' | 'leaderboard' | 'join';

/**
 * Where the live game stands.
 * - waiting: the session is not live yet (draft or scheduled); screens wait.
 * - question: a question is open for answers, with a countdown.
 * - reveal: the question has closed; the correct choice is shown for a few seconds.
 * - between: the transition after a question (interstitial media or "Get Ready!").
 * - slide / media: a slide item or a media-block item.
 * - hold: auto-play is off and the current item has ended; waiting for Next or Resume.
 * - finished: the session was stopped.
 */
export type GamePhase = 'waiting' | 'question' | 'reveal' | 'between' | 'slide' | 'media' | 'hold' | 'finished';

export interface MediaView {
  id: string;
  filePath: string;
  phoneFilePath: string | null;
  /** 'video' or 'image' (older rows may hold a MIME type such as 'video/mp4'). */
  fileType: string;
  /** How long the item stays on screen, in seconds. */
  duration: number;
  promotionalLink: string | null;
}

/** A question as players and displays see it while it is open: never with `correctIndex`. */
export interface QuestionView {
  id: string;
  text: string;
  choices: string[];
  points: number;
  timeLimitSeconds: number;
  categories: string[];
  media: MediaView | null;
}

/** Admins steer the game and may see the answer while the question runs. */
export interface AdminQuestionView extends QuestionView {
  correctIndex: number;
}

export interface SlideView {
  /** The session item this slide comes from. */
  itemId: string;
  slideType: SlideType;
  slideData: { text?: string };
}

export interface LeaderboardEntry {
  player: { id: string; name: string };
  score: { pointsTotal: number };
}

/** Shown to late joiners during the reveal; absent (null) while the question is open. */
export interface RevealView {
  questionId: string;
  correctIndex: number;
  /** Answers per choice, [A, B, C, D] (the same as `question_end`'s). */
  distribution: number[];
}

/** The fields every role's `session_state` shares. */
export interface SessionStateBase {
  type: 'session_state';
  sessionId: string;
  status: SessionStatus;
  phase: GamePhase;
  /** The server's clock (epoch ms) when the message was built, for clock-offset estimation. */
  serverTime: number;
  /** When the current timed phase ends (epoch ms); null when nothing is counting down. */
  endsAt: number | null;
  /** Whole seconds left in the current timed phase (rounded up); null when nothing counts down. */
  timeRemaining: number | null;
  slide: SlideView | null;
  reveal: RevealView | null;
  /** Top 10, highest first. */
  leaderboard: LeaderboardEntry[];
  /** The session's assigned media, in order, for interstitials and media blocks. */
  media: MediaView[];
  /** How many media items to rotate through now; null when no media should show. */
  mediaItemCount: number | null;
  /** 1-based position of the shown question among the session's questions (question and reveal only). */
  questionNumber?: number;
  /** How many questions the session has; with questionNumber: "Question 3 of 10". */
  totalQuestions?: number;
}

/** Broadcast to every player and display at once: built once, serialized once. */
export interface AudienceSessionState extends SessionStateBase {
  view: 'audience';
  question: QuestionView | null;
}

/** Sent to one player when their socket connects: the audience state plus their own standing. */
export interface PlayerSessionState extends SessionStateBase {
  view: 'player';
  question: QuestionView | null;
  playerId: string;
  playerScore: number;
  /** Whether this player already answered the current asking (their buttons stay locked). */
  answered: boolean;
  selectedIndex: number | null;
  /** Known once the question has closed (reveal phase); null before. */
  answerResult: { isCorrect: boolean; pointsEarned: number } | null;
}

export interface AdminSessionInfo {
  status: SessionStatus;
  autoRotate: boolean;
  /** 0-based position of the current question among the session's questions; null when none is shown. */
  currentQuestionIndex: number | null;
  totalQuestions: number;
  /** 0-based position of the current item in the session's item list; null before the first item. */
  currentItemIndex: number | null;
  totalItems: number;
}

/** Sent to admins: the question with its answer, and the live controls' state. */
export interface AdminSessionState extends SessionStateBase {
  view: 'admin';
  question: AdminQuestionView | null;
  session: AdminSessionInfo;
}

export type SessionState = AudienceSessionState | PlayerSessionState | AdminSessionState;
