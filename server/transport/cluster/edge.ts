/**
 * The sockets' side of the multi-instance mode, on every instance (the owner's included): a
 * RoomPort per session that sends the socket's messages to the owner's inbox stream, and the
 * subscriptions (the session's channel for broadcasts, this instance's own channel for frames to
 * one player or one socket, relay.ts) that write the owner's frames to this instance's sockets,
 * as they are.
 *
 * A socket joins when its first session_state comes back from the owner: that frame and the
 * broadcasts travel on the same channel in order, so the socket misses no broadcast after it and
 * gets none from before. When a new owner announces itself (failover, Redis back), every socket
 * here is announced to it again and gets a fresh session_state.
 *
 * On the owner's own instance a socket talks to the room without Redis (DESIGN §16): its messages
 * go to the owner directly (`direct`, decided when it connects, kept while that owner runs the
 * game) and the owner's frames come back through `deliverLocal`, in the room's order.
 *
 * While a relayed session's owner is unheard (Redis down), its phones here still get its ticks,
 * made here from the clock its last frames carried (edge-ticks.ts).
 */
import type { Redis } from 'ioredis';
import type { EngineEvent } from '../../game/engine/index.js';
import type { RoomDirectory, RoomLog, RoomMember, RoomPort } from '../../game/rooms/index.js';
import type { Store } from '../../storage/store.js';
import type { Hub } from '../ws/hub.js';
import { EdgeTicks } from './edge-ticks.js';
import { type InboxEntry, type OutboxHeader, decodeOutbox, globalConnectionId } from './envelope.js';
import type { ClusterKeys } from './keys.js';
import { ClusterOwner } from './owner.js';

/** How long a socket waits for the owner's first session_state before it is asked to reconnect. */
const JOIN_TIMEOUT_MS = 15_000;

interface Joining {
  join: (initial: Buffer) => void;
  done: (err?: Error) => void;
}

interface SessionSockets {
  ports: number;
  /** Sockets here, joined or joining, by cluster-wide connection id. */
  members: Map<string, RoomMember>;
  joining: Map<string, Joining>;
  /** Sockets that joined the owner's room here directly: their messages go on that way. */
  direct: Set<string>;
  /** Highest owner epoch seen: frames of an older owner are dropped. */
  epoch: number;
  subscribed: Promise<unknown>;
}

export interface EdgeDeps {
  instanceId: string;
  keys: ClusterKeys;
  redis: Redis;
  subscriber: Redis;
  hub: Hub;
  store: Store;
  log: RoomLog;
  /** Asks this instance to take the session's lease if it is free. */
  claim(sessionId: string): void;
  /** Counts each frame received from an owner: `used` when a socket here was among its targets. */
  countFrame?(kind: RelayFrameKind, used: boolean): void;
  /** Now in Redis's clock (undefined until measured): client messages are stamped with it on arrival. */
  redisNow?(): number | undefined;
  /** Hands a message to this instance's own room of the session, if it runs it; false: it goes through Redis. */
  direct?(sessionId: string, entry: InboxEntry): boolean;
  /** Whether a socket that joined directly still reaches the same room that way. */
  isDirect?(sessionId: string, connectionId: string): boolean;
}

/** What a relayed frame was for (the metric's label). */
export type RelayFrameKind = 'broadcast' | 'player' | 'connection' | 'owner';

const FRAME_KINDS: Record<OutboxHeader['k'], RelayFrameKind> = {
  all: 'broadcast',
  audience: 'broadcast',
  players: 'broadcast',
  displays: 'broadcast',
  admins: 'broadcast',
  screens: 'broadcast',
  player: 'player',
  conn: 'connection',
  owner: 'owner',
};

export class EdgeRooms implements RoomDirectory {
  private readonly sessions = new Map<string, SessionSockets>();
  private readonly ownChannel: string;
  /** This instance's channel, subscribed once (and again after a lost connection: `resubscribe`). */
  private readonly ownSubscribed: Promise<unknown>;
  /** Shutting down: sockets closing now say nothing more (the instance's absence says it). */
  closing = false;
  /** The countdown of relayed sessions, kept while their owner is unheard (edge-ticks.ts). */
  private readonly ticks: EdgeTicks;

  constructor(private readonly deps: EdgeDeps) {
    deps.subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => this.onFrame(channel.toString(), message));
    this.ownChannel = deps.keys.instanceChannel(deps.instanceId);
    this.ownSubscribed = deps.subscriber.subscribe(this.ownChannel);
    this.ownSubscribed.catch((err) => deps.log.error({ err }, "cluster: subscribing to this instance's channel failed"));
    this.ticks = new EdgeTicks({
      send: (sessionId, frame) => {
        if (!this.closing) deps.hub.frameToSession(sessionId, 'all', frame);
      },
      ownerUnreachable: () => deps.subscriber.status !== 'ready',
      log: deps.log,
    });
    deps.subscriber.on('close', () => this.ticks.ownerLost());
  }

  /**
   * The subscriber connection came back: this instance's channel and the outbox of every session
   * with sockets here, subscribed again (node.ts: the connection does not do it by itself).
   */
  resubscribe(): void {
    const channels = [this.ownChannel, ...[...this.sessions.keys()].map((sessionId) => this.deps.keys.outbox(sessionId))];
    this.deps.subscriber.subscribe(...channels).catch((err) => this.deps.log.warn({ err }, 'cluster: subscribing again after a lost connection failed'));
  }

  /** Sessions with sockets here (they need an owner somewhere). */
  sessionIds(): IterableIterator<string> {
    return this.sessions.keys();
  }

  async acquire(sessionId: string): Promise<RoomPort | null> {
    // Looked up for the session's first socket here only: the socket's own checks found it just
    // before, and a reconnect storm (the phones of a dead instance) should not cost one query more
    // per phone in the database pool the takeover of their game needs too.
    if (!this.sessions.has(sessionId) && !(await this.deps.store.sessions.get(sessionId))) return null;
    let group = this.sessions.get(sessionId);
    if (!group) {
      group = {
        ports: 0,
        members: new Map(),
        joining: new Map(),
        direct: new Set(),
        epoch: 0,
        subscribed: this.deps.subscriber.subscribe(this.deps.keys.outbox(sessionId)),
      };
      this.sessions.set(sessionId, group);
    }
    group.ports++;
    // Replies to the socket come on this instance's channel, broadcasts on the session's.
    await Promise.all([group.subscribed, this.ownSubscribed]);
    this.deps.claim(sessionId);
    return this.port(sessionId, group);
  }

  private port(sessionId: string, group: SessionSockets): RoomPort {
    const { instanceId } = this.deps;
    const globalId = (local: string) => globalConnectionId(instanceId, local);
    return {
      sessionId,
      connect: (member, join) =>
        new Promise<void>((resolve, reject) => {
          const c = globalId(member.connectionId);
          const timer = setTimeout(() => done(new Error('no owner answered the join')), JOIN_TIMEOUT_MS);
          timer.unref();
          const done = (err?: Error) => {
            clearTimeout(timer);
            group.joining.delete(c);
            if (err) reject(err);
            else resolve();
          };
          group.joining.set(c, { join, done });
          group.members.set(c, { ...member, connectionId: c });
          this.join(sessionId, group, { k: 'connect', c, role: member.role, playerId: member.playerId, name: member.name });
        }),
      dispatch: (event: EngineEvent) => {
        const c = 'connectionId' in event && event.connectionId ? globalId(event.connectionId) : undefined;
        const relayed = c !== undefined ? ({ ...event, connectionId: c } as EngineEvent) : event;
        this.fromSocket(sessionId, group, c, { k: 'event', event: relayed });
      },
      disconnect: async (connectionId) => {
        const c = globalId(connectionId);
        group.members.delete(c);
        group.joining.get(c)?.done(new Error('closed while joining'));
        this.fromSocket(sessionId, group, c, { k: 'disconnect', c });
        group.direct.delete(c);
      },
      release: () => {
        group.ports--;
        if (group.ports > 0 || this.sessions.get(sessionId) !== group) return;
        this.sessions.delete(sessionId);
        this.ticks.forget(sessionId);
        this.deps.subscriber.unsubscribe(this.deps.keys.outbox(sessionId)).catch(() => undefined);
      },
    };
  }

  /** A socket (re)joins: directly when this instance runs the game, through the inbox otherwise. */
  private join(sessionId: string, group: SessionSockets, entry: Extract<InboxEntry, { k: 'connect' }>): void {
    if (this.closing) return;
    if (this.deps.direct?.(sessionId, entry)) group.direct.add(entry.c);
    else {
      group.direct.delete(entry.c);
      this.send(sessionId, entry);
    }
  }

  /** A socket's message goes the way it joined; if its room went away here, through the inbox (the new owner asks it to join again). */
  private fromSocket(sessionId: string, group: SessionSockets, c: string | undefined, entry: InboxEntry): void {
    if (this.closing) return;
    // A message naming no socket (a player's measured delay) follows the sockets here.
    const direct = c === undefined ? group.direct.size > 0 : group.direct.has(c);
    if (direct && this.deps.direct?.(sessionId, entry)) return;
    if (c !== undefined) group.direct.delete(c);
    this.send(sessionId, entry);
  }

  private send(sessionId: string, entry: InboxEntry): void {
    if (this.closing) return;
    this.deps.redis
      .xadd(...ClusterOwner.inboxArgs(this.deps.keys, sessionId, { ...entry, t: this.deps.redisNow?.() }))
      .catch((err) => this.deps.log.warn({ err, sessionId }, 'cluster: relaying a client message failed'));
  }

  private onFrame(channel: string, raw: Buffer): void {
    const prefix = this.deps.keys.outbox('');
    const own = channel === this.ownChannel;
    if (!own && !channel.startsWith(prefix)) return;
    const decoded = decodeOutbox(raw);
    if (!decoded) return;
    const { header, frame } = decoded;
    // Written to the sockets here directly by this instance's own room (deliverLocal) already.
    if ('o' in header && header.o === this.deps.instanceId) return;
    // Frames on this instance's own channel name their session in the header.
    const sessionId = own ? ('s' in header ? header.s : undefined) : channel.slice(prefix.length);
    const used = sessionId !== undefined && this.deliver(sessionId, header, frame, false);
    this.deps.countFrame?.(FRAME_KINDS[header.k] ?? 'broadcast', used);
  }

  /** A frame of this instance's own room (relay.ts): no Redis in between. */
  deliverLocal(sessionId: string, header: OutboxHeader, frame: Buffer): void {
    this.deliver(sessionId, header, frame, true);
  }

  /** Writes an owner's frame to the sockets here it is for; false when there were none. */
  private deliver(sessionId: string, header: OutboxHeader, frame: Buffer, local: boolean): boolean {
    const group = this.sessions.get(sessionId);
    if (!group) return false;
    if (header.e < group.epoch) return false; // a deposed owner
    group.epoch = header.e;
    const { hub } = this.deps;
    switch (header.k) {
      case 'owner':
        this.rejoinAll(sessionId);
        return true;
      case 'conn': {
        const joining = group.joining.get(header.c);
        if (joining) {
          joining.join(frame);
          joining.done();
          return true;
        }
        const mine = `${this.deps.instanceId}/`;
        return header.c.startsWith(mine) && hub.frameToConnection(header.c.slice(mine.length), frame);
      }
      case 'player':
        return hub.frameToPlayer(sessionId, header.p, frame);
      default:
        // A tick older than one the phones here already have (sent here while the owner was unheard) is dropped.
        return this.ticks.heard(sessionId, header, local) && hub.frameToSession(sessionId, header.k, frame);
    }
  }

  /** Every socket of a session (or of all sessions) announced to its owner again. */
  rejoinAll(sessionId?: string): void {
    const ids = sessionId ? [sessionId] : [...this.sessions.keys()];
    for (const id of ids) {
      const group = this.sessions.get(id);
      if (!group) continue;
      for (const m of group.members.values()) {
        // Joined this instance's own room directly, which still runs: nothing was missed.
        if (group.direct.has(m.connectionId) && this.deps.isDirect?.(id, m.connectionId)) continue;
        this.join(id, group, { k: 'connect', c: m.connectionId, role: m.role, playerId: m.playerId, name: m.name });
      }
      this.deps.claim(id);
    }
  }
}
