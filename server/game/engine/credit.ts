/**
 * Fair timing on bad networks (DESIGN §14). The server's own clock says when an answer arrived;
 * the phone says how long its player took (`reactionMs`, on its own monotonic clock). The phone
 * is believed only within what the server measured of that phone's delay (the "allowance"):
 *
 *   credited = clamp(reactionMs, serverElapsed − allowance, serverElapsed)
 *
 * so an honest phone on a slow link is credited its true reaction, and a phone that lies can
 * gain at most its allowance, which is never more than MAX_ALLOWANCE_MS. Without `reactionMs`
 * (an older client) the credit is the server's elapsed time, as before.
 *
 * The reveal may wait a little past the deadline for answers still on their way from players who
 * count as present (the hold), never more than MAX_REVEAL_HOLD_MS (under DESIGN's 1.5 s).
 */
import type { EngineState } from './types.js';
import { DROP_GRACE_MS } from './presence.js';

/** The most a phone's measured delay can move its credited time: the bound a modified client gains. */
export const MAX_ALLOWANCE_MS = 5_000;
/**
 * The reveal waits at most this long past the deadline for answers in flight: DESIGN allows
 * 1.5 s; 100 ms are left for the closing step itself and its way out to the screens.
 */
export const MAX_REVEAL_HOLD_MS = 1_400;

/** The measured allowance as the engine uses it: whole, non-negative, capped. */
export function boundedAllowanceMs(allowanceMs: number | undefined): number {
  if (allowanceMs === undefined || !Number.isFinite(allowanceMs) || allowanceMs <= 0) return 0;
  return Math.min(Math.round(allowanceMs), MAX_ALLOWANCE_MS);
}

/**
 * The elapsed time an answer is scored with. `serverElapsedMs` runs from the question's broadcast
 * to the answer's arrival; the phone's `reactionMs` is believed within [serverElapsed − allowance,
 * serverElapsed]: never faster than the measured delay explains, never slower than the server saw.
 */
export function creditedElapsedMs(serverElapsedMs: number, reactionMs: number | undefined, allowanceMs: number | undefined): number {
  const upper = Math.max(0, serverElapsedMs);
  if (reactionMs === undefined || !Number.isFinite(reactionMs)) return upper;
  const lower = Math.max(0, upper - boundedAllowanceMs(allowanceMs));
  return Math.min(Math.max(Math.round(reactionMs), lower), upper);
}

/**
 * How long past the deadline the reveal waits: until no answer still on its way could count. An
 * answer from a player with allowance `a` arriving at t has credited ≥ t − start − a, so past
 * deadline + a it cannot be within the limit. Players who dropped and still count as present may
 * come back on a new socket with their cut-off as allowance: they get the longest hold. 0 when
 * every present player has answered (or nobody is present).
 */
export function revealHoldMs(state: EngineState, nowMs: number): number {
  const { phase, presence, delays } = state;
  if (phase.kind !== 'question') return 0;
  const { answers } = phase;
  let holdMs = 0;
  for (const [playerId, droppedAtMs] of presence.droppedAtMs.size > 0 ? presence.droppedAtMs.entries() : []) {
    if (!answers.has(playerId) && nowMs - droppedAtMs < DROP_GRACE_MS) return MAX_REVEAL_HOLD_MS;
  }
  if (answers.size >= presence.connections.size && presence.connections.everyKey((p) => answers.has(p))) return 0;
  presence.connections.forEach((_, playerId) => {
    if (holdMs >= MAX_REVEAL_HOLD_MS || answers.has(playerId)) return;
    holdMs = Math.max(holdMs, boundedAllowanceMs(delays.get(playerId)));
  });
  return Math.min(holdMs, MAX_REVEAL_HOLD_MS);
}
