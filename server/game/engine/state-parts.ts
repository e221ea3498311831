/**
 * The parts of EngineState that have their own module of rules (presence.ts, insight.ts,
 * standings.ts). Only the shapes live here, so types.ts can hold them without importing those
 * modules back: the engine's imports run one way, from the rules to the types.
 */
import type { PMap } from './pmap.js';

/** Who counts as present for the early end; the rules are in presence.ts. */
export interface Presence {
  /** Open sockets per player: a player with two tabs stays connected until both close. */
  connections: PMap<number>;
  /** Players whose last socket closed, and when (ms); pruned once DROP_GRACE_MS have passed. */
  droppedAtMs: PMap<number>;
  /**
   * When the earliest drop stops counting; null with no drops. May be early (that player came
   * back): the wake-up then finds nothing expired and recomputes it. Kept so the wake-up, needed
   * on every engine step, costs O(1) even when many phones dropped at once.
   */
  dropsExpireAtMs: number | null;
  /** After a resume: players of the stored roster not back yet. */
  awaited: PMap<true>;
  /** When the awaited players stop counting; null outside a resume's grace. */
  resumeGraceEndsAtMs: number | null;
}

/** The throttling of admin/display counts; the rules are in insight.ts. */
export interface Insight {
  /** When the last throttled update went out (-Infinity: never). */
  sentAtMs: number;
  /** When the next one is due because something changed meanwhile; null: nothing pending. */
  dueAtMs: number | null;
  /**
   * What the last `presence` broadcast said (its counts and the lobby's names; null: none yet). An
   * update that only carries new answers leaves presence out when nothing changed: with a thousand
   * sessions answering, that message to every screen four times a second was pure waste (issue 26).
   * A screen connecting gets the current presence on its own (insightOnConnect).
   */
  presenceSent?: string | null;
  /** What that broadcast was made of (compared by identity: an unchanged presence costs four compares). */
  presenceSources?: { names: PMap<string>; recentJoins: readonly string[]; players: number; displays: number };
}

/** Every scorer's player id, best first; the rules are in standings.ts. */
export type Standings = readonly string[];
