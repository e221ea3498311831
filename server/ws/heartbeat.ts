/**
 * Keeping the socket population honest.
 *
 * Heartbeat: every interval each socket is pinged; one that has not answered the previous ping
 * is terminated (a phone that walked out of the auditorium, a dead Wi-Fi association).
 *
 * Backpressure: a socket whose send buffer stays over a bound on two checks in a row is not
 * reading (or is on a hopeless link). It is closed with 4429 instead of letting its queue grow
 * the server's memory; if it cannot even take the close frame, it is terminated on the next check.
 */
import WebSocket from 'ws';
import { CLOSE_CODES } from '../../protocol/index.js';
import type { Client, Hub } from './hub.js';

export interface HeartbeatOptions {
  /** Ping cadence; a socket silent for a whole interval is dropped. */
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

export function startHeartbeat(hub: Hub, options: HeartbeatOptions): () => void {
  const ping = setInterval(() => {
    for (const client of hub.all()) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      if (client.socket.readyState === WebSocket.OPEN) client.socket.ping();
    }
  }, options.pingIntervalMs);

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
