/**
 * Phase transitions. Each item plays as a short sequence of timed phases:
 *
 *   question ──deadline or everyone answered──▶ reveal (5 s) ──▶ between (media or 5 s) ──▶ next item
 *   slide (10 s) ──▶ next item          media block (its media's durations) ──▶ next item
 *
 * With auto-play off, the sequence stops at `hold` where it would move on to the next item
 * (right after the reveal, for a question) and waits for Next or Resume. After the last item
 * the game loops to item 0. Every function here appends the messages it causes to `out` and
 * returns the new state; persisting and wake-ups are derived from the state in reduce.ts.
 */
import type { EngineState, Effect, Phase, ScoreRecord } from './types.js';
import type { Standings } from './state-parts.js';
import { PMap } from './pmap.js';
import { adoptPendingProgram } from './program.js';
import { presenceWakeAt } from './presence.js';
import { revealHoldMs } from './credit.js';
import { type AppliedAnswer, applyAnswers } from './scoring.js';
import { distributionOf, finalProgress, progressMessage } from './insight.js';
import { placeOf, placesOf, rerank, topOf } from './standings.js';
import {
  REVEAL_MS,
  SLIDE_MS,
  TICK_MS,
  mediaRunMs,
  nextTickAfter,
  questionDurationMs,
  secondsRemaining,
} from './timing.js';
import { adminView, audienceView, itemAt, questionPosition } from './views.js';

export type Out = Effect[];

/** Tells every screen what is on now: one object for the audience, one for admins. */
export function broadcastState(state: EngineState, nowMs: number, out: Out): void {
  out.push({ kind: 'broadcast', to: 'audience', message: audienceView(state, nowMs) });
  out.push({ kind: 'broadcast', to: 'admins', message: adminView(state, nowMs) });
}

/** Starts item `index` (wrapping past the end to item 0, which is how the game loops). */
export function enterItem(state: EngineState, index: number, nowMs: number, out: Out): EngineState {
  const { items } = state.program;
  if (items.length === 0) return enterHold(state, -1, nowMs, out);
  const itemIndex = ((index % items.length) + items.length) % items.length;
  const item = items[itemIndex];
  let next: EngineState;
  switch (item.itemType) {
    case 'question': {
      const asking = state.asking + 1;
      const phase: Phase = {
        kind: 'question',
        itemIndex,
        asking,
        startedAtMs: nowMs,
        endsAtMs: nowMs + questionDurationMs(item.question.timeLimitSeconds),
        nextTickAtMs: nowMs + TICK_MS,
        answers: PMap.empty(),
      };
      const position = questionPosition(state.program, itemIndex) ?? state.lastQuestionIndex;
      next = { ...state, phase, asking, lastQuestionIndex: position };
      break;
    }
    case 'slide':
      next = { ...state, phase: { kind: 'slide', itemIndex, startedAtMs: nowMs, endsAtMs: nowMs + SLIDE_MS } };
      break;
    case 'media_block': {
      const mediaItemCount = item.mediaItemCount;
      const endsAtMs = nowMs + mediaRunMs(state.program.media, mediaItemCount);
      next = { ...state, phase: { kind: 'media', itemIndex, startedAtMs: nowMs, endsAtMs, mediaItemCount } };
      break;
    }
  }
  broadcastState(next, nowMs, out);
  // Live Controls and displays start the new question's count at 0 of everyone connected.
  const progress = progressMessage(next);
  if (progress && next.phase.kind === 'question' && item.itemType === 'question') {
    out.push({ kind: 'broadcast', to: 'screens', message: progress });
    // After the broadcasts: the room writes it with the step's commit, once everyone has the question.
    out.push({ kind: 'saveAsking', sessionId: state.program.sessionId, asking: next.phase.asking, questionId: item.question.id, atMs: nowMs });
  }
  return next;
}

/** Starts the item after `itemIndex`: the item boundary, where an edited program takes over. */
export function enterNextItem(state: EngineState, itemIndex: number, nowMs: number, out: Out): EngineState {
  const adopted = adoptPendingProgram(state, itemIndex);
  return enterItem(adopted.state, adopted.itemIndex + 1, nowMs, out);
}

/** Holding is an item boundary too: an edited program takes over before the hold is shown. */
export function enterHold(state: EngineState, itemIndex: number, nowMs: number, out: Out): EngineState {
  const adopted = adoptPendingProgram(state, itemIndex);
  const next: EngineState = { ...adopted.state, phase: { kind: 'hold', itemIndex: adopted.itemIndex, startedAtMs: nowMs } };
  broadcastState(next, nowMs, out);
  return next;
}

function enterBetween(state: EngineState, itemIndex: number, nowMs: number, out: Out): EngineState {
  const { media, mediaItemsPerTransition } = state.program;
  const phase: Phase = {
    kind: 'between',
    itemIndex,
    startedAtMs: nowMs,
    endsAtMs: nowMs + mediaRunMs(media, mediaItemsPerTransition),
    mediaItemCount: mediaItemsPerTransition,
  };
  const next: EngineState = { ...state, phase };
  broadcastState(next, nowMs, out);
  return next;
}

/**
 * Closes the open question: totals, each answering player's `answer_result`, then
 * `question_end` (the first message to players that names the correct choice), then the
 * leaderboard. The reveal starts now.
 */
export function closeQuestion(state: EngineState, nowMs: number, out: Out): EngineState {
  const { phase } = state;
  if (phase.kind !== 'question') return state;
  const item = itemAt(state.program, phase.itemIndex);
  if (item?.itemType !== 'question') return state;
  const { question } = item;

  const nameOf = (playerId: string) => state.names.get(playerId) ?? 'Player';
  const { scores, applied, writes } = applyAnswers(state.scores, phase.answers, nameOf);
  const standings = rerank(state.standings, scores, writes.map((w) => w.playerId));
  const leaderboard = standings === state.standings ? state.leaderboard : topOf(standings, scores);

  if (writes.length > 0) out.push({ kind: 'saveScores', sessionId: state.program.sessionId, scores: writes });
  sendResults(applied, standings, scores, question.id, out);
  finalProgress(state, out);
  const distribution = distributionOf(phase.answers);
  out.push({
    kind: 'broadcast',
    to: 'all',
    message: { type: 'question_end', questionId: question.id, correctIndex: question.correctIndex, distribution },
  });
  out.push({ kind: 'broadcast', to: 'all', message: { type: 'leaderboard_update', leaderboard } });

  const reveal: Phase = {
    kind: 'reveal',
    itemIndex: phase.itemIndex,
    asking: phase.asking,
    answers: phase.answers,
    distribution,
    startedAtMs: nowMs,
    endsAtMs: nowMs + REVEAL_MS,
  };
  return { ...state, scores, standings, leaderboard, phase: reveal };
}

/** Each answering player's `answer_result`, their place read off one pass over everyone (only when someone answered). */
function sendResults(applied: AppliedAnswer[], standings: Standings, scores: PMap<ScoreRecord>, questionId: string, out: Out): void {
  if (applied.length === 0) return;
  const places = placesOf(standings, scores);
  for (const { playerId, answer, newScore } of applied) {
    const { rank, pointsToNextPlace } = placeOf(playerId, places);
    out.push({
      kind: 'send',
      playerId,
      message: {
        type: 'answer_result',
        playerId,
        questionId,
        isCorrect: answer.isCorrect,
        pointsEarned: answer.pointsEarned,
        newScore,
        rank,
        players: standings.length,
        pointsToNextPlace,
      },
    });
  }
}

/**
 * The reveal starts again at `nowMs`, its full length: the close's results reached the phones only
 * now. No message: phones and screens entered the reveal with `question_end` and keep it; a
 * socket joining later is shown the new end.
 */
export function restartReveal(state: EngineState, nowMs: number): EngineState {
  const { phase } = state;
  if (phase.kind !== 'reveal' || nowMs <= phase.startedAtMs) return state;
  return { ...state, phase: { ...phase, startedAtMs: nowMs, endsAtMs: nowMs + REVEAL_MS } };
}

/** The current timed phase has reached its end: move along the sequence. */
export function endPhase(state: EngineState, nowMs: number, out: Out): EngineState {
  const { phase } = state;
  switch (phase.kind) {
    case 'question':
      return closeQuestion(state, nowMs, out);
    case 'reveal':
      return state.autoRotate
        ? enterBetween(state, phase.itemIndex, nowMs, out)
        : enterHold(state, phase.itemIndex, nowMs, out);
    case 'between':
    case 'slide':
    case 'media':
      return state.autoRotate
        ? enterNextItem(state, phase.itemIndex, nowMs, out)
        : enterHold(state, phase.itemIndex, nowMs, out);
    default:
      return state;
  }
}

/** Next: end the current item now (a running question is scored normally) and start the next. */
export function skipToNextItem(state: EngineState, nowMs: number, out: Out): EngineState {
  let current = state;
  if (current.phase.kind === 'question') current = closeQuestion(current, nowMs, out);
  const { phase } = current;
  const itemIndex = 'itemIndex' in phase ? phase.itemIndex : -1;
  return enterNextItem(current, itemIndex, nowMs, out);
}

/**
 * When the runner should call back with a `timer` event; null when nothing is timed: the
 * phase's next tick or end (live sessions only), or a throttled insight update (any session:
 * Live Controls count phones joining before the start too).
 */
export function wakeAtOf(state: EngineState): number | null {
  const live = state.status === 'live';
  // Soonest of: the phase's next tick or end, insight due, an absent player ceasing to count (presence.ts).
  // Read twice for every step (reduce.ts): two comparisons, not an array to loop over.
  const wake = live ? nextWakeAt(state.phase) : null;
  return soonest(soonest(wake, state.insight.dueAtMs), live ? presenceWakeAt(state) : null);
}

function soonest(a: number | null, b: number | null): number | null {
  return a === null || (b !== null && b < a) ? b : a;
}

/** The phase's own next tick or end; null when nothing is timed. */
export function nextWakeAt(phase: Phase): number | null {
  switch (phase.kind) {
    case 'question':
      return phase.holdUntilMs ?? Math.min(phase.nextTickAtMs, phase.endsAtMs);
    case 'reveal':
    case 'between':
    case 'slide':
    case 'media':
      return phase.endsAtMs;
    default:
      return null;
  }
}

/**
 * Handles everything due by `nowMs`: a countdown tick, or the end of a phase, possibly several
 * in a row when the runner calls late (a deadline passed while the server was down). Phases
 * entered here start at `nowMs`, so a late wake never swallows a reveal or a whole item.
 */
export function runDueTimers(state: EngineState, nowMs: number, out: Out): EngineState {
  let current = state;
  // Every phase entered at nowMs with a positive length stops the loop; the bound is a safety net.
  for (let guard = 0; guard < 4 * current.program.items.length + 8; guard++) {
    const wake = nextWakeAt(current.phase);
    if (wake === null || wake > nowMs) break;
    const { phase } = current;
    if (phase.kind === 'question' && nowMs < phase.endsAtMs) {
      out.push({
        kind: 'broadcast',
        to: 'all',
        message: {
          type: 'timer_tick',
          questionId: questionIdOf(current) ?? '',
          timeRemaining: secondsRemaining(phase.endsAtMs, nowMs),
          serverTime: nowMs,
          endsAt: phase.endsAtMs,
        },
      });
      current = { ...current, phase: { ...phase, nextTickAtMs: nextTickAfter(phase.startedAtMs, nowMs) } };
      continue;
    }
    if (phase.kind === 'question' && phase.holdUntilMs === undefined) {
      // The deadline: the reveal may wait a little for answers still on their way (credit.ts).
      const holdMs = revealHoldMs(current, nowMs);
      const holdUntilMs = phase.endsAtMs + holdMs;
      if (holdUntilMs > nowMs) {
        current = { ...current, phase: { ...phase, holdUntilMs } };
        continue;
      }
    }
    current = endPhase(current, nowMs, out);
  }
  return current;
}

function questionIdOf(state: EngineState): string | null {
  const { phase } = state;
  if (phase.kind !== 'question') return null;
  const item = itemAt(state.program, phase.itemIndex);
  return item?.itemType === 'question' ? item.question.id : null;
}
