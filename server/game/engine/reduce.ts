/**
 * The engine's single entry point: reduce(state, event, nowMs) → { state, effects }.
 *
 * Pure and deterministic: no clock, no I/O, no randomness; the input state is never mutated.
 * Event handlers append messages to a local effects list; afterwards reduce compares the old
 * and new state to add, when they changed, one `persist` (the resume snapshot) and one
 * `wakeAt` (the single pending timer the runner keeps for this session).
 */
import { ERROR_CODES, type ErrorCode, errorMessage } from '../../../protocol/index.js';
import type { EngineEvent, EngineState, Effect, ReduceResult } from './types.js';
import { playerConnected, playerDelay, playerDisconnected, submitAnswer } from './answers.js';
import { everyoneAnswered, expirePresence } from './presence.js';
import { type Out, broadcastState, closeQuestion, enterItem, enterNextItem, restartReveal, runDueTimers, skipToNextItem, wakeAtOf } from './phases.js';
import { insightChanged, sendDueInsight } from './insight.js';
import { remapItemIndex } from './program.js';
import { playerModerated } from './moderation.js';
import { sameSnapshot, sameSnapshotInputs, toLiveSnapshot } from './snapshot.js';
import { adminView, audienceView } from './views.js';

export function reduce(state: EngineState, event: EngineEvent, nowMs: number): ReduceResult {
  const out: Effect[] = [];
  const next = handle(state, event, nowMs, out);
  appendBookkeeping(state, next, out);
  return { state: next, effects: out };
}

function handle(state: EngineState, event: EngineEvent, nowMs: number, out: Out): EngineState {
  switch (event.type) {
    case 'start':
      if (state.status === 'live') return state;
      return enterItem({ ...state, status: 'live' }, 0, nowMs, out);
    case 'stop':
      return stop(state, nowMs, out);
    case 'timer':
      return sendDueInsight(state.status === 'live' ? settlePresence(runDueTimers(state, nowMs, out), nowMs, out) : state, nowMs, out);
    case 'results_delivered':
      return restartReveal(state, nowMs);
    case 'player_connected':
      return countsChanged(state, playerConnected(state, event.playerId, event.name), nowMs, out);
    case 'player_disconnected':
      return countsChanged(state, playerDisconnected(state, event.playerId, nowMs, out), nowMs, out);
    case 'player_moderated':
      return countsChanged(state, playerModerated(state, event.playerId, event.screenName, nowMs, out), nowMs, out);
    case 'display_connected':
      return insightChanged({ ...state, displays: state.displays + 1 }, nowMs, out);
    case 'display_disconnected':
      return insightChanged({ ...state, displays: Math.max(0, state.displays - 1) }, nowMs, out);
    case 'submit_answer':
      return countsChanged(state, submitAnswer(state, event, nowMs, out), nowMs, out);
    case 'player_delay':
      return playerDelay(state, event.playerId, event.allowanceMs);
    case 'admin_next_question':
      if (!requireLive(state, event.connectionId, out)) return state;
      if (state.program.items.length === 0) {
        replyError(out, event.connectionId, ERROR_CODES.noItems, 'This session has no items to play');
        return state;
      }
      return skipToNextItem(state, nowMs, out);
    case 'admin_pause':
      if (!requireLive(state, event.connectionId, out)) return state;
      return setAutoRotate(state, false, nowMs, out);
    case 'admin_toggle_autorotate':
      if (!requireLive(state, event.connectionId, out)) return state;
      return setAutoRotate(state, event.autoRotate, nowMs, out);
    case 'program_changed':
      return programChanged(state, event.program, nowMs, out);
  }
}

/**
 * Phones in the game or answers in changed: admins and displays hear of it (throttled). A second
 * tab of the same player, or a refused answer, changes no count and costs nothing.
 */
function countsChanged(before: EngineState, after: EngineState, nowMs: number, out: Out): EngineState {
  const same = after.presence.connections.size === before.presence.connections.size && after.recentJoins === before.recentJoins;
  if (same && answeredCount(after) === answeredCount(before)) return after;
  return insightChanged(after, nowMs, out);
}

function answeredCount(state: EngineState): number {
  return state.phase.kind === 'question' ? state.phase.answers.size : -1;
}

/**
 * An edited program applies at once where nothing is playing (before the start, after the end,
 * during a hold) and otherwise waits for the next item boundary (see program.ts).
 */
function programChanged(state: EngineState, program: EngineState['program'], nowMs: number, out: Out): EngineState {
  const { phase } = state;
  if (phase.kind === 'finished') return { ...state, program, pendingProgram: null };
  if (phase.kind === 'waiting' || phase.kind === 'hold') {
    const next: EngineState =
      phase.kind === 'hold'
        ? { ...state, program, pendingProgram: null, phase: { ...phase, itemIndex: remapItemIndex(state.program, program, phase.itemIndex) } }
        : { ...state, program, pendingProgram: null };
    // Screens waiting or holding rotate the session's media: they need the new list and counts.
    broadcastState(next, nowMs, out);
    return next;
  }
  return { ...state, pendingProgram: program };
}

function stop(state: EngineState, nowMs: number, out: Out): EngineState {
  if (state.status === 'finished') return state;
  const next: EngineState = { ...state, status: 'finished', phase: { kind: 'finished' } };
  out.push({ kind: 'broadcast', to: 'audience', message: audienceView(next, nowMs) });
  out.push({ kind: 'broadcast', to: 'admins', message: adminView(next, nowMs) });
  return next;
}

/**
 * Pause (off) lets the current item run to its end, then holds. Resume (on) from a hold starts
 * the next item at once; otherwise it only lets the game carry on by itself.
 */
function setAutoRotate(state: EngineState, autoRotate: boolean, nowMs: number, out: Out): EngineState {
  const next: EngineState = { ...state, autoRotate };
  if (autoRotate && next.phase.kind === 'hold') {
    const { itemIndex } = next.phase;
    return next.program.items.length > 0 ? enterNextItem(next, itemIndex, nowMs, out) : next;
  }
  // Admins' Pause/Resume label follows the flag; players and displays see no change.
  out.push({ kind: 'broadcast', to: 'admins', message: adminView(next, nowMs) });
  return next;
}

function requireLive(state: EngineState, connectionId: string | undefined, out: Out): boolean {
  if (state.status === 'live') return true;
  replyError(out, connectionId, ERROR_CODES.notLive, 'The session is not live');
  return false;
}

function replyError(out: Out, connectionId: string | undefined, code: ErrorCode, text: string): void {
  if (connectionId !== undefined) out.push({ kind: 'reply', connectionId, message: errorMessage(code, text) });
}

/**
 * Absent players whose drop or resume grace ran out stop counting: the open question may now be
 * answered by everyone still present.
 */
function settlePresence(state: EngineState, nowMs: number, out: Out): EngineState {
  const presence = expirePresence(state.presence, nowMs);
  const next = presence === state.presence ? state : { ...state, presence };
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}

/** Adds `persist` when the resume snapshot changed and `wakeAt` when the pending timer moved. */
function appendBookkeeping(before: EngineState, after: EngineState, out: Out): void {
  if (before === after) return;
  const unchanged = before.lastQuestionIndex === after.lastQuestionIndex && sameSnapshotInputs(before, after);
  if (!unchanged) {
    const snapshot = toLiveSnapshot(after);
    if (!sameSnapshot(toLiveSnapshot(before, []), snapshot) || before.lastQuestionIndex !== after.lastQuestionIndex) {
      out.push({
        kind: 'persist',
        sessionId: after.program.sessionId,
        live: snapshot,
        currentQuestionIndex: after.lastQuestionIndex,
      });
    }
  }
  const wakeBefore = wakeAtOf(before);
  const wakeAfter = wakeAtOf(after);
  if (wakeBefore !== wakeAfter) out.push({ kind: 'wakeAt', atMs: wakeAfter });
}

/** For the runner: the wake-up a state needs (e.g. after resume); null when nothing is timed. */
export function pendingWakeAt(state: EngineState): number | null {
  return wakeAtOf(state);
}
