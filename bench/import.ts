/**
 * `npm run bench:import [-- --rows 5000] [--postgres]`: times importing a question file through
 * the real HTTP route (parse, duplicate check, one transaction of multi-row inserts) on a fresh
 * database. Prints the dry run's and the import's wall-clock times; the target is 5,000 in < 5 s.
 */
import { performance } from 'node:perf_hooks';
import { questionsToCsv } from '../server/domain/questions/csv-format.js';
import { startTestServer } from '../server/testing/server.js';

const TARGET_MS = 5000;

function parseArgs(argv: string[]) {
  let rows = 5000;
  let dialect: 'sqlite' | 'postgres' = 'sqlite';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rows') rows = Number(argv[++i]);
    else if (argv[i] === '--postgres') dialect = 'postgres';
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!(rows >= 1 && rows <= 10_000)) throw new Error('--rows must be 1–10000');
  return { rows, dialect };
}

const { rows, dialect } = parseArgs(process.argv.slice(2));
// Realistic rows: quoted text with commas, four choices, two categories.
const file = questionsToCsv(
  Array.from({ length: rows }, (_, i) => ({
    text: `Bench question ${i}: which film, released in ${1950 + (i % 70)}, is this about?`,
    choices: [`Answer A ${i}`, `Answer B ${i}`, `Answer "C" ${i}`, `Answer D ${i}`],
    correctIndex: i % 4,
    points: 10,
    timeLimitSeconds: 30,
    categories: ['Bench', `Decade ${1950 + (i % 7) * 10}`],
  })),
);

const server = await startTestServer({ dialect });
try {
  const login = await fetch(`${server.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: server.adminUsername, password: server.adminPassword }),
  });
  const { token } = (await login.json()) as { token: string };
  const post = async (dryRun: boolean) => {
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/api/admin/questions/import?format=csv&dryRun=${dryRun}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: file,
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`import failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms: performance.now() - started, imported: (body as { imported: number }).imported };
  };
  const preview = await post(true);
  const stored = await post(false);
  const kib = (Buffer.byteLength(file) / 1024).toFixed(0);
  console.log(`Import of ${rows} questions (${kib} KiB CSV) on ${dialect}:`);
  console.log(`  dry run (preview): ${preview.ms.toFixed(0)} ms`);
  console.log(`  import (stored ${stored.imported}): ${stored.ms.toFixed(0)} ms  → target < ${TARGET_MS} ms for 5,000: ${stored.ms < TARGET_MS ? 'met' : 'MISSED'}`);
} finally {
  await server.close();
}
