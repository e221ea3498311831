import { defineConfig } from 'vitest/config';

// One runner for everything: unit, storage/route suites on SQLite and PostgreSQL, and browser flows.
// Browser flows (e2e/) are heavy on 2 cores, so files run with bounded parallelism.
export default defineConfig({
  test: {
    include: ['protocol/**/*.test.ts', 'server/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts', 'bench/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A guard against hangs, not a speed check: a browser flow with an axe scan can take 20 s on
    // a busy 2-core machine (CI shares it), and a timing-out test must mean something is stuck.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['server/testing/global-setup.ts'],
  },
});
