/**
 * Round-trip probes of players' sockets (link-delay.ts): every phone is pinged about once per
 * interval while its session has a question open, with no more than one probe unanswered at a
 * time. The checks run several times per interval so the pings of a full house are spread out
 * instead of leaving in one burst. A WebSocket ping is a few bytes; the browser answers it
 * without running any page code.
 *
 * Between questions (lobby, reveal, leaderboard) nothing is credited, so phones are probed only
 * every IDLE_FACTOR intervals (the heartbeat's pace: the pong keeps it from pinging as well). A
 * probe per phone every 2 s was a write and a read per socket: at 10,000 phones idle it was most
 * of the server's idle CPU and held up questions on their way out (issue 26). The ping behind
 * each question (hub.ts) is a sample of its own and counts as the probe.
 */
import WebSocket from 'ws';
import type { Hub } from './hub.js';

/** Each phone's round trip is sampled this often by default. */
export const LINK_PROBE_INTERVAL_MS = 2_000;
const CHECKS_PER_INTERVAL = 4;
/** Between questions a phone is probed this many times less often (20 s by default, the heartbeat's interval). */
export const IDLE_FACTOR = 10;

export function startLinkProbes(hub: Hub, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    const nowMs = Date.now();
    for (const client of hub.all()) {
      const { link, socket } = client;
      if (client.role !== 'player' || link.probeSentAtMs !== null) continue;
      // Unknown (a relaying instance in multi-instance mode): the full pace, as a question might be open.
      const dueMs = hub.questionOpen(client.sessionId) === false ? intervalMs * IDLE_FACTOR : intervalMs;
      if (nowMs - link.lastProbeAtMs < dueMs) continue;
      if (socket.readyState === WebSocket.OPEN) socket.ping(link.probe(nowMs));
    }
  }, intervalMs / CHECKS_PER_INTERVAL);
  timer.unref();
  return () => clearInterval(timer);
}
