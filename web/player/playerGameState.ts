import type { ServerMessage } from '../../protocol/index';
import { INITIAL_LIVE_STATE, reduceLive, type LiveState } from '../common/realtime/liveState';

/**
 * The phone's game state (SPEC §4 "Player game"): the shared live state plus this player's
 * score, their pick for the current asking and its result. Pure, so the rules that matter most
 * are unit-tested: one pick locks; a pick made offline is sent once the socket is back, once;
 * after a reconnect the server's word (answered or not) wins.
 */
export type Outcome = { kind: 'correct'; points: number } | { kind: 'incorrect' } | { kind: 'missed' };

export interface Place {
  rank: number;
  players: number;
  pointsToNextPlace: number | null;
}

export interface PendingAnswer {
  questionId: string;
  selectedIndex: number;
  /** Sent on the current connection; cleared when the connection drops before it was confirmed. */
  sent: boolean;
}

export interface PlayerGameState {
  live: LiveState;
  score: number;
  /** Locked: a pick was made (or the server says this asking is answered). */
  answered: boolean;
  selectedIndex: number | null;
  result: { isCorrect: boolean; pointsEarned: number } | null;
  /** The player's place in the room after their last answered question (answer_result). */
  place: Place | null;
  /** How the last question went, for the between-questions view. */
  outcome: Outcome | null;
  /** A pick the server has not confirmed yet. */
  pending: PendingAnswer | null;
  /** The server's player state arrived on the current connection: a pending pick may go out. */
  synced: boolean;
  /** The server confirmed this asking's pick (answer_accepted, or a state saying answered). */
  confirmed: boolean;
}

export type PlayerAction =
  | { type: 'server'; message: ServerMessage }
  | { type: 'pick'; index: number }
  | { type: 'sent' }
  | { type: 'disconnected' };

export const INITIAL_PLAYER_STATE: PlayerGameState = {
  live: INITIAL_LIVE_STATE,
  score: 0,
  answered: false,
  selectedIndex: null,
  result: null,
  place: null,
  outcome: null,
  pending: null,
  synced: false,
  confirmed: false,
};

/** SPEC §9: points shown after a correct answer default to 10 when not given. */
export const DEFAULT_POINTS_SHOWN = 10;

function outcomeOf(result: { isCorrect: boolean; pointsEarned?: number } | null): Outcome {
  if (!result) return { kind: 'missed' };
  return result.isCorrect ? { kind: 'correct', points: result.pointsEarned ?? DEFAULT_POINTS_SHOWN } : { kind: 'incorrect' };
}

export function canPick(state: PlayerGameState): boolean {
  return state.live.phase === 'question' && state.live.question !== null && !state.answered;
}

export function reducePlayer(state: PlayerGameState, action: PlayerAction): PlayerGameState {
  switch (action.type) {
    case 'pick': {
      if (!canPick(state) || !Number.isInteger(action.index) || action.index < 0 || action.index > 3) return state;
      const questionId = state.live.question!.id;
      return { ...state, answered: true, selectedIndex: action.index, pending: { questionId, selectedIndex: action.index, sent: false } };
    }
    case 'sent':
      return state.pending ? { ...state, pending: { ...state.pending, sent: true } } : state;
    case 'disconnected':
      return { ...state, synced: false, pending: state.pending && { ...state.pending, sent: false } };
    case 'server':
      return onServerMessage(state, action.message);
  }
}

function onServerMessage(state: PlayerGameState, message: ServerMessage): PlayerGameState {
  const live = reduceLive(state.live, message);
  switch (message.type) {
    case 'session_state': {
      // A new asking releases the lock and clears the result (SPEC §4).
      let next: PlayerGameState =
        live.asking !== state.live.asking
          ? { ...state, live, answered: false, selectedIndex: null, result: null, place: null, pending: null, confirmed: false }
          : { ...state, live };
      if (message.view !== 'player') return next;
      // A pick the server confirmed for this asking stays locked: a socket's state saying otherwise
      // was sent before the pick arrived (the confirmation can come first on the datagram path).
      const confirmed = live.asking === state.live.asking && state.confirmed && !message.answered && message.question?.id === state.live.question?.id;
      next = {
        ...next,
        synced: true,
        score: message.playerScore,
        answered: confirmed ? true : message.answered,
        selectedIndex: confirmed ? state.selectedIndex : message.selectedIndex,
        result: message.answerResult,
        confirmed: confirmed || message.answered,
      };
      if (message.answerResult) next.outcome = outcomeOf(message.answerResult);
      const pending = next.pending;
      if (!pending || message.answered) return { ...next, pending: null };
      if (message.phase === 'question' && message.question?.id === pending.questionId) {
        // The pick never reached the server: keep it locked on screen and send it on this connection.
        return { ...next, answered: true, selectedIndex: pending.selectedIndex, pending: { ...pending, sent: false } };
      }
      return { ...next, pending: null }; // its question is over: too late to send
    }
    case 'answer_accepted':
      if (message.questionId !== live.question?.id) return { ...state, live };
      return { ...state, live, answered: true, selectedIndex: message.selectedIndex, pending: null, confirmed: true };
    case 'answer_result': {
      // Another question's result (a late frame) must not lock the question on screen, as an
      // acceptance must not: the state of that question carries its result anyway.
      if (message.questionId !== live.question?.id) return { ...state, live };
      const result = { isCorrect: message.isCorrect, pointsEarned: message.pointsEarned };
      const place = { rank: message.rank, players: message.players, pointsToNextPlace: message.pointsToNextPlace };
      return { ...state, live, answered: true, result, place, score: message.newScore, outcome: outcomeOf(result), pending: null };
    }
    case 'question_end':
      if (state.live.question?.id !== message.questionId) return { ...state, live };
      return { ...state, live, outcome: outcomeOf(state.result), pending: null };
    case 'error':
      // An answer refused as a duplicate, late or for another question: the server has what it
      // will count; do not send it again. The pick stays locked on screen.
      if (message.code.startsWith('answer/') || message.code === 'session/not_live') return { ...state, live, pending: null };
      return { ...state, live };
    default:
      return { ...state, live };
  }
}

/** '#14 of 180' (docs/SCREENS.md). */
export function placeText(place: Place): string {
  return `#${place.rank} of ${place.players}`;
}

/** What separates the player from the next place up; the leader is told so. */
export function nextPlaceText(place: Place): string {
  if (place.pointsToNextPlace === null) return "You're in the lead!";
  const n = place.pointsToNextPlace;
  return `${n} ${n === 1 ? 'point' : 'points'} to the next place`;
}

/** The line under 'Get Ready!' (SPEC §2 "Player game screen"). */
export function outcomeText(outcome: Outcome | null): string {
  if (outcome?.kind === 'correct') return `Correct! +${outcome.points} points`;
  if (outcome?.kind === 'incorrect') return 'Incorrect';
  return 'Waiting for next question...';
}
