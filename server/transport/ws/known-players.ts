/**
 * The phones this instance has already let into a session, with the hash of the token each one
 * proved itself with (DESIGN §16). While the database is down, a phone coming back to a live game
 * is checked against this instead (same session, same player, same token hash), so it gets its
 * state from the running room rather than a 1011. While the database works it is the database
 * that decides: a token revoked there is never let in from here.
 *
 * Bounded: the oldest entries go first once it holds MAX_KNOWN_PLAYERS (a few full houses).
 */
export const MAX_KNOWN_PLAYERS = 50_000;

export interface KnownPlayer {
  id: string;
  name: string;
}

export class KnownPlayers {
  private readonly players = new Map<string, { tokenHash: string; player: KnownPlayer }>();
  private readonly sessions = new Set<string>();

  constructor(private readonly max = MAX_KNOWN_PLAYERS) {}

  /** A phone the database just let in. */
  remember(sessionId: string, tokenHash: string, player: KnownPlayer): void {
    const key = keyOf(sessionId, player.id);
    this.players.delete(key); // re-inserted last: most recently seen
    this.players.set(key, { tokenHash, player: { id: player.id, name: player.name } });
    this.sessions.add(sessionId);
    if (this.players.size > this.max) this.players.delete(this.players.keys().next().value!);
  }

  /** The player, if this exact token was already accepted for this session; undefined otherwise. */
  check(sessionId: string, playerId: string, tokenHash: string): KnownPlayer | undefined {
    const known = this.players.get(keyOf(sessionId, playerId));
    return known && known.tokenHash === tokenHash ? known.player : undefined;
  }

  /** A kicked player (DESIGN §15): never let back in from memory. */
  forget(sessionId: string, playerId: string): void {
    this.players.delete(keyOf(sessionId, playerId));
  }

  /** A session this instance has seen exist (some phone was let into it). */
  hasSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }
}

const keyOf = (sessionId: string, playerId: string) => `${sessionId}\0${playerId}`;
