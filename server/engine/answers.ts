/**
 * Answers and presence. An answer is checked, scored on arrival (the server's arrival time is
 * what counts), stored at once so a restart cannot lose it, and applied to the totals when the
 * question closes. A question closes early once every connected player has answered.
 */
import { ERROR_CODES, type ErrorCode, errorMessage } from '../../protocol/index.js';
import type { AnswerRecord, EngineEvent, EngineState } from './types.js';
import { closeQuestion, type Out } from './phases.js';
import { pointsForCorrectAnswer } from './scoring.js';
import { shownQuestion } from './views.js';

type SubmitAnswer = Extract<EngineEvent, { type: 'submit_answer' }>;

function reject(out: Out, connectionId: string, code: ErrorCode, message: string): void {
  out.push({ kind: 'reply', connectionId, message: errorMessage(code, message) });
}

export function submitAnswer(state: EngineState, event: SubmitAnswer, nowMs: number, out: Out): EngineState {
  const { connectionId, playerId, questionId, selectedIndex } = event;
  if (state.status !== 'live') {
    reject(out, connectionId, ERROR_CODES.notLive, 'The game is not running');
    return state;
  }
  if (!Number.isInteger(selectedIndex) || selectedIndex < 0 || selectedIndex > 3) {
    reject(out, connectionId, ERROR_CODES.invalidChoice, 'selectedIndex must be 0, 1, 2 or 3');
    return state;
  }
  const question = shownQuestion(state);
  const { phase } = state;
  if (!question || (phase.kind !== 'question' && phase.kind !== 'reveal')) {
    reject(out, connectionId, ERROR_CODES.noQuestion, 'No question is open right now');
    return state;
  }
  if (questionId !== question.id) {
    reject(out, connectionId, ERROR_CODES.wrongQuestion, 'That question is not the current one');
    return state;
  }
  if (phase.answers.has(playerId)) {
    reject(out, connectionId, ERROR_CODES.duplicateAnswer, 'You have already answered this question');
    return state;
  }
  // An answer arriving exactly at the deadline still counts (for half the points).
  if (phase.kind === 'reveal' || nowMs > phase.endsAtMs) {
    reject(out, connectionId, ERROR_CODES.lateAnswer, "Time's up: this question has closed");
    return state;
  }

  const elapsedMs = nowMs - phase.startedAtMs;
  const isCorrect = selectedIndex === question.correctIndex;
  const answer: AnswerRecord = {
    questionId,
    selectedIndex,
    isCorrect,
    pointsEarned: isCorrect ? pointsForCorrectAnswer(question.points, question.timeLimitSeconds, elapsedMs) : 0,
    elapsedMs,
    answeredAtMs: nowMs,
  };
  out.push({ kind: 'saveAnswer', sessionId: state.program.sessionId, playerId, asking: phase.asking, answer });
  out.push({ kind: 'send', playerId, message: { type: 'answer_accepted', questionId, selectedIndex } });

  const next: EngineState = { ...state, phase: { ...phase, answers: phase.answers.set(playerId, answer) } };
  return everyoneAnswered(next) ? closeQuestion(next, nowMs, out) : next;
}

/**
 * True when at least one player is connected and every connected player has answered the open
 * question. With nobody connected the question runs its full time.
 */
export function everyoneAnswered(state: EngineState): boolean {
  const { phase, connections } = state;
  if (phase.kind !== 'question' || connections.size === 0) return false;
  // Cheap necessary condition first, so a burst of answers does not scan every player each time.
  if (phase.answers.size < connections.size) return false;
  for (const playerId of connections.keys()) if (!phase.answers.has(playerId)) return false;
  return true;
}

export function playerConnected(state: EngineState, playerId: string, name: string): EngineState {
  const count = state.connections.get(playerId) ?? 0;
  const names = state.names.get(playerId) === name ? state.names : state.names.set(playerId, name);
  // No early-end check here: after a restart, players who had answered reconnect first, and
  // the question must not close before the others are back.
  return { ...state, connections: state.connections.set(playerId, count + 1), names };
}

export function playerDisconnected(state: EngineState, playerId: string, nowMs: number, out: Out): EngineState {
  const count = state.connections.get(playerId);
  if (count === undefined) return state;
  const connections = count > 1 ? state.connections.set(playerId, count - 1) : state.connections.delete(playerId);
  const next: EngineState = { ...state, connections };
  // The last player still thinking may have left: the others need not wait for them.
  return everyoneAnswered(next) ? closeQuestion(next, nowMs, out) : next;
}
