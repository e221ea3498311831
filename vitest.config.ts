import { defineConfig } from 'vitest/config';

// One runner for everything: unit, storage/route suites on SQLite and PostgreSQL, and browser flows.
// Browser flows (e2e/) are heavy on 2 cores, so files run with bounded parallelism: with two
// workers a run kept both cores about 90 % busy (Chromium half of it, before its headless shell),
// and a third made it slower (881 s against 832–856 s; docs/PERFORMANCE.md, session 74).
export default defineConfig({
  test: {
    include: ['protocol/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts', 'bench/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Files share their worker's process (one import of the server per worker, not per file):
    // importing took 190–200 s of a full run's time, 14 s so, and the suite went from 780–830 s
    // to 620–650 s on a slow 2-core machine. A file must leave nothing behind: a promise it never
    // awaits that rejects later now fails the run as an unhandled error (storage-outage.test.ts
    // had two).
    isolate: false,
    // A guard against hangs, not a speed check: a browser flow with an axe scan can take 20 s on
    // a busy 2-core machine (CI shares it), and a timing-out test must mean something is stuck.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['server/testing/global-setup.ts'],
    // A failing browser flow prints what its open pages saw lately (e2e/support/page-log.ts).
    setupFiles: ['e2e/support/page-log-setup.ts'],
  },
});
