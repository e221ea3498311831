/**
 * The session lifecycle across instances. An admin's request lands on any instance; what it
 * changes (started, stopped, program changed, session updated, deleted, prize winners) is
 * published once on a Redis channel and re-emitted on every instance, the sender's included, so
 * the owner reacts wherever it runs and every instance updates its own sockets (deletes close
 * them with 4410 everywhere).
 *
 * Pub/sub may drop an event while Redis restarts: the owner's scan catches up started/stopped
 * from the database (owner.ts); a lost update or delete is seen by sockets on their next reconnect.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { LifecycleEvents } from '../sessions/lifecycle.js';
import type { RoomLog } from '../rooms/index.js';
import type { ClusterKeys } from './keys.js';

const RELAYED = ['started', 'stopped', 'changed', 'updated', 'deleted', 'winners'] as const;
type Relayed = (typeof RELAYED)[number];

interface Wire {
  event: Relayed;
  args: unknown[];
}

export class ClusterEvents extends EventEmitter<LifecycleEvents> {
  private readonly unhook: (() => void)[] = [];

  constructor(
    private readonly deps: { keys: ClusterKeys; redis: Redis; subscriber: Redis; log: RoomLog },
    source: EventEmitter<LifecycleEvents>,
  ) {
    super();
    for (const event of RELAYED) {
      const forward = (...args: unknown[]) => this.publish({ event, args });
      source.on(event, forward as never);
      this.unhook.push(() => source.off(event, forward as never));
    }
    // Buffers: a 'message' listener would make ioredis decode every game frame to a string too.
    deps.subscriber.on('messageBuffer', this.onMessage);
  }

  /** Subscribes (now, or once Redis answers: the command waits in the connection's queue). */
  start(): void {
    this.deps.subscriber.subscribe(this.deps.keys.events).catch((err) => this.deps.log.error({ err }, 'cluster: subscribing to lifecycle events failed'));
  }

  private publish(wire: Wire): void {
    this.deps.redis
      .publish(this.deps.keys.events, JSON.stringify(wire))
      .catch((err) => this.deps.log.error({ err, event: wire.event }, 'cluster: publishing a lifecycle event failed'));
  }

  private readonly onMessage = (channel: Buffer, message: Buffer): void => {
    if (channel.toString() !== this.deps.keys.events) return;
    let wire: Wire;
    try {
      wire = JSON.parse(message.toString('utf8')) as Wire;
    } catch {
      return;
    }
    if (!(RELAYED as readonly string[]).includes(wire.event) || !Array.isArray(wire.args) || typeof wire.args[0] !== 'string') return;
    (this.emit as (event: string, ...args: unknown[]) => boolean)(wire.event, ...wire.args);
  };

  close(): void {
    for (const off of this.unhook) off();
    this.deps.subscriber.off('messageBuffer', this.onMessage);
  }
}
