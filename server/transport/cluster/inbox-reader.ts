/**
 * One blocking reader per instance for the inboxes of every session it owns (issue 26): a
 * single `XREADGROUP … BLOCK … STREAMS in:s1 in:s2 … > > …` on a connection of its own, instead
 * of a connection and a blocked read per owned session. Idle, that is one read per block time
 * whatever the number of sessions (it was one per session: 490 commands a second at 1,000).
 *
 * A session joining the set first has its consumer group made and the entries a previous owner
 * read but never acknowledged claimed (in order, before anything newer), then its stream joins
 * the read. Adding or dropping a session wakes the blocked read (`CLIENT UNBLOCK`), so a new
 * owner starts reading at once and a deposed one stops reading the stream at once.
 */
import type { Redis } from 'ioredis';

export type StreamEntries = [string, string[]][];

export interface InboxReaderDeps {
  /** Opens the connection of its own the read blocks (once, with the first session). */
  connect: () => Redis;
  /** Non-blocking commands (the wake-up). */
  redis: Redis;
  group: string;
  consumer: string;
  count: number;
  blockMs: number;
  onEntries: (sessionId: string, entries: StreamEntries) => void;
  onError: (err: unknown, sessionId?: string) => void;
}

/** How often a wake-up that found no read blocked yet is tried again (the read may be on its way). */
const WAKE_RETRY_MS = 20;
const WAKE_TRIES = 5;
const RETRY_MS = 200;

export class InboxReader {
  /** Stream key → session, for the sessions being read. */
  private readonly streams = new Map<string, string>();
  /** Sessions whose group and pending entries must be set up before their stream is read. */
  private readonly setUp = new Map<string, string>();
  private running = false;
  private closed = false;
  private reading = false;
  private readSeq = 0;
  private clientId: number | null = null;
  private wakeLoop: (() => void) | null = null;
  private connection: Redis | null = null;

  constructor(private readonly deps: InboxReaderDeps) {}

  private get reader(): Redis {
    if (!this.connection) {
      this.connection = this.deps.connect();
      this.connection.on('error', () => undefined); // reconnects by itself; the loop retries
    }
    return this.connection;
  }

  add(sessionId: string, stream: string): void {
    if (this.closed) return;
    this.setUp.set(stream, sessionId);
    this.wake();
    if (!this.running) void this.loop();
  }

  remove(stream: string): void {
    this.setUp.delete(stream);
    if (this.streams.delete(stream)) this.wake();
  }

  /** The stream must be set up again (Redis lost its group). */
  private reset(stream: string): void {
    const sessionId = this.streams.get(stream);
    if (sessionId === undefined) return;
    this.streams.delete(stream);
    this.setUp.set(stream, sessionId);
  }

  close(): void {
    this.closed = true;
    this.streams.clear();
    this.setUp.clear();
    this.wakeLoop?.();
    this.connection?.disconnect();
  }

  private async loop(): Promise<void> {
    this.running = true;
    const { group, consumer, count, blockMs } = this.deps;
    const reader = this.reader;
    while (!this.closed) {
      try {
        for (const [stream, sessionId] of [...this.setUp]) await this.prepare(stream, sessionId);
        if (this.streams.size === 0) {
          if (this.setUp.size === 0) await new Promise<void>((resolve) => (this.wakeLoop = resolve));
          this.wakeLoop = null;
          continue;
        }
        // Asked each time: ioredis reconnects (a new id) by itself.
        this.clientId = Number(await reader.client('ID'));
        const keys = [...this.streams.keys()];
        this.reading = true;
        this.readSeq++;
        const result = (await reader.xreadgroup('GROUP', group, consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', ...keys, ...keys.map(() => '>'))) as
          | [string, StreamEntries][]
          | null;
        this.reading = false;
        if (!result) continue;
        for (const [stream, entries] of result) {
          const sessionId = this.streams.get(stream);
          if (sessionId !== undefined) this.deps.onEntries(sessionId, entries);
        }
      } catch (err) {
        this.reading = false;
        if (this.closed) break;
        // Redis restarted empty: that stream's group is gone; make it again and read what arrived since.
        const missing = err instanceof Error && /NOGROUP/.test(err.message) ? /'([^']+)'/.exec(err.message)?.[1] : undefined;
        if (missing !== undefined && this.streams.has(missing)) this.reset(missing);
        else if (err instanceof Error && /NOGROUP/.test(err.message)) for (const stream of [...this.streams.keys()]) this.reset(stream);
        else this.deps.onError(err);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    this.running = false;
  }

  /** The group (made if missing), then the entries a previous owner left pending, in order. */
  private async prepare(stream: string, sessionId: string): Promise<void> {
    const { group, consumer, count } = this.deps;
    const reader = this.reader;
    await reader.xgroup('CREATE', stream, group, '0', 'MKSTREAM').catch((err: Error) => {
      if (!/BUSYGROUP/.test(err.message)) throw err;
    });
    let cursor = '0-0';
    do {
      if (this.setUp.get(stream) !== sessionId) return; // removed meanwhile
      const [next, entries] = (await reader.xautoclaim(stream, group, consumer, 0, cursor, 'COUNT', count)) as [string, StreamEntries];
      if (entries.length > 0) this.deps.onEntries(sessionId, entries);
      cursor = next;
    } while (cursor !== '0-0');
    if (this.setUp.get(stream) !== sessionId) return;
    this.setUp.delete(stream);
    this.streams.set(stream, sessionId);
  }

  /** The set changed: a blocked read is ended now (it returns as if it timed out). */
  private wake(): void {
    this.wakeLoop?.();
    if (!this.reading || this.clientId === null) return;
    const seq = this.readSeq;
    const attempt = (tries: number) => {
      if (!this.reading || this.readSeq !== seq || this.clientId === null) return;
      this.deps.redis
        .client('UNBLOCK', this.clientId, 'TIMEOUT')
        .then((unblocked) => {
          // Not blocked yet (the read is on its way to Redis): try again shortly.
          if (Number(unblocked) === 0 && tries > 1) setTimeout(() => attempt(tries - 1), WAKE_RETRY_MS).unref();
        })
        .catch((err) => this.deps.onError(err));
    };
    attempt(WAKE_TRIES);
  }
}
