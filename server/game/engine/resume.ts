/**
 * Building engine states: a fresh one for a session that is not live yet, and one rebuilt from
 * storage after a server restart. Resuming keeps the stored deadlines, so a question continues
 * with the time it had left; a deadline that passed while the server was down is handled by
 * the first `timer` event (the returned `wakeAt` is then already due).
 */
import { z } from 'zod';
import type { SessionStatus } from '../../../protocol/index.js';
import type { AnswerRecord, Effect, EngineState, LiveSnapshot, Phase, Program, ReduceResult, ScoreRecord } from './types.js';
import { NO_INSIGHT_SENT, distributionOf } from './insight.js';
import { PMap } from './pmap.js';
import { emptyPresence, resumedPresence } from './presence.js';
import { enterItem } from './phases.js';
import { reduce, pendingWakeAt } from './reduce.js';
import { rankEveryone, topOf } from './standings.js';
import { toLiveSnapshot } from './snapshot.js';
import { nextTickAfter, questionDurationMs } from './timing.js';

export interface StoredScore {
  playerId: string;
  name: string;
  pointsTotal: number;
  reachedAtMs: number;
}

export interface StoredAnswer extends AnswerRecord {
  playerId: string;
  asking: number;
  /** The player's name, for the leaderboard row of someone scoring for the first time who is not back yet. */
  name?: string;
}

export interface CreateEngineInput {
  program: Program;
  status: SessionStatus;
  autoRotate: boolean;
  /** The session's existing totals (empty after a restart of the session). */
  scores: StoredScore[];
}

export function createEngineState(input: CreateEngineInput): EngineState {
  const scores = PMap.from<ScoreRecord>(
    input.scores.map((s) => [s.playerId, { name: s.name, pointsTotal: s.pointsTotal, reachedAtMs: s.reachedAtMs }]),
  );
  const standings = rankEveryone(scores);
  return {
    program: input.program,
    status: input.status,
    autoRotate: input.autoRotate,
    phase: input.status === 'finished' ? { kind: 'finished' } : { kind: 'waiting' },
    asking: 0,
    scores,
    presence: emptyPresence(),
    displays: 0,
    insight: NO_INSIGHT_SENT,
    names: PMap.from(input.scores.map((s) => [s.playerId, s.name])),
    recentJoins: [],
    delays: PMap.empty(),
    standings,
    leaderboard: topOf(standings, scores),
    lastQuestionIndex: 0,
    pendingProgram: null,
  };
}

const liveSnapshotSchema = z.object({
  version: z.literal(1),
  itemIndex: z.number().int(),
  itemId: z.string().nullable(),
  phase: z.enum(['question', 'reveal', 'between', 'slide', 'media', 'hold']),
  phaseStartedAtMs: z.number(),
  phaseEndsAtMs: z.number().nullable(),
  asking: z.number().int().min(0),
  autoRotate: z.boolean(),
  mediaItemCount: z.number().int().nullable(),
  roster: z.array(z.string()).optional(),
  holdUntilMs: z.number().optional(),
});

/** Reads a stored snapshot (already JSON-parsed); null when absent or not understood. */
export function parseLiveSnapshot(value: unknown): LiveSnapshot | null {
  const parsed = liveSnapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export interface ResumeInput {
  program: Program;
  /** The session's auto-play setting, used only when there is no snapshot. */
  autoRotate: boolean;
  /** null: the session is live but nothing was stored yet; it starts from item 0. */
  live: LiveSnapshot | null;
  scores: StoredScore[];
  /** Answers stored for the snapshot's asking (others are ignored). */
  answers: StoredAnswer[];
  /**
   * The position persisted with the snapshot (`persist.currentQuestionIndex`). Stored, not
   * derived from the snapshot's item: after the game loops, or an edit moved the question, the
   * question asked last is not the one at or before the current item.
   */
  currentQuestionIndex: number;
}

/**
 * Rebuilds a live session. Nobody is connected yet (sockets reconnect and are announced with
 * `player_connected`); the stored roster is awaited for RESUME_GRACE_MS (presence.ts), so a
 * resumed question cannot end early before its players are back.
 */
export function resumeEngine(input: ResumeInput, nowMs: number): ReduceResult {
  const { program } = input;
  const live = input.live && relocate(program, input.live);
  const fresh = createEngineState({ program, status: 'draft', autoRotate: live?.autoRotate ?? input.autoRotate, scores: input.scores });
  if (!live) return reduce(fresh, { type: 'start' }, nowMs);

  let names = fresh.names;
  for (const answer of input.answers) if (answer.name !== undefined && !names.has(answer.playerId)) names = names.set(answer.playerId, answer.name);
  const base: EngineState = {
    ...fresh,
    names,
    // Who was present when the snapshot was written counts for a while, so the first phones back cannot end the question.
    presence: resumedPresence(live.roster ?? [], nowMs),
    status: 'live',
    asking: live.asking,
    lastQuestionIndex: input.currentQuestionIndex,
  };
  const phase = rebuildPhase(base, live, input.answers, nowMs);
  if (!phase) {
    // The stored position no longer fits the program: restart the item at that position.
    const effects: Effect[] = [];
    const state = enterItem(base, Math.min(Math.max(live.itemIndex, 0), Math.max(program.items.length - 1, 0)), nowMs, effects);
    effects.push(
      { kind: 'persist', sessionId: program.sessionId, live: toLiveSnapshot(state), currentQuestionIndex: state.lastQuestionIndex },
      { kind: 'wakeAt', atMs: pendingWakeAt(state) },
    );
    return { state, effects };
  }
  const state: EngineState = { ...base, phase };
  return { state, effects: [{ kind: 'wakeAt', atMs: pendingWakeAt(state) }] };
}

function rebuildPhase(state: EngineState, live: LiveSnapshot, answers: StoredAnswer[], nowMs: number): Phase | null {
  const { program } = state;
  const { itemIndex, phaseStartedAtMs: startedAtMs, phaseEndsAtMs } = live;
  if (live.phase === 'hold') {
    return itemIndex >= -1 && itemIndex < program.items.length ? { kind: 'hold', itemIndex, startedAtMs } : null;
  }
  const item = program.items[itemIndex];
  if (!item || (live.itemId !== null && item.id !== live.itemId)) return null;

  switch (live.phase) {
    case 'question':
    case 'reveal': {
      if (item.itemType !== 'question') return null;
      const questionId = item.question.id;
      const endsAtMs = phaseEndsAtMs ?? startedAtMs + questionDurationMs(item.question.timeLimitSeconds);
      const current = answers.filter((a) => a.asking === live.asking && a.questionId === questionId);
      const answerMap = PMap.from<AnswerRecord>(current.map(({ playerId, asking: _asking, name: _name, ...answer }) => [playerId, answer]));
      if (live.phase === 'reveal') {
        return { kind: 'reveal', itemIndex, asking: live.asking, answers: answerMap, distribution: distributionOf(answerMap), startedAtMs, endsAtMs };
      }
      return {
        kind: 'question',
        itemIndex,
        asking: live.asking,
        answers: answerMap,
        startedAtMs,
        endsAtMs,
        nextTickAtMs: nextTickAfter(startedAtMs, nowMs),
        ...(live.holdUntilMs === undefined ? {} : { holdUntilMs: live.holdUntilMs }),
      };
    }
    case 'slide':
      return item.itemType === 'slide' && phaseEndsAtMs !== null ? { kind: 'slide', itemIndex, startedAtMs, endsAtMs: phaseEndsAtMs } : null;
    case 'media':
      if (item.itemType !== 'media_block' || phaseEndsAtMs === null) return null;
      return { kind: 'media', itemIndex, startedAtMs, endsAtMs: phaseEndsAtMs, mediaItemCount: item.mediaItemCount };
    case 'between':
      if (phaseEndsAtMs === null) return null;
      return {
        kind: 'between',
        itemIndex,
        startedAtMs,
        endsAtMs: phaseEndsAtMs,
        mediaItemCount: live.mediaItemCount ?? program.mediaItemsPerTransition,
      };
  }
}

/**
 * Finds the snapshot's item in the stored program by id: a program edited while the game ran
 * takes effect at the next item boundary, so the running item may sit elsewhere in storage.
 */
function relocate(program: Program, live: LiveSnapshot): LiveSnapshot {
  if (live.itemId === null || program.items[live.itemIndex]?.id === live.itemId) return live;
  const moved = program.items.findIndex((item) => item.id === live.itemId);
  return moved >= 0 ? { ...live, itemIndex: moved } : live;
}
