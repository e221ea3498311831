/**
 * What each role sees. Question views are built field by field (never by spreading the stored
 * question) so `correctIndex` cannot leak to players or displays by accident; only the admin
 * view and the reveal carry it.
 */
import type {
  AdminQuestionView,
  AdminSessionInfo,
  AdminSessionState,
  AudienceSessionState,
  GamePhase,
  PlayerSessionState,
  QuestionView,
  RevealView,
  SessionStateBase,
  SlideView,
} from '../../../protocol/index.js';
import type { EngineState, Phase, Program, ProgramItem, ProgramQuestion } from './types.js';
import { secondsRemaining } from './timing.js';

export function toQuestionView(q: ProgramQuestion): QuestionView {
  return {
    id: q.id,
    text: q.text,
    choices: [...q.choices],
    points: q.points,
    timeLimitSeconds: q.timeLimitSeconds,
    categories: [...q.categories],
    media: q.media,
  };
}

export function toAdminQuestionView(q: ProgramQuestion): AdminQuestionView {
  return { ...toQuestionView(q), correctIndex: q.correctIndex };
}

export function itemAt(program: Program, index: number): ProgramItem | undefined {
  return index >= 0 ? program.items[index] : undefined;
}

/** The question on screen: open (question phase) or being revealed. */
export function shownQuestion(state: EngineState): ProgramQuestion | null {
  const { phase } = state;
  if (phase.kind !== 'question' && phase.kind !== 'reveal') return null;
  const item = itemAt(state.program, phase.itemIndex);
  return item?.itemType === 'question' ? item.question : null;
}

/** 0-based position of item `itemIndex` among the program's questions, or null if it is not one. */
export function questionPosition(program: Program, itemIndex: number): number | null {
  if (itemAt(program, itemIndex)?.itemType !== 'question') return null;
  let position = 0;
  for (let i = 0; i < itemIndex; i++) if (program.items[i].itemType === 'question') position++;
  return position;
}

export function countQuestions(program: Program): number {
  return program.items.filter((item) => item.itemType === 'question').length;
}

function endsAtOf(phase: Phase): number | null {
  return 'endsAtMs' in phase ? phase.endsAtMs : null;
}

function slideOf(state: EngineState): SlideView | null {
  if (state.phase.kind !== 'slide') return null;
  const item = itemAt(state.program, state.phase.itemIndex);
  if (item?.itemType !== 'slide') return null;
  return { itemId: item.id, slideType: item.slideType, slideData: { ...item.slideData } };
}

function revealOf(state: EngineState): RevealView | null {
  if (state.phase.kind !== 'reveal') return null;
  const question = shownQuestion(state);
  return question ? { questionId: question.id, correctIndex: question.correctIndex, distribution: [...state.phase.distribution] } : null;
}

/** How many media items the screens should rotate through now (null: no media shows). */
function mediaItemCountOf(state: EngineState): number | null {
  const { phase } = state;
  switch (phase.kind) {
    case 'between':
    case 'media':
      return phase.mediaItemCount;
    // Screens put up before the show, or holding on a paused game, rotate the transition media.
    case 'waiting':
    case 'hold':
      return state.program.mediaItemsPerTransition;
    default:
      return null;
  }
}

function baseState(state: EngineState, nowMs: number): SessionStateBase {
  const endsAt = endsAtOf(state.phase);
  return {
    type: 'session_state',
    sessionId: state.program.sessionId,
    status: state.status,
    phase: state.phase.kind satisfies GamePhase,
    serverTime: nowMs,
    endsAt,
    timeRemaining: endsAt === null ? null : secondsRemaining(endsAt, nowMs),
    slide: slideOf(state),
    reveal: revealOf(state),
    leaderboard: state.leaderboard,
    media: state.program.media,
    mediaItemCount: mediaItemCountOf(state),
    ...questionNumberOf(state),
  };
}

/** "Question 3 of 10" while a question is shown (question and reveal); absent otherwise. */
function questionNumberOf(state: EngineState): Pick<SessionStateBase, 'questionNumber' | 'totalQuestions'> {
  const { phase, program } = state;
  if (phase.kind !== 'question' && phase.kind !== 'reveal') return {};
  const position = questionPosition(program, phase.itemIndex);
  return position === null ? {} : { questionNumber: position + 1, totalQuestions: countQuestions(program) };
}

/** For players and displays alike; broadcast as one object. */
export function audienceView(state: EngineState, nowMs: number): AudienceSessionState {
  const question = shownQuestion(state);
  return { ...baseState(state, nowMs), view: 'audience', question: question && toQuestionView(question) };
}

/** For one player's newly opened socket: adds their score and their answer to the current asking. */
export function playerView(state: EngineState, playerId: string, nowMs: number): PlayerSessionState {
  const { phase } = state;
  const answer = phase.kind === 'question' || phase.kind === 'reveal' ? phase.answers.get(playerId) : undefined;
  const question = shownQuestion(state);
  return {
    ...baseState(state, nowMs),
    view: 'player',
    question: question && toQuestionView(question),
    playerId,
    playerScore: state.scores.get(playerId)?.pointsTotal ?? 0,
    answered: answer !== undefined,
    selectedIndex: answer?.selectedIndex ?? null,
    answerResult:
      answer && phase.kind === 'reveal' ? { isCorrect: answer.isCorrect, pointsEarned: answer.pointsEarned } : null,
  };
}

export function adminSessionInfo(state: EngineState): AdminSessionInfo {
  const { phase, program } = state;
  const itemIndex = 'itemIndex' in phase && phase.itemIndex >= 0 ? phase.itemIndex : null;
  const showsQuestion = phase.kind === 'question' || phase.kind === 'reveal';
  return {
    status: state.status,
    autoRotate: state.autoRotate,
    currentQuestionIndex: showsQuestion && itemIndex !== null ? questionPosition(program, itemIndex) : null,
    totalQuestions: countQuestions(program),
    currentItemIndex: itemIndex,
    totalItems: program.items.length,
  };
}

export function adminView(state: EngineState, nowMs: number): AdminSessionState {
  const question = shownQuestion(state);
  return {
    ...baseState(state, nowMs),
    view: 'admin',
    question: question && toAdminQuestionView(question),
    session: adminSessionInfo(state),
  };
}
