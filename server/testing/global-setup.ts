import { checkPostgres } from './databases.js';
import { checkRedis } from './redis.js';

/**
 * Before any test: PostgreSQL and Redis must answer. A missing service fails the run, never skips it.
 * (The web app used by browser flows is built by `npm test`'s pretest step when stale.)
 */
export default async function setup(): Promise<void> {
  await checkPostgres();
  await checkRedis();
}
