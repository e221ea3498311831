/**
 * Starts Marquee exactly as `npm start` does (its build, dist/server/main.js, which reads the
 * environment; targets.ts rebuilds it first when stale), plus the bench probe for event-loop
 * delay. The server code is not changed or wrapped: main is imported after the probe is
 * installed, so whatever main wires (HTTP, rooms, WebSocket) runs.
 */
import { pathToFileURL } from 'node:url';
import { serverEntry } from '../scripts/build.mjs';
import { installProbe } from './probe.js';

installProbe();
// A path, not a module TypeScript resolves: the build has no declarations.
await import(pathToFileURL(serverEntry).href);
