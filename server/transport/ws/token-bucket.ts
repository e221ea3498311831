/**
 * A token bucket's tokens refilled from `refilledAtMs` to `nowMs`, at `perSecond`, up to `burst`:
 * a socket's messages, a player's HTTP picks (socket-server.ts), a datagram path's messages
 * (datagram.ts).
 */
export function refilledTokens(tokens: number, refilledAtMs: number, nowMs: number, perSecond: number, burst: number): number {
  return Math.min(burst, tokens + ((nowMs - refilledAtMs) / 1000) * perSecond);
}
