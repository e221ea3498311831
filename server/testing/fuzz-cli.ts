/**
 * `npm run fuzz -- [requests] [--db sqlite|postgres|both] [--seed N] [--sockets N]`: the fuzz of
 * server/testing/fuzz.ts at any size (default 100,000 requests on each database, a random seed).
 * Prints a summary per database and every failure with the seed that replays it; exits 1 on any.
 */
import { DIALECTS, type TestDialect } from './databases.js';
import { runFuzz } from './fuzz-run.js';

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const positional = process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && !all[i - 1]?.startsWith('--'));
const requests = Number(positional ?? 100_000);
const db = argument('db') ?? 'both';
const dialects: TestDialect[] = db === 'both' ? DIALECTS : [db as TestDialect];
const seed = Number(argument('seed') ?? Math.floor(Math.random() * 2 ** 31));
const sockets = Number(argument('sockets') ?? 150);

let failed = false;
for (const dialect of dialects) {
  const startedAt = Date.now();
  const report = await runFuzz({ dialect, requests, sockets, seed });
  const seconds = (Date.now() - startedAt) / 1000;
  console.log(
    `${dialect}: ${report.http.requests} requests over ${report.operations} operations in ${seconds.toFixed(1)} s, seed ${seed}\n` +
      `  statuses ${JSON.stringify(report.http.statuses)}\n` +
      `  state checked after ${report.http.checkedBatches} batches (${report.http.uncheckedBatches} had an accepted change)\n` +
      `  websocket: ${report.ws.handshakes} refused handshakes, ${report.ws.frames} broken frames, closes ${JSON.stringify(report.ws.closeCodes)}`,
  );
  if (process.argv.includes('--accepted')) for (const line of report.http.acceptedFaulty) console.log(`  accepted: ${line}`);
  for (const failure of report.failures) console.log(`  FAIL ${failure.request}\n    ${failure.problem}`);
  if (report.failures.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
