/**
 * Edits to a running session's program (items added, removed or moved; a question or the media
 * list changed). The item on screen never changes under the audience: the new program waits in
 * `pendingProgram` and takes over at the next item boundary, where the position in the old
 * program is mapped onto the new one by item id.
 */
import type { EngineState, Program } from './types.js';

/**
 * Where item `itemIndex` of `before` sits in `after`. An item that was removed maps to the
 * position just before the first later item that is still there, so the game carries on with
 * what would have come next; -1 (nothing played yet) stays -1.
 */
export function remapItemIndex(before: Program, after: Program, itemIndex: number): number {
  if (itemIndex < 0) return -1;
  const positionOf = (id: string) => after.items.findIndex((item) => item.id === id);
  const current = before.items[itemIndex];
  if (current) {
    const same = positionOf(current.id);
    if (same >= 0) return same;
  }
  for (let k = itemIndex + 1; k < before.items.length; k++) {
    const later = positionOf(before.items[k].id);
    if (later >= 0) return later - 1;
  }
  return after.items.length - 1;
}

/** At an item boundary: a pending program takes over, and `itemIndex` is translated onto it. */
export function adoptPendingProgram(state: EngineState, itemIndex: number): { state: EngineState; itemIndex: number } {
  const next = state.pendingProgram;
  if (!next) return { state, itemIndex };
  return {
    state: { ...state, program: next, pendingProgram: null },
    itemIndex: remapItemIndex(state.program, next, itemIndex),
  };
}
