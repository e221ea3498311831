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
import type { LinkDelay } from './link-delay.js';

/** A player socket with its link measurements (a hub.ts Client; structural, so hub.ts can import this file). */
interface ProbedSocket {
  readonly link: LinkDelay;
  readonly socket: WebSocket;
  /** When the socket was last heard from (any frame or pong). */
  readonly heardAtMs: number;
}

/** The hub, as the probes see it. */
interface ProbeTargets {
  forEachPlayerInQuestions(visit: (socket: ProbedSocket) => void): void;
}

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

export function startLinkProbes(hub: ProbeTargets, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  const dueMs = intervalMs * OVERDUE_FACTOR;
  let nowMs = 0;
  // Made once: the round visits every phone in a question several times a second.
  const check = ({ link, socket, heardAtMs }: ProbedSocket) => {
    link.checkStall(nowMs, heardAtMs); // a silent link: the reveal's hold waits for it
    if (link.probeSentAtMs !== null || nowMs - link.lastProbeAtMs < dueMs) return;
    if (socket.readyState === WebSocket.OPEN) socket.ping(link.probe(nowMs));
  };
  const timer = setInterval(() => {
    nowMs = Date.now();
    // Sessions between questions are skipped whole (an idle instance loops over nothing); an
    // unknown state (a relaying instance in multi-instance mode) counts as open.
    hub.forEachPlayerInQuestions(check);
  }, intervalMs / CHECKS_PER_INTERVAL);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The probes due go right behind a broadcast the phones get anyway (a tick, every second of a
 * question): their sockets are corked (hub.ts), so each ping leaves in the same write.
 */
export function probeAlong(players: Iterable<ProbedSocket>, intervalMs: number): void {
  const nowMs = Date.now();
  for (const { link, socket } of players) {
    if (link.probeSentAtMs === null && nowMs - link.lastProbeAtMs >= intervalMs && socket.readyState === WebSocket.OPEN) socket.ping(link.probe(nowMs));
  }
}
