/**
 * The session lifecycle across instances. An admin's request lands on any instance; what it
 * changes (started, stopped, program changed, session updated, deleted, prize winners) is
 * re-emitted on every instance, so the owner reacts wherever it runs and every instance updates
 * its own sockets (deletes close them with 4410 everywhere).
 *
 * The events travel on a Redis Stream, not pub/sub, so that they survive Redis trouble:
 * - the instance where the change happened emits it at once to itself (its own screens and, if it
 *   owns the session, its room) and appends it to the stream; while Redis is unreachable the
 *   append waits, in order, in the connection's queue and lands when Redis is back;
 * - every instance reads the stream from the last entry it saw, skipping its own, so events
 *   appended while it could not read (an outage, or its subscription lagging behind a restart)
 *   are delivered late but in order, instead of being lost as a publish to nobody would be.
 * An event may arrive twice (a command resent after a reconnect); every reaction is idempotent:
 * handlers re-read the session, stop a stopped room, close closed sockets.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { LifecycleEvents } from '../../domain/sessions/lifecycle.js';
import type { RoomLog } from '../../game/rooms/index.js';
import type { ClusterKeys } from './keys.js';

const RELAYED = ['started', 'stopped', 'changed', 'updated', 'deleted', 'winners', 'adminTokenRevoked', 'registrations', 'moderated'] as const;
type Relayed = (typeof RELAYED)[number];

/** Entries kept (approximate trim): admin edits are rare; this spans days of them. */
const STREAM_MAX_LEN = 10_000;
const READ_COUNT = 100;
const READ_BLOCK_MS = 2_000;
const RETRY_MS = 200;

interface Wire {
  event: Relayed;
  args: unknown[];
  /** The process that appended it (it already emitted it to itself). */
  o: string;
}

/** Stream ids compare as `<ms>-<seq>` pairs. */
function idBefore(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am < bm || (am === bm && as < bs);
}

export interface ClusterEventsDeps {
  keys: ClusterKeys;
  /** Appends (never blocks). */
  redis: Redis;
  /** A connection of its own: the read blocks it. */
  reader: Redis;
  /** This process's own name, unique across restarts (entries it appended are skipped when read). */
  origin: string;
  log: RoomLog;
}

export class ClusterEvents extends EventEmitter<LifecycleEvents> {
  private readonly unhook: (() => void)[] = [];
  private closed = false;
  private reading: Promise<void> | null = null;
  private markReady!: () => void;
  /** Resolves once the reader knows where the stream ends (events appended from then on reach it). */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    private readonly deps: ClusterEventsDeps,
    source: EventEmitter<LifecycleEvents>,
  ) {
    super();
    for (const event of RELAYED) {
      const forward = (...args: unknown[]) => {
        (this.emit as (event: string, ...args: unknown[]) => boolean)(event, ...args);
        this.append({ event, args, o: deps.origin });
      };
      source.on(event, forward as never);
      this.unhook.push(() => source.off(event, forward as never));
    }
  }

  /** Reads from the stream's current end (now, or once Redis answers). */
  start(): void {
    this.reading ??= this.read();
  }

  private append(wire: Wire): void {
    this.deps.redis
      .xadd(this.deps.keys.lifecycle, 'MAXLEN', '~', STREAM_MAX_LEN, '*', 'm', JSON.stringify(wire))
      .catch((err) => this.deps.log.error({ err, event: wire.event }, 'cluster: appending a lifecycle event failed'));
  }

  private async read(): Promise<void> {
    const { reader, keys } = this.deps;
    let lastId: string | null = null;
    while (!this.closed) {
      try {
        // From the end as it is now: what happened before this instance started is in the database.
        if (lastId === null) {
          lastId = await this.newestId();
          this.markReady();
        }
        const result = (await reader.xread('COUNT', READ_COUNT, 'BLOCK', READ_BLOCK_MS, 'STREAMS', keys.lifecycle, lastId)) as
          | [string, [string, string[]][]][]
          | null;
        if (this.closed) break;
        if (!result) {
          // Quiet: check the stream was not re-created behind us (Redis restarted empty with its
          // clock behind, so new ids are lower than ours): then everything in it is new.
          const newest = await this.newestId();
          if (newest === '0-0' || idBefore(newest, lastId)) lastId = '0-0';
          continue;
        }
        for (const [, entries] of result) {
          for (const [id, fields] of entries) {
            lastId = id;
            this.deliver(fields[fields.indexOf('m') + 1]);
          }
        }
      } catch (err) {
        if (this.closed) break;
        this.deps.log.warn({ err }, 'cluster: reading lifecycle events failed, retrying');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  private async newestId(): Promise<string> {
    const [newest] = (await this.deps.reader.xrevrange(this.deps.keys.lifecycle, '+', '-', 'COUNT', 1)) as [string, string[]][];
    return newest?.[0] ?? '0-0';
  }

  private deliver(raw: string | undefined): void {
    let wire: Wire;
    try {
      wire = JSON.parse(raw ?? '') as Wire;
    } catch {
      return;
    }
    if (wire.o === this.deps.origin) return;
    if (!(RELAYED as readonly string[]).includes(wire.event) || !Array.isArray(wire.args) || typeof wire.args[0] !== 'string') return;
    (this.emit as (event: string, ...args: unknown[]) => boolean)(wire.event, ...wire.args);
  }

  close(): void {
    this.closed = true;
    for (const off of this.unhook) off();
    this.deps.reader.disconnect();
  }
}
