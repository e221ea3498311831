/**
 * Prize winners reach the big screen between questions only (DESIGN §17): "Show on display"
 * during an open question is held until that question closes, so the winners never replace a
 * question the phones are still answering.
 *
 * The truth about the phase is the session's stored live snapshot (the room persists it on every
 * phase change, on whichever instance owns the game), so the gate works the same with one
 * instance or many. A held show polls that one row every WINNERS_POLL_MS until the question is
 * over (or the session stopped or went away), then announces the winners as an immediate show does.
 */
import type { Store } from '../../storage/store.js';

/** How often a held show looks again: a question's end reaches the screen within this. */
export const WINNERS_POLL_MS = 250;

export interface Winners {
  prize: string;
  names: string[];
}

export type Announce = (sessionId: string, winners: Winners) => void;

export class WinnersGate {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly announce: Announce,
    private readonly pollMs = WINNERS_POLL_MS,
  ) {}

  /** Shows now (false) or holds the winners until the open question closes (true: queued). */
  async show(sessionId: string, winners: Winners): Promise<boolean> {
    if (!(await this.questionOpen(sessionId))) {
      this.announce(sessionId, winners);
      return false;
    }
    this.wait(sessionId, winners);
    return true;
  }

  /** Drops every held show (server shutdown): nothing is announced after close. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private wait(sessionId: string, winners: Winners): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.questionOpen(sessionId)
        .then((open) => {
          if (this.closed) return;
          if (open) this.wait(sessionId, winners);
          else this.announce(sessionId, winners);
        })
        // A failed read (database hiccup) is not an end: look again on the next beat.
        .catch(() => this.wait(sessionId, winners));
    }, this.pollMs);
    this.timers.add(timer);
  }

  private async questionOpen(sessionId: string): Promise<boolean> {
    const stored = await this.store.sessions.getLiveState(sessionId);
    if (!stored) return false;
    try {
      return (JSON.parse(stored) as { phase?: unknown }).phase === 'question';
    } catch {
      return false;
    }
  }
}
