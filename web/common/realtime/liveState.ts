import type {
  GamePhase,
  LeaderboardEntry,
  MediaView,
  PublicSessionInfo,
  QuestionView,
  ServerMessage,
  SessionStatus,
  SlideView,
} from '../../../protocol/index';

/**
 * What a display or a phone knows about the live game (SPEC §3 "Live socket state", §4
 * "Display screen"), folded from server messages by a pure reducer. `session_state` replaces
 * everything; the smaller messages patch it. The player screen layers its own answer state on top.
 */
export interface LiveState {
  /** false until the first session_state: screens show their loading text. */
  ready: boolean;
  status: SessionStatus | null;
  phase: GamePhase | null;
  question: QuestionView | null;
  /**
   * Counts the askings seen on this screen. The same question can be asked again in the next
   * loop, so a new asking is recognised by the phase moving into 'question', not by the id.
   */
  asking: number;
  /** Known after the question closes (question_end or a reveal state); null while it is open. */
  correctIndex: number | null;
  slide: SlideView | null;
  leaderboard: LeaderboardEntry[];
  media: MediaView[];
  mediaItemCount: number | null;
  /** End of the running timed phase on the server's clock (epoch ms). */
  endsAt: number | null;
  timeRemaining: number | null;
  /** The session's title and theme as last announced on the socket (null: use what was fetched). */
  sessionInfo: PublicSessionInfo | null;
  /** Prize winners put on the big screen by the admin; shown until the game moves on. */
  winners: { prize: string; names: string[] } | null;
  /** Answers in for the open question (answer_progress: displays and admins only, never phones). */
  progress: { questionId: string; answered: number; players: number } | null;
  /** The room's split per choice [A, B, C, D], known once the question has closed. */
  distribution: number[] | null;
  /** "Question 3 of 10" while a question is shown; null otherwise. */
  questionNumber: { number: number; total: number } | null;
  /** Who joined, for the display's lobby (presence: displays and admins only, never phones). */
  lobby: { joined: number; recentNames: string[] } | null;
}

export const INITIAL_LIVE_STATE: LiveState = {
  ready: false,
  status: null,
  phase: null,
  question: null,
  asking: 0,
  correctIndex: null,
  slide: null,
  leaderboard: [],
  media: [],
  mediaItemCount: null,
  endsAt: null,
  timeRemaining: null,
  sessionInfo: null,
  winners: null,
  progress: null,
  distribution: null,
  questionNumber: null,
  lobby: null,
};

/**
 * Phases that put a new item on screen: they take the prize winners off. The reveal, the
 * transition, a hold and the end keep them, so winners held for a question's end (DESIGN §17)
 * stay up between questions instead of flashing past.
 */
const NEW_ITEM_PHASES: ReadonlySet<GamePhase> = new Set(['question', 'slide', 'media']);

function keepsWinners(state: LiveState, phase: GamePhase, status: SessionStatus): boolean {
  if (status !== state.status) return false;
  return phase === state.phase || !NEW_ITEM_PHASES.has(phase);
}

/** True when this session_state starts a new asking compared with what the screen showed. */
export function startsNewAsking(previous: LiveState, phase: GamePhase, question: QuestionView | null): boolean {
  if (phase !== 'question' || !question) return false;
  return previous.phase !== 'question' || previous.question?.id !== question.id;
}

export function reduceLive(state: LiveState, message: ServerMessage): LiveState {
  switch (message.type) {
    case 'session_state': {
      const newAsking = startsNewAsking(state, message.phase, message.question);
      const revealed = message.reveal && message.question?.id === message.reveal.questionId ? message.reveal : null;
      return {
        ready: true,
        status: message.status,
        phase: message.phase,
        question: message.question,
        asking: newAsking ? state.asking + 1 : state.asking,
        correctIndex: revealed ? revealed.correctIndex : null,
        distribution: revealed ? revealed.distribution : message.phase === 'reveal' ? state.distribution : null,
        // The count belongs to one asking of one question: a new one starts from nothing.
        progress: !newAsking && message.question && state.progress?.questionId === message.question.id ? state.progress : null,
        slide: message.slide,
        leaderboard: message.leaderboard,
        media: message.media,
        mediaItemCount: message.mediaItemCount,
        endsAt: message.endsAt,
        timeRemaining: message.timeRemaining,
        sessionInfo: state.sessionInfo,
        winners: keepsWinners(state, message.phase, message.status) ? state.winners : null,
        questionNumber:
          message.questionNumber !== undefined && message.totalQuestions !== undefined ? { number: message.questionNumber, total: message.totalQuestions } : null,
        lobby: state.lobby,
      };
    }
    case 'session_info':
      return { ...state, sessionInfo: message.session };
    case 'timer_tick':
      if (state.phase !== 'question' || state.question?.id !== message.questionId) return state;
      return { ...state, endsAt: message.endsAt ?? state.endsAt, timeRemaining: message.timeRemaining };
    case 'question_end':
      if (state.question?.id !== message.questionId) return state;
      // The reveal's own session_state follows; until then the question is over and shows its answer.
      return { ...state, phase: 'reveal', correctIndex: message.correctIndex, distribution: message.distribution, endsAt: null, timeRemaining: 0 };
    case 'answer_progress':
      if (state.question?.id !== message.questionId) return state;
      return { ...state, progress: { questionId: message.questionId, answered: message.answered, players: message.players } };
    case 'presence':
      return { ...state, lobby: { joined: message.joined ?? message.players, recentNames: message.recentNames ?? [] } };
    case 'winners':
      return { ...state, winners: { prize: message.prize, names: message.names } };
    case 'leaderboard_update':
      return { ...state, leaderboard: message.leaderboard };
    default:
      return state;
  }
}

/** The server time a message carries, for the clock-offset estimate. */
export function serverTimeOf(message: ServerMessage): number | null {
  if (message.type === 'session_state' || message.type === 'timer_tick') return message.serverTime;
  return null;
}
