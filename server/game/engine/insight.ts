/**
 * Live insight for the people running the show (DESIGN §10): how many phones are in the game,
 * how many displays are up, how many answers are in and the room's split at the reveal.
 *
 * Counts change with every answer and every phone that connects: with ten thousand phones that
 * is thousands of changes a second. They reach admins and displays (never phones, the crowd is
 * the cost) at most every PROGRESS_INTERVAL_MS: the first change after a quiet spell goes out at
 * once, later ones are folded into one update when the interval is over (the engine's wake-up).
 */
import type { AnswerProgressMessage, PresenceMessage } from '../../../protocol/index.js';
import type { PMap } from './pmap.js';
import type { Insight } from './state-parts.js';
import type { AnswerRecord, EngineState, Effect } from './types.js';
import { shownQuestion } from './views.js';

/** At most 4 updates a second per session. */
export const PROGRESS_INTERVAL_MS = 250;


export const NO_INSIGHT_SENT: Insight = { sentAtMs: Number.NEGATIVE_INFINITY, dueAtMs: null, presenceSent: null };

/** answers per choice, [A, B, C, D]. */
export function distributionOf(answers: PMap<AnswerRecord>): number[] {
  const counts = [0, 0, 0, 0];
  answers.forEach((answer) => counts[answer.selectedIndex]++);
  return counts;
}

/** The open question's answer count; null when no question is open. */
export function progressMessage(state: EngineState): AnswerProgressMessage | null {
  const { phase } = state;
  if (phase.kind !== 'question') return null;
  const question = shownQuestion(state);
  if (!question) return null;
  return { type: 'answer_progress', questionId: question.id, answered: phase.answers.size, players: state.presence.connections.size };
}

export function presenceMessage(state: EngineState): PresenceMessage {
  const recentNames = state.recentJoins.map((playerId) => state.names.get(playerId) ?? '').filter((name) => name !== '');
  return { type: 'presence', players: state.presence.connections.size, displays: state.displays, joined: state.names.size, recentNames };
}

/** What an admin or display socket needs on connecting, besides its session_state (both roles get the same since the lobby, DESIGN §17). */
export function insightOnConnect(state: EngineState, _role: 'admin' | 'display'): (AnswerProgressMessage | PresenceMessage)[] {
  const progress = progressMessage(state);
  // Displays too: the lobby shows who joined (DESIGN §17).
  const messages: (AnswerProgressMessage | PresenceMessage)[] = [presenceMessage(state)];
  if (progress) messages.push(progress);
  return messages;
}

/** Sends the update; returns the insight after it (sent now, presence as sent). */
function sendInsight(state: EngineState, nowMs: number, out: Effect[]): Insight {
  const { insight } = state;
  const progress = progressMessage(state);
  // Nothing presence is made of changed (the same objects): no message to build and compare. The
  // common case while answers come in; building it named the lobby's players every time.
  const sources = insight.presenceSources;
  if (sources && sources.names === state.names && sources.recentJoins === state.recentJoins && sources.players === state.presence.connections.size && sources.displays === state.displays) {
    if (progress) out.push({ kind: 'broadcast', to: 'screens', message: progress });
    return { ...insight, sentAtMs: nowMs, dueAtMs: null };
  }
  const presence = presenceMessage(state);
  // Screens, not only admins: the display's lobby shows who joined (DESIGN §17).
  const presenceKey = `${presence.players}/${presence.displays}/${presence.joined}/${(presence.recentNames ?? []).join('\n')}`;
  if (presenceKey !== insight.presenceSent) out.push({ kind: 'broadcast', to: 'screens', message: presence });
  if (progress) out.push({ kind: 'broadcast', to: 'screens', message: progress });
  const presenceSources = { names: state.names, recentJoins: state.recentJoins, players: state.presence.connections.size, displays: state.displays };
  return { sentAtMs: nowMs, dueAtMs: null, presenceSent: presenceKey, presenceSources };
}

/** A count changed: send now if the interval allows, else make sure an update is due. */
export function insightChanged(state: EngineState, nowMs: number, out: Effect[]): EngineState {
  const { insight } = state;
  if (nowMs >= insight.sentAtMs + PROGRESS_INTERVAL_MS) return { ...state, insight: sendInsight(state, nowMs, out) };
  if (insight.dueAtMs !== null) return state;
  return { ...state, insight: { ...insight, dueAtMs: insight.sentAtMs + PROGRESS_INTERVAL_MS } };
}

/** The pending update, if its time has come (called on every timer wake-up). */
export function sendDueInsight(state: EngineState, nowMs: number, out: Effect[]): EngineState {
  const { dueAtMs } = state.insight;
  if (dueAtMs === null || nowMs < dueAtMs) return state;
  return { ...state, insight: sendInsight(state, nowMs, out) };
}

/** A question closed: its final count goes out now, outside the throttle (DESIGN §10: "once when it ends"). */
export function finalProgress(state: EngineState, out: Effect[]): void {
  const progress = progressMessage(state);
  if (progress) out.push({ kind: 'broadcast', to: 'screens', message: progress });
}
