/**
 * Types of the pure game engine: what it is given (the program), what it holds (the state),
 * what it is told (events) and what it asks the outside world to do (effects).
 * All times are epoch milliseconds from the runner's clock; the engine never reads a clock.
 */
import type { LeaderboardEntry, MediaView, Question, ServerMessage, SessionStatus, SlideType } from '../../../protocol/index.js';
import type { PMap } from './pmap.js';
import type { Insight, Presence, Standings } from './state-parts.js';

// ---------------------------------------------------------------------------------------------
// Program: the session's content, loaded by the runner from storage.

/** A bank question as the game plays it: its media resolved, bookkeeping fields dropped. */
export type ProgramQuestion = Omit<Question, 'mediaId' | 'createdAt'> & { media: MediaView | null };

export type ProgramItem =
  | { itemType: 'question'; id: string; question: ProgramQuestion }
  | { itemType: 'slide'; id: string; slideType: SlideType; slideData: { text?: string } }
  | { itemType: 'media_block'; id: string; mediaItemCount: number };

export interface Program {
  sessionId: string;
  /** In play order. */
  items: ProgramItem[];
  /** The media assigned to the session, in rotation order. */
  media: MediaView[];
  mediaItemsPerTransition: number;
}

// ---------------------------------------------------------------------------------------------
// State

export interface ScoreRecord {
  name: string;
  pointsTotal: number;
  /** When the player reached `pointsTotal`: earlier wins a tie. */
  reachedAtMs: number;
}

/** A player's answer to the current asking. Scored on arrival; applied to totals at the end. */
export interface AnswerRecord {
  questionId: string;
  selectedIndex: number;
  isCorrect: boolean;
  pointsEarned: number;
  /** The credited time (credit.ts): the phone's reaction within the server's measured bound. */
  elapsedMs: number;
  answeredAtMs: number;
  /** The phone's id for this pick: a resend with it is answered with the same acceptance. Not stored. */
  answerId?: string;
}

interface TimedPhase {
  itemIndex: number;
  startedAtMs: number;
  endsAtMs: number;
}

export type Phase =
  | { kind: 'waiting' }
  | (TimedPhase & {
      kind: 'question';
      asking: number;
      answers: PMap<AnswerRecord>;
      /** The next whole second after the start at which a timer_tick is due. */
      nextTickAtMs: number;
      /** Past the deadline: the reveal waits until then for answers in flight (credit.ts). */
      holdUntilMs?: number;
    })
  /** distribution: answers per choice, counted once when the question closed. */
  | (TimedPhase & { kind: 'reveal'; asking: number; answers: PMap<AnswerRecord>; distribution: number[] })
  | (TimedPhase & { kind: 'between'; mediaItemCount: number })
  | (TimedPhase & { kind: 'slide' })
  | (TimedPhase & { kind: 'media'; mediaItemCount: number })
  /** itemIndex: the item that just ended (-1 when the session has no items). */
  | { kind: 'hold'; itemIndex: number; startedAtMs: number }
  | { kind: 'finished' };

export type PhaseKind = Phase['kind'];

export interface EngineState {
  program: Program;
  status: SessionStatus;
  autoRotate: boolean;
  phase: Phase;
  /** Increments every time any question is broadcast; answers are unique per (player, asking). */
  asking: number;
  scores: PMap<ScoreRecord>;
  /** Open sockets, recent drops and a resume's awaited roster: who counts for the early end (presence.ts). */
  presence: Presence;
  /** Display sockets open (the admin's presence count; displays play no part in the game). */
  displays: number;
  /** Throttling of answer_progress and presence (insight.ts). */
  insight: Insight;
  /** Each player's last measured delay (ms), reported by the transport: sizes the reveal's hold (credit.ts). */
  delays: PMap<number>;
  /** Names of players seen connecting, for leaderboard rows of first-time scorers. */
  names: PMap<string>;
  /** The players who joined last, newest first (at most LOBBY_RECENT_NAMES): the display's lobby. */
  recentJoins: readonly string[];
  /** Every scorer, best first: re-ranked at a question's end by merging only who changed (standings.ts). */
  standings: Standings;
  /** Top 10, recomputed only when scores change (views are built often, scores change rarely). */
  leaderboard: LeaderboardEntry[];
  /** Position of the current (or last asked) question among the questions: persisted on the session row. */
  lastQuestionIndex: number;
  /**
   * A program edited while an item runs: it takes over at the next item boundary, so the item on
   * screen (an open question in particular) never changes under the players. See program.ts.
   */
  pendingProgram: Program | null;
}

// ---------------------------------------------------------------------------------------------
// Events

export type EngineEvent =
  /** The session went live: play from item 0. */
  | { type: 'start' }
  /** The session was stopped. */
  | { type: 'stop' }
  /** The wake-up requested by the last `wakeAt` effect (early or late calls are harmless). */
  | { type: 'timer' }
  /**
   * The runner delivered the close's results only now: their commit waited for storage (DESIGN
   * §16). The reveal runs its full length from here, so phones coming back see it with their result.
   */
  | { type: 'results_delivered' }
  | { type: 'player_connected'; playerId: string; name: string }
  | { type: 'player_disconnected'; playerId: string }
  /** The host kicked (screenName null), hid or renamed a player (moderation.ts). */
  | { type: 'player_moderated'; playerId: string; screenName: string | null }
  | { type: 'display_connected' }
  | { type: 'display_disconnected' }
  | {
      type: 'submit_answer';
      connectionId: string;
      playerId: string;
      questionId: string;
      selectedIndex: number;
      /** DESIGN §14: the phone's id for the pick and its reaction time; absent from older clients. */
      answerId?: string;
      reactionMs?: number;
      /** What the transport measured of this phone's delay when the answer arrived (credit.ts). */
      allowanceMs?: number;
      /**
       * Set by the runner when the answer reached the server before the game's clock it is applied
       * at (held by a Redis outage on its way to the owner, DESIGN §16): it is timed and judged
       * late or not by this arrival, never earlier than the question's start.
       */
      arrivedAtMs?: number;
    }
  /** The transport measured a new delay for a player's link (it reports changes, not every sample). */
  | { type: 'player_delay'; playerId: string; allowanceMs: number }
  | { type: 'admin_next_question'; connectionId?: string }
  | { type: 'admin_pause'; connectionId?: string }
  | { type: 'admin_toggle_autorotate'; connectionId?: string; autoRotate: boolean }
  /** The session's items, questions or media were edited (reloaded by the runner). */
  | { type: 'program_changed'; program: Program };

// ---------------------------------------------------------------------------------------------
// Effects: plain data the runner carries out, in order.

/**
 * `audience` = players and displays: everyone who must not see an open question's answer.
 * `screens` = admins and displays: the insight counts, which phones never get.
 */
export type BroadcastTarget = 'all' | 'audience' | 'players' | 'displays' | 'admins' | 'screens';

/** What the runner stores so a restarted server can continue (see resume.ts). */
export interface LiveSnapshot {
  version: 1;
  itemIndex: number;
  /** The item's id, to notice a program that changed under a stored snapshot. */
  itemId: string | null;
  phase: Exclude<PhaseKind, 'waiting' | 'finished'>;
  phaseStartedAtMs: number;
  phaseEndsAtMs: number | null;
  /** Asking number of the question in the question/reveal phase, else of the last one asked. */
  asking: number;
  autoRotate: boolean;
  mediaItemCount: number | null;
  /**
   * Players who counted as present when the snapshot was written: after a resume they count for
   * the early end until they reconnect or the resume grace ends (presence.ts). Absent in older snapshots.
   */
  roster?: string[];
  /** A question past its deadline held for answers in flight: when the hold ends (credit.ts). */
  holdUntilMs?: number;
}

export interface ScoreWrite {
  playerId: string;
  pointsTotal: number;
  reachedAtMs: number;
}

export type Effect =
  /** One message object for many sockets: serialize it once. */
  | { kind: 'broadcast'; to: BroadcastTarget; message: ServerMessage }
  /** To every socket of one player. */
  | { kind: 'send'; playerId: string; message: ServerMessage }
  /** To the one connection that caused an event (errors). */
  | { kind: 'reply'; connectionId: string; message: ServerMessage }
  | { kind: 'saveAnswer'; sessionId: string; playerId: string; asking: number; answer: AnswerRecord }
  /** A question went out (the results' "times asked"): stored with the step's commit. */
  | { kind: 'saveAsking'; sessionId: string; asking: number; questionId: string; atMs: number }
  /** Absolute totals (idempotent), written when a question closes. */
  | { kind: 'saveScores'; sessionId: string; scores: ScoreWrite[] }
  /** live null: nothing to resume (the session stopped). */
  | { kind: 'persist'; sessionId: string; live: LiveSnapshot | null; currentQuestionIndex: number }
  /** Replace the pending wake-up; null cancels it. */
  | { kind: 'wakeAt'; atMs: number | null };

export interface ReduceResult {
  state: EngineState;
  effects: Effect[];
}
