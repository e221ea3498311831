/**
 * Answers and presence. An answer is checked, scored on arrival (the phone's reaction time,
 * believed within what the server measured of its delay: credit.ts), confirmed to the phone only once the runner has committed it (a restart cannot
 * lose a confirmed answer), and applied to the totals when the
 * question closes. A question closes early once every player who counts as present (presence.ts)
 * has answered.
 */
import { type AnswerAcceptedMessage, ERROR_CODES, type ErrorCode, LOBBY_RECENT_NAMES, errorMessage } from '../../../protocol/index.js';
import { boundedAllowanceMs, creditedElapsedMs } from './credit.js';
import type { AnswerRecord, EngineEvent, EngineState } from './types.js';
import { closeQuestion, type Out } from './phases.js';
import { pointsForCorrectAnswer } from './scoring.js';
import { everyoneAnswered, presenceConnected, presenceDisconnected } from './presence.js';
import { shownQuestion } from './views.js';

type SubmitAnswer = Extract<EngineEvent, { type: 'submit_answer' }>;

function reject(out: Out, event: SubmitAnswer, code: ErrorCode, message: string): void {
  const about = { questionId: event.questionId, answerId: event.answerId };
  out.push({ kind: 'reply', connectionId: event.connectionId, message: errorMessage(code, message, about) });
}

function acceptance(questionId: string, selectedIndex: number, answerId: string | undefined): AnswerAcceptedMessage {
  return answerId === undefined ? { type: 'answer_accepted', questionId, selectedIndex } : { type: 'answer_accepted', questionId, selectedIndex, answerId };
}

/**
 * A second submission of the same pick (the phone resent it after a silent socket or a
 * reconnect): the same acceptance, never an error. Same pick = same answerId; an answer resumed
 * from storage carries none, so there the same choice counts as the same pick.
 */
function isResend(answer: AnswerRecord, event: SubmitAnswer): boolean {
  if (event.answerId === undefined) return false;
  return answer.answerId === undefined ? answer.selectedIndex === event.selectedIndex : answer.answerId === event.answerId;
}

export function submitAnswer(state: EngineState, event: SubmitAnswer, nowMs: number, out: Out): EngineState {
  const { playerId, questionId, selectedIndex } = event;
  if (state.status !== 'live') {
    reject(out, event, ERROR_CODES.notLive, 'The game is not running');
    return state;
  }
  if (!Number.isInteger(selectedIndex) || selectedIndex < 0 || selectedIndex > 3) {
    reject(out, event, ERROR_CODES.invalidChoice, 'selectedIndex must be 0, 1, 2 or 3');
    return state;
  }
  const question = shownQuestion(state);
  const { phase } = state;
  if (!question || (phase.kind !== 'question' && phase.kind !== 'reveal')) {
    reject(out, event, ERROR_CODES.noQuestion, 'No question is open right now');
    return state;
  }
  if (questionId !== question.id) {
    reject(out, event, ERROR_CODES.wrongQuestion, 'That question is not the current one');
    return state;
  }
  const earlier = phase.answers.get(playerId);
  if (earlier) {
    if (isResend(earlier, event)) {
      // Only to the asking socket: the player's other sockets had theirs.
      out.push({ kind: 'reply', connectionId: event.connectionId, message: acceptance(questionId, earlier.selectedIndex, event.answerId) });
    } else {
      reject(out, event, ERROR_CODES.duplicateAnswer, 'You have already answered this question');
    }
    return state;
  }
  const limitMs = question.timeLimitSeconds * 1000;
  // Timed from its arrival (DESIGN §16): an answer held on its way to the owner (a Redis outage)
  // counts from when it reached the server, never before the question's start.
  const arrivedAtMs = Math.max(phase.startedAtMs, Math.min(nowMs, event.arrivedAtMs ?? nowMs));
  const elapsedMs = creditedElapsedMs(arrivedAtMs - phase.startedAtMs, event.reactionMs, event.allowanceMs);
  // Counts when the credited time is within the limit and the question has not closed: past the
  // deadline only during the reveal's hold. One arriving exactly at the deadline counts (half the points).
  if (phase.kind === 'reveal' || (arrivedAtMs > phase.endsAtMs && elapsedMs > limitMs)) {
    reject(out, event, ERROR_CODES.lateAnswer, "Time's up: this question has closed");
    return state;
  }

  const isCorrect = selectedIndex === question.correctIndex;
  const answer: AnswerRecord = {
    questionId,
    selectedIndex,
    isCorrect,
    pointsEarned: isCorrect ? pointsForCorrectAnswer(question.points, question.timeLimitSeconds, elapsedMs) : 0,
    elapsedMs,
    answeredAtMs: arrivedAtMs,
  };
  if (event.answerId !== undefined) answer.answerId = event.answerId;
  out.push({ kind: 'saveAnswer', sessionId: state.program.sessionId, playerId, asking: phase.asking, answer });
  out.push({ kind: 'send', playerId, message: acceptance(questionId, selectedIndex, event.answerId) });

  const delays = event.allowanceMs === undefined ? state.delays : state.delays.set(playerId, boundedAllowanceMs(event.allowanceMs));
  const next: EngineState = { ...state, delays, phase: { ...phase, answers: phase.answers.set(playerId, answer) } };
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}

/** The transport's latest measure of a player's delay: it sizes the reveal's hold. */
export function playerDelay(state: EngineState, playerId: string, allowanceMs: number): EngineState {
  const bounded = boundedAllowanceMs(allowanceMs);
  return state.delays.get(playerId) === bounded ? state : { ...state, delays: state.delays.set(playerId, bounded) };
}

/** Several players' latest delays at once (the room gathers them between steps): the same as one `player_delay` each. */
export function withPlayerDelays(state: EngineState, latest: ReadonlyMap<string, number>): EngineState {
  const changed: [string, number][] = [];
  for (const [playerId, allowanceMs] of latest) {
    const bounded = boundedAllowanceMs(allowanceMs);
    if (state.delays.get(playerId) !== bounded) changed.push([playerId, bounded]);
  }
  return changed.length === 0 ? state : { ...state, delays: state.delays.setAll(changed) };
}

export function playerConnected(state: EngineState, playerId: string, name: string): EngineState {
  const names = state.names.get(playerId) === name ? state.names : state.names.set(playerId, name);
  // A phone coming back keeps its place in the lobby's list; only a newcomer goes to the front.
  const recentJoins = state.recentJoins.includes(playerId) ? state.recentJoins : [playerId, ...state.recentJoins].slice(0, LOBBY_RECENT_NAMES);
  // No early-end check here: a player coming back only ever adds someone who may still answer.
  return { ...state, presence: presenceConnected(state.presence, playerId), names, recentJoins };
}

export function playerDisconnected(state: EngineState, playerId: string, nowMs: number, out: Out): EngineState {
  const presence = presenceDisconnected(state.presence, playerId, nowMs);
  if (!presence) return state;
  const next: EngineState = { ...state, presence };
  // A drop still counts for DROP_GRACE_MS: the check that may end the question comes with the wake-up then.
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}
