/**
 * The HTTP/WebSocket fuzz (server/testing/fuzz.ts) at the size every test run affords: 5,000 HTTP
 * requests over the OpenAPI routes and a few hundred broken WebSocket frames per database, one
 * file per database so the two run side by side. `npm run fuzz -- 100000` runs more.
 */
import { expect, it } from 'vitest';
import type { TestDialect } from './databases.js';
import { runFuzz } from './fuzz-run.js';

export const FUZZ_REQUESTS_PER_DATABASE = 5_000;

export function fuzzSuite(dialect: TestDialect, seed: number): void {
  it(`answers every broken request on ${dialect} with a 4xx, stays up, and a refused request changes nothing`, async () => {
    // A fixed seed: the run is the same every time, so a failure reproduces (npm run fuzz -- --seed N).
    const report = await runFuzz({ dialect, requests: FUZZ_REQUESTS_PER_DATABASE, sockets: 30, seed });
    expect(report.failures).toEqual([]);
    expect(report.http.requests).toBe(FUZZ_REQUESTS_PER_DATABASE);
    // Every route of the OpenAPI document was in the draw, and every batch was checked.
    expect(report.operations).toBeGreaterThan(50);
    expect(report.http.uncheckedBatches).toBe(0);
    expect(report.http.checkedBatches).toBe(FUZZ_REQUESTS_PER_DATABASE / 100);
    expect(report.ws.frames).toBeGreaterThan(200);
  }, 240_000);
}
