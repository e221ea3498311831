import { checkPostgres } from './databases.js';

/**
 * Before any test: PostgreSQL must answer. A missing service fails the run, never skips it.
 * (The web app used by browser flows is built by `npm test`'s pretest step when stale.)
 */
export default async function setup(): Promise<void> {
  await checkPostgres();
}
