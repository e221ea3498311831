/**
 * The host's live moderation (DESIGN §15): kick, hide, rename. Each change is stored first, then
 * announced as a `moderated` lifecycle event: the room of the session (on whichever instance owns
 * it) takes it into the standings and sends every screen the new leaderboard, and every instance
 * closes a kicked player's sockets with 4403.
 */
import { DomainError } from '../../errors.js';
import type { SessionLifecycle } from '../sessions/lifecycle.js';
import { type Player, screenName } from '../../storage/players.js';
import type { Store } from '../../storage/store.js';
import { checkName, NAME_REFUSED_MESSAGE } from './names.js';

export class PlayerModeration {
  constructor(
    private readonly store: Store,
    private readonly lifecycle: SessionLifecycle,
  ) {}

  async kick(sessionId: string, playerId: string): Promise<void> {
    if (!(await this.store.players.kick(sessionId, playerId))) throw DomainError.notFound('Player not found in this session');
    this.lifecycle.emit('moderated', sessionId, { playerId, screenName: null });
  }

  async hide(sessionId: string, playerId: string, hidden: boolean): Promise<void> {
    if (!(await this.store.players.setHidden(sessionId, playerId, hidden))) throw DomainError.notFound('Player not found in this session');
    this.announce((await this.store.players.get(playerId))!);
  }

  async rename(playerId: string, rawName: string): Promise<Player> {
    const check = checkName(rawName);
    if (!check.ok) throw DomainError.invalid(NAME_REFUSED_MESSAGE, { reason: check.reason });
    const player = await this.store.players.rename(playerId, check.name);
    if (!player) throw DomainError.notFound('Player not found');
    this.announce(player);
    return player;
  }

  /** Deleting is a kick first (off every screen, sockets closed), then the row and all it owns. */
  async delete(playerId: string): Promise<void> {
    const player = await this.store.players.get(playerId);
    if (!player) throw DomainError.notFound('Player not found');
    // A player from before players were per session may rank in several games.
    const sessions = player.sessionId ? [player.sessionId] : await this.sessionsScoredIn(playerId);
    if (player.sessionId) await this.store.players.kick(player.sessionId, playerId);
    if (!(await this.store.players.delete(playerId))) throw DomainError.notFound('Player not found');
    for (const sessionId of sessions) this.lifecycle.emit('moderated', sessionId, { playerId, screenName: null });
  }

  private announce(player: Player): void {
    if (player.sessionId && !player.kicked) this.lifecycle.emit('moderated', player.sessionId, { playerId: player.id, screenName: screenName(player) });
  }

  private async sessionsScoredIn(playerId: string): Promise<string[]> {
    const rows = await this.store.db.selectFrom('scores').select('session_id').where('player_id', '=', playerId).execute();
    return rows.map((r) => r.session_id);
  }
}
