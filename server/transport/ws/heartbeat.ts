/**
 * Keeping the socket population honest.
 *
 * Heartbeat: a socket the server has heard nothing from (no message, no pong) for a whole ping
 * interval is pinged; one still silent an interval after its ping is terminated (a phone that
 * walked out of the auditorium, a dead Wi-Fi association). A phone that answers questions proves
 * itself alive and is not pinged: during a game that spares a write per phone per interval, and
 * the pings of idle phones are spread over the interval's checks instead of sent in one burst of
 * ten thousand writes that would hold up a question on its way out.
 *
 * Backpressure: a socket whose send buffer stays over a bound on two checks in a row is not
 * reading (or is on a hopeless link). It is closed with 4429 instead of letting its queue grow
 * the server's memory; if it cannot even take the close frame, it is terminated on the next check.
 */
import WebSocket from 'ws';
import { CLOSE_CODES } from '../../../protocol/index.js';
import { type Client, type Hub, pingClient } from './hub.js';

export interface HeartbeatOptions {
  /** A socket silent this long is pinged, and dropped if it stays silent this long again. */
  pingIntervalMs: number;
  /** Backpressure check cadence. */
  bufferCheckIntervalMs: number;
  /** The bound on a socket's unsent bytes. */
  maxBufferedBytes: number;
  onSlowConsumer?: (client: Client) => void;
}

export const DEFAULT_HEARTBEAT: HeartbeatOptions = {
  pingIntervalMs: 20_000,
  bufferCheckIntervalMs: 5_000,
  maxBufferedBytes: 1024 * 1024,
};

/** Silence is checked this many times per ping interval. */
export const CHECKS_PER_INTERVAL = 4;

export function startHeartbeat(hub: Hub, options: HeartbeatOptions): () => void {
  const { pingIntervalMs } = options;
  // Checks run since each outstanding ping. A ping goes unanswered only after a whole interval AND
  // an interval's worth of checks: after a stall of this process (a busy machine, a long GC) the
  // overdue timer runs before the I/O that holds the pong, so wall time alone would drop a live
  // phone for the server's own delay. Each check is a separate turn of the event loop, so the
  // pong has had that many chances to be read.
  const checksSincePing = new WeakMap<Client, number>();
  const ping = setInterval(() => {
    const now = Date.now();
    for (const client of hub.all()) {
      if (client.pingSentAtMs !== null) {
        const checks = (checksSincePing.get(client) ?? 0) + 1;
        checksSincePing.set(client, checks);
        if (checks >= CHECKS_PER_INTERVAL && now - client.pingSentAtMs >= pingIntervalMs) client.socket.terminate();
        continue;
      }
      if (now - client.heardAtMs < pingIntervalMs || client.socket.readyState !== WebSocket.OPEN) continue;
      client.pingSentAtMs = now;
      checksSincePing.set(client, 0);
      pingClient(client);
    }
  }, pingIntervalMs / CHECKS_PER_INTERVAL);

  const checkBuffers = setInterval(() => {
    for (const client of hub.all()) {
      const { socket } = client;
      if (socket.readyState === WebSocket.CLOSING) {
        // Closed for being slow on an earlier check and still not gone.
        if (client.overBufferChecks >= 2) socket.terminate();
        continue;
      }
      if (socket.bufferedAmount <= options.maxBufferedBytes) {
        client.overBufferChecks = 0;
        continue;
      }
      client.overBufferChecks++;
      if (client.overBufferChecks >= 2) {
        options.onSlowConsumer?.(client);
        socket.close(CLOSE_CODES.slowConsumer, 'Too slow: messages were piling up');
      }
    }
  }, options.bufferCheckIntervalMs);

  ping.unref();
  checkBuffers.unref();
  return () => {
    clearInterval(ping);
    clearInterval(checkBuffers);
  };
}
