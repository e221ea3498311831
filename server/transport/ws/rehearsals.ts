/**
 * When the warm-up rehearsal (rehearsal.ts) runs: when a session goes live, and when a server
 * starts with live sessions. A rehearsal warms the instance's code, not a session: after one,
 * sessions going live within REHEARSAL_VALID_MS start without another. A chain starting a
 * thousand pre-shows in a few minutes otherwise rehearsed a 2,000-phone question per start, back
 * to back on the event loop, and the setup took minutes of CPU (issue 26). Code that the games
 * keep running stays compiled; after a long quiet spell V8 may have dropped it, so the next start
 * rehearses again. A failed rehearsal is tried again at a start after RETRY_AFTER_FAILURE_MS.
 */
import type { Program } from '../../game/engine/index.js';
import type { RoomLog, RoomStorage } from '../../game/rooms/index.js';
import { rehearse as rehearseOnce } from './rehearsal.js';

export const REHEARSAL_VALID_MS = 10 * 60_000;

/**
 * After a failed rehearsal the next start tries again only this much later: a failure that
 * repeats (every full-size rehearsal failed from 791f688 to session 40, docs/PERFORMANCE.md) otherwise
 * ran one 10 s rehearsal after another while a chain's pre-shows started.
 */
export const RETRY_AFTER_FAILURE_MS = 60_000;

/** The program a rehearsal plays: the started (or first resumed) session's own, when it can be read. */
async function programOf(storage: RoomStorage, sessionId: string): Promise<Program | undefined> {
  const session = await storage.loadSession(sessionId);
  return session && storage.loadProgram(session);
}

export interface Rehearsals {
  /** Rehearses for this session's start, unless one ran recently (or is running: it is shared). */
  run(sessionId: string): Promise<void>;
  /** Resolves when no rehearsal is running. */
  idle(): Promise<void>;
}

export function rehearsals(
  players: number,
  storage: RoomStorage,
  log: RoomLog,
  rehearse: (log: RoomLog, players: number, program: Program | undefined) => Promise<unknown> = rehearseOnce,
  now: () => number = Date.now,
): Rehearsals {
  let running: Promise<void> | null = null;
  let doneAtMs = Number.NEGATIVE_INFINITY;
  const run = (sessionId: string): Promise<void> => {
    if (players <= 0) return Promise.resolve();
    if (!running && now() - doneAtMs < REHEARSAL_VALID_MS) return Promise.resolve();
    running ??= programOf(storage, sessionId)
      .catch(() => undefined) // unreadable: the built-in program still warms most of the path
      .then((program) => rehearse(log, players, program))
      .then(() => {
        doneAtMs = now();
      })
      .catch((err) => {
        doneAtMs = now() - REHEARSAL_VALID_MS + RETRY_AFTER_FAILURE_MS;
        log.warn({ err }, 'the warm-up rehearsal failed');
      })
      .finally(() => (running = null));
    return running;
  };
  return { run, idle: () => running ?? Promise.resolve() };
}
