import { prepareOrExit } from './prerequisites.js';

/**
 * Before any test: Chromium and nginx are there (installed when missing and allowed), PostgreSQL and
 * Redis answer. `npm test` checked the same in its pretest step; this covers `npx vitest run`.
 * A missing piece stops the run with one line, never skips a test.
 * (The web app used by browser flows is built by `npm test`'s pretest step when stale.)
 */
export default async function setup(): Promise<void> {
  await prepareOrExit();
}
