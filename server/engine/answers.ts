/**
 * Answers and presence. An answer is checked, scored on arrival (the server's arrival time is
 * what counts), confirmed to the phone only once the runner has committed it (a restart cannot
 * lose a confirmed answer), and applied to the totals when the
 * question closes. A question closes early once every player who counts as present (presence.ts)
 * has answered.
 */
import { ERROR_CODES, type ErrorCode, errorMessage } from '../../protocol/index.js';
import type { AnswerRecord, EngineEvent, EngineState } from './types.js';
import { closeQuestion, type Out } from './phases.js';
import { pointsForCorrectAnswer } from './scoring.js';
import { everyoneAnswered, presenceConnected, presenceDisconnected } from './presence.js';
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
  // Timed by its arrival (DESIGN §16): an answer held on its way is scored as when it came.
  const arrivedAtMs = Math.max(phase.startedAtMs, Math.min(nowMs, event.arrivedAtMs ?? nowMs));
  // An answer arriving exactly at the deadline still counts (for half the points).
  if (phase.kind === 'reveal' || arrivedAtMs > phase.endsAtMs) {
    reject(out, connectionId, ERROR_CODES.lateAnswer, "Time's up: this question has closed");
    return state;
  }

  const elapsedMs = arrivedAtMs - phase.startedAtMs;
  const isCorrect = selectedIndex === question.correctIndex;
  const answer: AnswerRecord = {
    questionId,
    selectedIndex,
    isCorrect,
    pointsEarned: isCorrect ? pointsForCorrectAnswer(question.points, question.timeLimitSeconds, elapsedMs) : 0,
    elapsedMs,
    answeredAtMs: arrivedAtMs,
  };
  out.push({ kind: 'saveAnswer', sessionId: state.program.sessionId, playerId, asking: phase.asking, answer });
  out.push({ kind: 'send', playerId, message: { type: 'answer_accepted', questionId, selectedIndex } });

  const next: EngineState = { ...state, phase: { ...phase, answers: phase.answers.set(playerId, answer) } };
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}

export function playerConnected(state: EngineState, playerId: string, name: string): EngineState {
  const names = state.names.get(playerId) === name ? state.names : state.names.set(playerId, name);
  // No early-end check here: a player coming back only ever adds someone who may still answer.
  return { ...state, presence: presenceConnected(state.presence, playerId), names };
}

export function playerDisconnected(state: EngineState, playerId: string, nowMs: number, out: Out): EngineState {
  const presence = presenceDisconnected(state.presence, playerId, nowMs);
  if (!presence) return state;
  const next: EngineState = { ...state, presence };
  // A drop still counts for DROP_GRACE_MS: the check that may end the question comes with the wake-up then.
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}
