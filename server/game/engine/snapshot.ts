/**
 * The resume snapshot: the few facts a restarted server needs, with the program, the scores
 * and the current asking's answers (all in storage), to continue exactly where the game was.
 */
import type { EngineState, LiveSnapshot } from './types.js';
import { presenceRoster } from './presence.js';
import { itemAt } from './views.js';

/**
 * null when there is nothing to resume (not live, or stopped). `roster` defaults to who counts as
 * present; a snapshot built only to be compared (sameSnapshot ignores the roster) passes [] and
 * saves walking every player.
 */
export function toLiveSnapshot(state: EngineState, roster?: string[]): LiveSnapshot | null {
  const { phase } = state;
  if (state.status !== 'live' || phase.kind === 'waiting' || phase.kind === 'finished') return null;
  const base = {
    version: 1 as const,
    itemIndex: phase.itemIndex,
    itemId: itemAt(state.program, phase.itemIndex)?.id ?? null,
    phaseStartedAtMs: phase.startedAtMs,
    asking: state.asking,
    autoRotate: state.autoRotate,
    roster: roster ?? presenceRoster(state.presence),
  };
  switch (phase.kind) {
    case 'hold':
      return { ...base, phase: 'hold', phaseEndsAtMs: null, mediaItemCount: null };
    case 'between':
    case 'media':
      return { ...base, phase: phase.kind, phaseEndsAtMs: phase.endsAtMs, mediaItemCount: phase.mediaItemCount };
    case 'question':
      // A reveal held for answers in flight stays held after a restart (credit.ts).
      if (phase.holdUntilMs !== undefined) return { ...base, phase: 'question', phaseEndsAtMs: phase.endsAtMs, mediaItemCount: null, holdUntilMs: phase.holdUntilMs };
      return { ...base, phase: 'question', phaseEndsAtMs: phase.endsAtMs, mediaItemCount: null };
    default:
      return { ...base, phase: phase.kind, phaseEndsAtMs: phase.endsAtMs, mediaItemCount: null };
  }
}

/** Compares what the game needs to resume; the roster is refreshed by the runner on its own (room.ts). */
export function sameSnapshot(a: LiveSnapshot | null, b: LiveSnapshot | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.itemIndex === b.itemIndex &&
    a.itemId === b.itemId &&
    a.phase === b.phase &&
    a.phaseStartedAtMs === b.phaseStartedAtMs &&
    a.phaseEndsAtMs === b.phaseEndsAtMs &&
    a.asking === b.asking &&
    a.autoRotate === b.autoRotate &&
    a.mediaItemCount === b.mediaItemCount &&
    a.holdUntilMs === b.holdUntilMs
  );
}

/**
 * True when two states give the same snapshot, decided from the fields it is built from without
 * building it: the common case on the answer path (only the answers changed) costs a few compares.
 */
export function sameSnapshotInputs(a: EngineState, b: EngineState): boolean {
  if (a.status !== b.status || a.autoRotate !== b.autoRotate || a.asking !== b.asking || a.program !== b.program) return false;
  const p = a.phase;
  const q = b.phase;
  if (p === q) return true;
  if (p.kind !== q.kind) return false;
  if (p.kind === 'waiting' || p.kind === 'finished' || q.kind === 'waiting' || q.kind === 'finished') return true;
  if (p.itemIndex !== q.itemIndex || p.startedAtMs !== q.startedAtMs) return false;
  if (p.kind === 'hold' || q.kind === 'hold') return true;
  return p.endsAtMs === q.endsAtMs && mediaCountOf(p) === mediaCountOf(q) && holdOf(p) === holdOf(q);
}

// At module level, not inside sameSnapshotInputs: it runs on every answer, and a closure there
// was rebuilt (and, under tsx, renamed with defineProperty) on each call.
function holdOf(phase: EngineState['phase']): number | undefined {
  return phase.kind === 'question' ? phase.holdUntilMs : undefined;
}

function mediaCountOf(phase: EngineState['phase']): number | null {
  return phase.kind === 'between' || phase.kind === 'media' ? phase.mediaItemCount : null;
}
