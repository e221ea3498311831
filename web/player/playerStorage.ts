/**
 * The registered player on this phone (SPEC §3 browser storage): `player_id` and `player_data`
 * (the register answer as JSON, including the secret `playerToken` the socket needs).
 */
export const PLAYER_ID_KEY = 'player_id';
export const PLAYER_DATA_KEY = 'player_data';

export interface StoredPlayer {
  id: string;
  name: string;
  email: string;
  createdAt?: string;
  sessionId: string;
  playerToken: string;
}

export function savePlayer(player: StoredPlayer): void {
  localStorage.setItem(PLAYER_ID_KEY, player.id);
  localStorage.setItem(PLAYER_DATA_KEY, JSON.stringify(player));
}

/**
 * The stored player if they joined this session; null otherwise. A player who joined another
 * session goes through this session's join form (and its signed link) first.
 */
export function loadPlayer(sessionId: string): StoredPlayer | null {
  const id = localStorage.getItem(PLAYER_ID_KEY);
  const raw = localStorage.getItem(PLAYER_DATA_KEY);
  if (!id || !raw) return null;
  try {
    const data = JSON.parse(raw) as Partial<StoredPlayer>;
    if (data.id !== id || data.sessionId !== sessionId || typeof data.playerToken !== 'string' || !data.playerToken) return null;
    return data as StoredPlayer;
  } catch {
    return null;
  }
}

export function forgetPlayer(): void {
  localStorage.removeItem(PLAYER_ID_KEY);
  localStorage.removeItem(PLAYER_DATA_KEY);
}
