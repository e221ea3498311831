/**
 * The two message formats between instances.
 *
 * Outbox (owner → instances, pub/sub): `<header JSON>\n<frame>`. The frame is the message as the
 * owner serialized it, once; each instance writes exactly those bytes to its sockets. The header
 * says who gets it and carries the owner's epoch, so frames of a deposed owner are dropped.
 * Broadcasts go on the session's channel (every instance with sockets of it); per-player and
 * per-connection frames go on the channel of each instance holding such a socket, and then name
 * their session (`s`).
 *
 * Inbox (any instance → owner, a Redis Stream): one JSON field per entry.
 */
import { z } from 'zod';
import { CLIENT_ROLES, type ServerMessage } from '../../../protocol/index.js';
import type { BroadcastTarget, EngineEvent } from '../../game/engine/index.js';

// `o`: the owner's instance, on frames published where it listens too: it wrote them to its own
// sockets directly already (relay.ts), so it drops them when Redis brings them back.
export type OutboxHeader =
  | { e: number; k: BroadcastTarget; o?: string; q?: QuestionClock | 0 }
  | { e: number; k: 'player'; p: string; s?: string; o?: string }
  | { e: number; k: 'conn'; c: string; s?: string }
  /** A new owner (or one back after Redis came back): every instance re-announces its sockets. */
  | { e: number; k: 'owner'; o?: string };

/**
 * `q` on a broadcast: the open question's clock as the frame tells it, `[questionId, serverTime,
 * endsAt, 1 for a timer_tick | 0 for a session_state]` (owner's clock), or 0 when it closes the
 * question (question_end, another phase). Other instances keep the countdown by it while the
 * owner is unheard (edge-ticks.ts) without parsing frames.
 */
export type QuestionClock = [questionId: string, serverTime: number, endsAt: number, tick: 0 | 1];

const NEWLINE = 0x0a;

/** `frame` is the message, or its JSON when it goes out several times (serialized once). */
export function encodeOutbox(header: OutboxHeader, frame?: ServerMessage | string): string {
  const body = frame === undefined ? '' : typeof frame === 'string' ? frame : JSON.stringify(frame);
  return `${JSON.stringify(header)}\n${body}`;
}

export function decodeOutbox(raw: Buffer): { header: OutboxHeader; frame: Buffer } | null {
  const at = raw.indexOf(NEWLINE);
  if (at < 0) return null;
  try {
    return { header: JSON.parse(raw.subarray(0, at).toString('utf8')) as OutboxHeader, frame: raw.subarray(at + 1) };
  } catch {
    return null;
  }
}

/** Connection ids are `<instanceId>/<local id>` across the cluster. */
export const globalConnectionId = (instanceId: string, localId: string) => `${instanceId}/${localId}`;
export const instanceOf = (connectionId: string) => connectionId.slice(0, Math.max(0, connectionId.indexOf('/')));

const connectEntry = z.object({
  k: z.literal('connect'),
  c: z.string().min(1),
  role: z.enum(CLIENT_ROLES),
  playerId: z.string().optional(),
  name: z.string().optional(),
  t: z.number().finite().optional(),
});
const disconnectEntry = z.object({ k: z.literal('disconnect'), c: z.string().min(1), t: z.number().finite().optional() });
// Events were validated at the socket that received them; the owner trusts its peers' shape.
// `t` (every entry): when the message reached its instance, in Redis's clock (DESIGN §16: stamped
// where it arrived, so one held up by a Redis outage is still timed by its arrival).
const eventEntry = z.object({
  k: z.literal('event'),
  event: z.custom<EngineEvent>((v) => typeof v === 'object' && v !== null && 'type' in v),
  t: z.number().finite().optional(),
});
const inboxEntry = z.discriminatedUnion('k', [connectEntry, disconnectEntry, eventEntry]);

export type InboxEntry = z.infer<typeof inboxEntry>;

export function parseInboxEntry(raw: string): InboxEntry | null {
  try {
    const parsed = inboxEntry.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Redis time of a stream entry: its id is `<ms>-<seq>`. */
export const entryTimeMs = (id: string) => Number(id.slice(0, id.indexOf('-')));
