/**
 * Round-trip probes of players' sockets (link-delay.ts): every phone is pinged about once per
 * interval, with no more than one probe unanswered at a time. The checks run several times per
 * interval so the pings of a full house are spread out instead of leaving in one burst.
 * A WebSocket ping is a few bytes; the browser answers it without running any page code.
 */
import WebSocket from 'ws';
import type { Hub } from './hub.js';

/** Each phone's round trip is sampled this often by default. */
export const LINK_PROBE_INTERVAL_MS = 2_000;
const CHECKS_PER_INTERVAL = 4;

export function startLinkProbes(hub: Hub, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  const timer = setInterval(() => {
    const nowMs = Date.now();
    for (const client of hub.all()) {
      const { link, socket } = client;
      if (client.role !== 'player') continue;
      link.checkStall(nowMs, client.heardAtMs); // a silent link: the reveal's hold waits for it
      if (link.probeSentAtMs !== null || nowMs - link.lastProbeAtMs < intervalMs) continue;
      if (socket.readyState === WebSocket.OPEN) socket.ping(link.probe(nowMs));
    }
  }, intervalMs / CHECKS_PER_INTERVAL);
  timer.unref();
  return () => clearInterval(timer);
}
