/**
 * A live game as the operator's overview shows it (`GET /api/admin/live`, DESIGN §18), read from
 * the room's in-memory state: no database, no per-phone work, so a thousand rooms are summarised in
 * well under a millisecond each. The endpoint adds the title and auditorium (one query) and the
 * health (live-games.ts).
 */
import type { LiveGame } from '../../../protocol/index.js';
import type { EngineState } from '../engine/index.js';
import { countQuestions, questionPosition } from '../engine/views.js';

export type RoomSummary = Pick<LiveGame, 'sessionId' | 'item' | 'questionNumber' | 'questions' | 'phones' | 'displays' | 'answered' | 'reconnectsLastMinute'>;

export const RECONNECT_WINDOW_MS = 60_000;

function itemOf(state: EngineState): LiveGame['item'] {
  switch (state.phase.kind) {
    case 'question':
    case 'reveal':
      return 'question';
    case 'slide':
      return 'slide';
    case 'media':
    case 'between':
      return 'media';
    default:
      return 'idle';
  }
}

export function summarize(sessionId: string, state: EngineState, reconnectsLastMinute: number): RoomSummary {
  const { phase, program } = state;
  const onScreen = phase.kind === 'question' || phase.kind === 'reveal' ? questionPosition(program, phase.itemIndex) : null;
  const asked = onScreen ?? (state.asking > 0 ? state.lastQuestionIndex : null);
  return {
    sessionId,
    item: itemOf(state),
    questionNumber: asked === null ? null : asked + 1,
    questions: countQuestions(program),
    phones: state.presence.connections.size,
    displays: state.displays,
    answered: phase.kind === 'question' || phase.kind === 'reveal' ? phase.answers.size : 0,
    reconnectsLastMinute,
  };
}

/**
 * Players coming back: a player's socket opening when the game has seen that player before (the
 * room asks its state, which also knows who played before a restart or a takeover). Only the
 * last minute's times are kept (pruned as they are read or added).
 */
export class ReconnectCounter {
  private times: number[] = [];

  cameBack(nowMs: number): void {
    this.times.push(nowMs);
    this.prune(nowMs);
  }

  lastMinute(nowMs: number): number {
    this.prune(nowMs);
    return this.times.length;
  }

  private prune(nowMs: number): void {
    let drop = 0;
    while (drop < this.times.length && this.times[drop] <= nowMs - RECONNECT_WINDOW_MS) drop++;
    if (drop > 0) this.times = this.times.slice(drop);
  }
}
