/**
 * DESIGN §8 after a crash on SQLite: 300 phones join a question already open, the server is
 * killed with SIGKILL as soon as they have all been shown it (before the roster refresh lists
 * them) and once the refresh lists them all; they come back 0–3 s later. Every phone that had not
 * answered still answers and gets its result, and no confirmed answer is taken back
 * (server/testing/crash-rounds.ts; the answer log's moments: crash-answer-log-sqlite.test.ts).
 */
import { afterAll, expect, it } from 'vitest';
import { KILL_MOMENTS, playCrashRounds, roundProblems } from '../../testing/crash-rounds.js';
import { createTestDatabase, type TestDatabase } from '../../testing/databases.js';

let database: TestDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

it('after a kill before or after the roster refresh, every phone connected at the crash gets its turn', { timeout: 180_000 }, async () => {
  database = await createTestDatabase('sqlite');
  const rounds = await playCrashRounds({ database, phones: 300, moments: [KILL_MOMENTS.shown, KILL_MOMENTS.rosterWritten], answerSpreadMs: 2_500 });
  console.log(`sqlite crash rounds: ${JSON.stringify(rounds.map(({ faults: _faults, ...round }) => round))}`);
  expect(roundProblems(rounds)).toEqual([]);
});
