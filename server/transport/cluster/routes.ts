/**
 * Where a session's players have their sockets, as its owner knows it: which instances hold a
 * connection of each player. Learned from the inbox, whose connect and disconnect entries name
 * the connection by its cluster-wide id (`<instance>/<local id>`), so the owner can publish a
 * player's own messages only to the instances that hold one of that player's sockets.
 *
 * A player may have sockets on several instances (two tabs, or a reconnect to another instance
 * before the old socket's drop is known): every instance holding one is named. A player with no
 * known socket (a new owner before the instances re-announced their sockets) has no route, and
 * the caller falls back to the session's channel, so nothing is lost.
 */
import { instanceOf } from './envelope.js';

export class PlayerRoutes {
  /** connection id → player id (player sockets only). */
  private readonly players = new Map<string, string>();
  /** player id → instance id → that player's sockets on it. */
  private readonly instances = new Map<string, Map<string, number>>();

  /** A player's socket joined; announcing the same connection again changes nothing. */
  add(connectionId: string, playerId: string): void {
    if (this.players.get(connectionId) === playerId) return;
    this.remove(connectionId);
    this.players.set(connectionId, playerId);
    const instance = instanceOf(connectionId);
    const counts = this.instances.get(playerId) ?? new Map<string, number>();
    counts.set(instance, (counts.get(instance) ?? 0) + 1);
    this.instances.set(playerId, counts);
  }

  remove(connectionId: string): void {
    const playerId = this.players.get(connectionId);
    if (playerId === undefined) return;
    this.players.delete(connectionId);
    const counts = this.instances.get(playerId);
    if (!counts) return;
    const instance = instanceOf(connectionId);
    const left = (counts.get(instance) ?? 1) - 1;
    if (left > 0) counts.set(instance, left);
    else counts.delete(instance);
    if (counts.size === 0) this.instances.delete(playerId);
  }

  /** The instances holding the player's sockets; undefined when none is known. */
  instancesOf(playerId: string): Iterable<string> | undefined {
    return this.instances.get(playerId)?.keys();
  }
}
