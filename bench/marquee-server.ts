/**
 * Starts Marquee exactly as `npm start` does (server/main.ts reads the environment), plus the
 * bench probe for event-loop delay. The server code is not changed or wrapped: main.ts is
 * imported after the probe is installed, so whatever main wires (HTTP, rooms, WebSocket) runs.
 */
import { installProbe } from './probe.js';

installProbe();
await import('../server/main.js');
