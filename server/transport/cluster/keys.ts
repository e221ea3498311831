/**
 * Every Redis key and channel of the multi-instance mode, under one prefix (tests use a unique
 * prefix each, so they share the machine's Redis without touching each other's keys).
 */
export class ClusterKeys {
  constructor(readonly prefix = 'marquee') {}

  /** The lease of a session's owner: value `instanceId:token`. */
  lease(sessionId: string): string {
    return `${this.prefix}:lease:${sessionId}`;
  }

  /** Client messages (connects, answers, admin commands, disconnects) for the session's owner. */
  inbox(sessionId: string): string {
    return `${this.prefix}:in:${sessionId}`;
  }

  /** The owner's frames for every instance with sockets of the session. */
  outbox(sessionId: string): string {
    return `${this.prefix}:out:${sessionId}`;
  }

  /** Frames for one instance's sockets only: per-player and per-connection messages. */
  instanceChannel(instanceId: string): string {
    return `${this.prefix}:to:${instanceId}`;
  }

  /** Lifecycle events (started, stopped, changed, updated, deleted, winners): a stream every instance reads. */
  get lifecycle(): string {
    return `${this.prefix}:lifecycle`;
  }

  /** Present while the instance lives (refreshed with its leases). */
  instance(instanceId: string): string {
    return `${this.prefix}:instance:${instanceId}`;
  }

  /** Each instance's summaries of the games it owns, a field per instance (live-publisher.ts). */
  get liveGames(): string {
    return `${this.prefix}:live`;
  }

  /** Failed logins of one username from one address (hashed pair, server/domain/auth/login-limiter.ts). */
  loginFailures(pair: string): string {
    return `${this.prefix}:login:${pair}`;
  }

  /** One address's registration bucket { tokens, at } (server/transport/cluster/registration-limiter.ts). */
  registrations(address: string): string {
    return `${this.prefix}:reg:${address}`;
  }
}
