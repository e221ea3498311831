/**
 * When each player was last heard from on a socket that is gone or going, so a new socket of
 * theirs can be credited the time they were cut off (link-delay.ts, DESIGN §14). The old socket
 * may still look open here (a phone that lost signal leaves its TCP connection up): then its
 * last word counts. Entries older than the largest allowance are of no use and are forgotten.
 */
import { MAX_ALLOWANCE_MS } from '../../game/engine/credit.js';
import type { Hub } from './hub.js';

/** Forgotten entries are swept at most this often, when a socket closes. */
const SWEEP_INTERVAL_MS = 10_000;

export class CutOffs {
  private readonly heardAtMs = new Map<string, number>();
  private sweptAtMs = 0;

  gone(sessionId: string, playerId: string, lastHeardAtMs: number, nowMs = Date.now()): void {
    const key = `${sessionId} ${playerId}`;
    this.heardAtMs.set(key, Math.max(this.heardAtMs.get(key) ?? 0, lastHeardAtMs));
    if (nowMs - this.sweptAtMs < SWEEP_INTERVAL_MS) return;
    this.sweptAtMs = nowMs;
    for (const [k, atMs] of this.heardAtMs) if (nowMs - atMs > MAX_ALLOWANCE_MS) this.heardAtMs.delete(k);
  }

  /**
   * The last word from this player's other sockets (open or recently gone); null when there were
   * none. A new socket takes the gone ones' entry (`take`); a pick sent over HTTP leaves it for the
   * socket that follows.
   */
  lastHeard(hub: Hub, sessionId: string, playerId: string, take: boolean): number | null {
    const key = `${sessionId} ${playerId}`;
    let last = this.heardAtMs.get(key) ?? null;
    if (take) this.heardAtMs.delete(key);
    for (const client of hub.playerClients(sessionId, playerId)) if (last === null || client.heardAtMs > last) last = client.heardAtMs;
    return last;
  }
}
