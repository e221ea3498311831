/**
 * Round-trip probes of players' sockets (link-delay.ts): every phone is pinged about once per
 * interval while its session has a question open, with no more than one probe unanswered at a
 * time. The checks run several times per interval so the pings of a full house are spread out
 * instead of leaving in one burst. A WebSocket ping is a few bytes; the browser answers it
 * without running any page code.
 *
 * Between questions (lobby, reveal, leaderboard) nothing is credited, so phones are not probed
 * then: the heartbeat alone looks after silent sockets. A probe per phone every 2 s was a write
 * and a read per socket: at 10,000 idle phones most of the server's idle CPU, and the probes held
 * up questions on their way out (issue 26). The samples of the last question stay in the window
 * (link-delay.ts), and the ping behind each question (hub.ts) is a fresh one that counts as the
 * probe.
 */
import WebSocket from 'ws';
import type { Hub } from './hub.js';

/** Each phone's round trip is sampled this often by default. */
export const LINK_PROBE_INTERVAL_MS = 2_000;
const CHECKS_PER_INTERVAL = 4;
/**
 * Probes due ride along with the broadcasts phones get anyway (Hub.probeAlong: a tick every
 * second of a question), in the same write; this timer sends its own only to phones half an
 * interval overdue, which no broadcast reached (a write syscall per probe: at 10,000 phones it
 * was about one more write per phone per round, issue 26).
 */
const OVERDUE_FACTOR = 1.5;

export function startLinkProbes(hub: Hub, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  const dueMs = intervalMs * OVERDUE_FACTOR;
  const timer = setInterval(() => {
    const nowMs = Date.now();
    for (const client of hub.all()) {
      const { link, socket } = client;
      if (client.role !== 'player' || link.probeSentAtMs !== null || nowMs - link.lastProbeAtMs < dueMs) continue;
      // Unknown (a relaying instance in multi-instance mode) counts as open: a question might be.
      if (hub.questionOpen(client.sessionId) === false) continue;
      if (socket.readyState === WebSocket.OPEN) socket.ping(link.probe(nowMs));
    }
  }, intervalMs / CHECKS_PER_INTERVAL);
  timer.unref();
  return () => clearInterval(timer);
}
