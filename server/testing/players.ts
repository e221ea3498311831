import type { Store } from '../storage/store.js';
import type { Player } from '../storage/players.js';
import { newId, nowIso } from '../storage/util.js';

/**
 * A player row for storage tests that need one and do not go through registration: without a
 * session by default (as a player registered before players were per session), or in `sessionId`
 * with a token for it.
 */
export async function addPlayer(store: Store, name: string, email: string, tokenHash: string, sessionId: string | null = null): Promise<Player> {
  const id = newId();
  const createdAt = nowIso();
  await store.db
    .insertInto('players')
    .values({ id, name, email, email_key: sessionId ? `${sessionId} ${email.toLowerCase()}` : email.toLowerCase(), created_at: createdAt, session_id: sessionId })
    .execute();
  await store.db.insertInto('player_tokens').values({ token_hash: tokenHash, player_id: id, created_at: createdAt, session_id: sessionId }).execute();
  return (await store.players.get(id))!;
}
