/**
 * Test helpers for the engine: program builders and a fake-clock driver that plays the runner's
 * part (it keeps the one pending wake-up and fires `timer` events when the clock reaches it).
 */
import type { MediaView, ServerMessage } from '../../../../protocol/index.js';
import type { Effect, EngineEvent, EngineState, Program, ProgramItem, ProgramQuestion } from '../types.js';
import { reduce } from '../reduce.js';
import { createEngineState, type StoredScore } from '../resume.js';

export const T0 = 1_700_000_000_000;

export function makeQuestion(id: string, overrides: Partial<ProgramQuestion> = {}): ProgramItem {
  return {
    itemType: 'question',
    id: `item-${id}`,
    question: {
      id,
      text: `Question ${id}?`,
      choices: ['A', 'B', 'C', 'D'],
      correctIndex: 1,
      points: 100,
      timeLimitSeconds: 20,
      categories: ['film'],
      media: null,
      ...overrides,
    },
  };
}

export function makeSlide(id: string, slideType: 'intro' | 'rules' | 'break' | 'leaderboard' | 'join' = 'intro'): ProgramItem {
  return { itemType: 'slide', id, slideType, slideData: slideType === 'join' ? { text: 'Scan to Join!' } : {} };
}

export function makeMediaBlock(id: string, mediaItemCount: number): ProgramItem {
  return { itemType: 'media_block', id, mediaItemCount };
}

export function makeMedia(id: string, durationSeconds: number): MediaView {
  return { id, filePath: `/media/${id}`, phoneFilePath: null, fileType: 'image', duration: durationSeconds, promotionalLink: null };
}

export function makeProgram(items: ProgramItem[], options: { media?: MediaView[]; mediaItemsPerTransition?: number } = {}): Program {
  return { sessionId: 'session-1', items, media: options.media ?? [], mediaItemsPerTransition: options.mediaItemsPerTransition ?? 1 };
}

export interface Sent {
  atMs: number;
  effect: Effect;
}

/** Drives an engine like the room runner would, on a fake clock. */
export class FakeRunner {
  nowMs: number;
  state: EngineState;
  wakeAtMs: number | null = null;
  /** Every effect so far, with the time it was produced. */
  readonly log: Sent[] = [];

  constructor(program: Program, options: { autoRotate?: boolean; scores?: StoredScore[]; nowMs?: number } = {}) {
    this.nowMs = options.nowMs ?? T0;
    this.state = createEngineState({
      program,
      status: 'scheduled',
      autoRotate: options.autoRotate ?? true,
      scores: options.scores ?? [],
    });
  }

  /** Takes over a state built elsewhere (resume), with the effects that came with it. */
  adopt(state: EngineState, effects: Effect[]): void {
    this.state = state;
    this.record(effects);
  }

  dispatch(event: EngineEvent): Effect[] {
    const { state, effects } = reduce(this.state, event, this.nowMs);
    this.state = state;
    this.record(effects);
    return effects;
  }

  /** Moves the clock forward, firing every wake-up that falls due on the way, at its own time. */
  advance(ms: number): Effect[] {
    return this.advanceTo(this.nowMs + ms);
  }

  advanceTo(targetMs: number): Effect[] {
    const produced: Effect[] = [];
    while (this.wakeAtMs !== null && this.wakeAtMs <= targetMs) {
      this.nowMs = Math.max(this.nowMs, this.wakeAtMs);
      produced.push(...this.dispatch({ type: 'timer' }));
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
    return produced;
  }

  connect(playerId: string, name = playerId): Effect[] {
    return this.dispatch({ type: 'player_connected', playerId, name });
  }

  answer(playerId: string, questionId: string, selectedIndex: number): Effect[] {
    return this.dispatch({ type: 'submit_answer', connectionId: `conn-${playerId}`, playerId, questionId, selectedIndex });
  }

  /** The phase kind, for short assertions. */
  get phase(): EngineState['phase']['kind'] {
    return this.state.phase.kind;
  }

  /** Messages in the log, with their target, optionally only of one type. */
  messages(type?: ServerMessage['type']): { atMs: number; to: string; message: ServerMessage }[] {
    const result: { atMs: number; to: string; message: ServerMessage }[] = [];
    for (const { atMs, effect } of this.log) {
      let to: string;
      if (effect.kind === 'broadcast') to = effect.to;
      else if (effect.kind === 'send') to = `player:${effect.playerId}`;
      else if (effect.kind === 'reply') to = `connection:${effect.connectionId}`;
      else continue;
      if (!type || effect.message.type === type) result.push({ atMs, to, message: effect.message });
    }
    return result;
  }

  private record(effects: Effect[]): void {
    for (const effect of effects) {
      this.log.push({ atMs: this.nowMs, effect });
      if (effect.kind === 'wakeAt') this.wakeAtMs = effect.atMs;
    }
  }
}

/** The effects of one kind from a list, typed. */
export function effectsOf<K extends Effect['kind']>(effects: Effect[], kind: K): Extract<Effect, { kind: K }>[] {
  return effects.filter((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
}

/** Messages inside a list of effects, of one type. */
export function messagesOf<T extends ServerMessage['type']>(effects: Effect[], type: T): Extract<ServerMessage, { type: T }>[] {
  const result: Extract<ServerMessage, { type: T }>[] = [];
  for (const effect of effects) {
    if ((effect.kind === 'broadcast' || effect.kind === 'send' || effect.kind === 'reply') && effect.message.type === type) {
      result.push(effect.message as Extract<ServerMessage, { type: T }>);
    }
  }
  return result;
}
