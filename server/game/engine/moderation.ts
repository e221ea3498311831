/**
 * The host's moderation in the live game (DESIGN §15). A kicked player leaves everything the
 * screens draw from: their score and rank, their answer to the open question, the presence that
 * could hold an early end back. A hidden or renamed player keeps their score under the new screen
 * name. Either way every screen gets the new leaderboard at once.
 */
import type { EngineState } from './types.js';
import type { Out } from './phases.js';
import { everyoneAnswered } from './presence.js';
import { closeQuestion } from './phases.js';
import { topOf } from './standings.js';

function withoutPlayer(state: EngineState, playerId: string): EngineState {
  const { presence, phase } = state;
  const next: EngineState = {
    ...state,
    scores: state.scores.has(playerId) ? state.scores.delete(playerId) : state.scores,
    names: state.names.has(playerId) ? state.names.delete(playerId) : state.names,
    standings: state.scores.has(playerId) ? state.standings.filter((id) => id !== playerId) : state.standings,
    presence: {
      ...presence,
      connections: presence.connections.has(playerId) ? presence.connections.delete(playerId) : presence.connections,
      droppedAtMs: presence.droppedAtMs.has(playerId) ? presence.droppedAtMs.delete(playerId) : presence.droppedAtMs,
      awaited: presence.awaited.has(playerId) ? presence.awaited.delete(playerId) : presence.awaited,
    },
  };
  if ((phase.kind === 'question' || phase.kind === 'reveal') && phase.answers.has(playerId)) {
    next.phase = { ...phase, answers: phase.answers.delete(playerId) };
  }
  return next;
}

function renamed(state: EngineState, playerId: string, screenName: string): EngineState {
  const score = state.scores.get(playerId);
  return {
    ...state,
    names: state.names.set(playerId, screenName),
    scores: score ? state.scores.set(playerId, { ...score, name: screenName }) : state.scores,
  };
}

/** `screenName` null: the player was kicked. */
export function playerModerated(state: EngineState, playerId: string, screenName: string | null, nowMs: number, out: Out): EngineState {
  let next = screenName === null ? withoutPlayer(state, playerId) : renamed(state, playerId, screenName);
  const leaderboard = topOf(next.standings, next.scores);
  next = { ...next, leaderboard };
  out.push({ kind: 'broadcast', to: 'all', message: { type: 'leaderboard_update', leaderboard } });
  // The kicked player may have been the last one the open question waited for.
  return everyoneAnswered(next, nowMs) ? closeQuestion(next, nowMs, out) : next;
}
