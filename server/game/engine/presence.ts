/**
 * Who is in the game, for the early end ("every connected player has answered", DESIGN §8).
 *
 * A player counts as present while one of their sockets is open, and also:
 * - for DROP_GRACE_MS after their last socket dropped (a phone on flaky Wi-Fi comes back);
 * - after a resume (restart or failover), if they were on the roster stored with the snapshot,
 *   until they reconnect or RESUME_GRACE_MS after the resume, whichever comes first.
 * The question never runs past its deadline for them: these rules only hold an early end back.
 *
 * Pure like the rest of the engine: drop times and the grace deadline are state, expiry happens
 * on `timer` events, and the wake-up for the next expiry is part of the state's pending wake-up.
 */
import type { EngineState } from './types.js';
import { PMap } from './pmap.js';
import type { Presence } from './state-parts.js';

export const DROP_GRACE_MS = 5_000;
export const RESUME_GRACE_MS = 10_000;


export function emptyPresence(): Presence {
  return { connections: PMap.empty(), droppedAtMs: PMap.empty(), dropsExpireAtMs: null, awaited: PMap.empty(), resumeGraceEndsAtMs: null };
}

/** The presence of a resumed game: nobody connected yet, the stored roster awaited. */
export function resumedPresence(roster: readonly string[], nowMs: number): Presence {
  if (roster.length === 0) return emptyPresence();
  return {
    ...emptyPresence(),
    awaited: PMap.from(roster.map((playerId) => [playerId, true as const])),
    resumeGraceEndsAtMs: nowMs + RESUME_GRACE_MS,
  };
}

export function presenceConnected(presence: Presence, playerId: string): Presence {
  const count = presence.connections.get(playerId) ?? 0;
  return {
    ...presence,
    connections: presence.connections.set(playerId, count + 1),
    droppedAtMs: presence.droppedAtMs.has(playerId) ? presence.droppedAtMs.delete(playerId) : presence.droppedAtMs,
    awaited: presence.awaited.has(playerId) ? presence.awaited.delete(playerId) : presence.awaited,
  };
}

/** null when the player had no socket open (nothing changes). */
export function presenceDisconnected(presence: Presence, playerId: string, nowMs: number): Presence | null {
  const count = presence.connections.get(playerId);
  if (count === undefined) return null;
  if (count > 1) return { ...presence, connections: presence.connections.set(playerId, count - 1) };
  return {
    ...presence,
    connections: presence.connections.delete(playerId),
    droppedAtMs: presence.droppedAtMs.set(playerId, nowMs),
    // Times only grow: an earlier pending expiry stays the earliest.
    dropsExpireAtMs: presence.dropsExpireAtMs ?? nowMs + DROP_GRACE_MS,
  };
}

const dropCounts = (droppedAtMs: number, nowMs: number) => nowMs - droppedAtMs < DROP_GRACE_MS;
const graceActive = (presence: Presence, nowMs: number) => presence.resumeGraceEndsAtMs !== null && nowMs < presence.resumeGraceEndsAtMs;

/** Forgets drops older than DROP_GRACE_MS and the awaited roster once its grace is over. Same object when nothing expired. */
export function expirePresence(presence: Presence, nowMs: number): Presence {
  let { droppedAtMs, dropsExpireAtMs, awaited, resumeGraceEndsAtMs } = presence;
  // Walks the drops only when one may have expired (iterating a PMap visits all its buckets).
  if (dropsExpireAtMs !== null && nowMs >= dropsExpireAtMs) {
    dropsExpireAtMs = null;
    for (const [playerId, atMs] of presence.droppedAtMs.entries()) {
      if (!dropCounts(atMs, nowMs)) droppedAtMs = droppedAtMs.delete(playerId);
      else if (dropsExpireAtMs === null || atMs + DROP_GRACE_MS < dropsExpireAtMs) dropsExpireAtMs = atMs + DROP_GRACE_MS;
    }
  }
  if (resumeGraceEndsAtMs !== null && !graceActive(presence, nowMs)) {
    awaited = PMap.empty();
    resumeGraceEndsAtMs = null;
  }
  if (dropsExpireAtMs === presence.dropsExpireAtMs && resumeGraceEndsAtMs === presence.resumeGraceEndsAtMs) return presence;
  return { ...presence, droppedAtMs, dropsExpireAtMs, awaited, resumeGraceEndsAtMs };
}

/**
 * True when the open question may end early: someone counts as present, and every player who
 * counts as present at `nowMs` has answered. With nobody present the question runs its full time.
 */
export function everyoneAnswered(state: EngineState, nowMs: number): boolean {
  const { phase, presence } = state;
  if (phase.kind !== 'question') return false;
  const { connections, droppedAtMs, awaited } = presence;
  const grace = graceActive(presence, nowMs);
  // Cheap necessary conditions first, so a burst of answers does not scan every player each time.
  if (phase.answers.size < connections.size) return false;
  if (connections.size === 0 && droppedAtMs.size === 0 && (!grace || awaited.size === 0)) return false;
  // The players most likely to hold the question open are walked first, so the walk usually stops
  // at once: after a resume the roster not back yet (while a full house reconnects, the answers
  // stored before the crash outnumber the phones back, and every answer would otherwise walk them
  // all), then recent drops, then the open sockets.
  const { answers } = phase;
  const answered = (playerId: string) => answers.has(playerId);
  if (grace && awaited.size > 0 && !awaited.everyKey(answered)) return false;
  let present = connections.size + (grace ? awaited.size : 0);
  for (const [playerId, atMs] of droppedAtMs.size > 0 ? droppedAtMs.entries() : []) {
    if (!dropCounts(atMs, nowMs)) continue;
    if (!answers.has(playerId)) return false;
    present++;
  }
  return connections.everyKey(answered) && present > 0;
}

/**
 * When someone absent stops counting (a drop's 5 s or the resume grace running out), during an
 * open question: the early end must be checked again then. null when nothing is due.
 */
export function presenceWakeAt(state: EngineState): number | null {
  const { phase, presence } = state;
  if (phase.kind !== 'question') return null;
  // Runs twice per engine step (every answer): O(1).
  let wake = presence.dropsExpireAtMs;
  const grace = presence.resumeGraceEndsAtMs;
  if (grace !== null && (wake === null || grace < wake)) wake = grace;
  return wake !== null && wake < phase.endsAtMs ? wake : null;
}

/**
 * Who counts as present, for the resume snapshot: the open sockets, recent drops, and a previous
 * resume's roster still awaited (an entry slightly past its expiry only holds an early end back
 * a little longer, never past the deadline).
 */
export function presenceRoster(presence: Presence): string[] {
  const roster = presence.connections.keyList();
  const add = (_: unknown, playerId: string) => roster.push(playerId);
  presence.droppedAtMs.forEach(add);
  if (presence.resumeGraceEndsAtMs !== null) presence.awaited.forEach(add);
  return roster;
}

/**
 * True when `presenceRoster` lists the player now (a socket open, a drop not pruned yet, or awaited
 * after a resume): a player connecting who is not is a newcomer to the stored roster.
 */
export function onPresenceRoster(presence: Presence, playerId: string): boolean {
  return (
    presence.connections.has(playerId) ||
    presence.droppedAtMs.has(playerId) ||
    (presence.resumeGraceEndsAtMs !== null && presence.awaited.has(playerId))
  );
}
