/**
 * Admin sockets end with their token (DESIGN §15): on logout (here, or on another instance through
 * the lifecycle stream) and when the token expires, they close with 4401, so a Live Controls page
 * left open on a shared machine stops controlling the show.
 */
import type WebSocket from 'ws';
import { CLOSE_CODES } from '../../../protocol/index.js';

/** setTimeout's limit; a token living longer is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class AdminSockets {
  private readonly byToken = new Map<string, Set<WebSocket>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Tracks an open admin socket until it closes; closes it at `expiresAtMs`. */
  add(ws: WebSocket, tokenHash: string, expiresAtMs: number): void {
    let sockets = this.byToken.get(tokenHash);
    if (!sockets) this.byToken.set(tokenHash, (sockets = new Set()));
    sockets.add(ws);
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const leftMs = expiresAtMs - this.now();
      if (leftMs <= 0) ws.close(CLOSE_CODES.unauthorized, 'Your login has expired');
      else timer = setTimeout(arm, Math.min(leftMs, MAX_TIMER_MS));
    };
    arm();
    ws.once('close', () => {
      clearTimeout(timer);
      sockets.delete(ws);
      if (sockets.size === 0 && this.byToken.get(tokenHash) === sockets) this.byToken.delete(tokenHash);
    });
  }

  /** The token was revoked: every socket opened with it closes. */
  revoke(tokenHash: string): void {
    for (const ws of this.byToken.get(tokenHash) ?? []) ws.close(CLOSE_CODES.unauthorized, 'Logged out');
  }
}
