/**
 * A lost PostgreSQL connection never reaches the process as an unhandled error (DESIGN §16):
 * transactions and lone queries run non-stop through a cuttable proxy, whose connections are
 * dropped at random points (mid-query, between two queries of a transaction, while idle in the
 * pool) and which is also cut outright (connections refused) a few times. Every failure must
 * come back to its caller as a rejected promise; the health monitor names the cause; and once
 * the connection is back, work goes on.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../testing/databases.js';
import { CuttableProxy } from '../testing/cuttable-proxy.js';
import { openDatabase, type DatabaseHandle } from './db.js';

const CUTS = 40;
const WORKERS = 6;

describe('PostgreSQL connections lost at random points', () => {
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let handle: DatabaseHandle;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    proxy = await CuttableProxy.start(TEST_DATABASE_URL);
    handle = await openDatabase({ databaseUrl: proxy.url(TEST_DATABASE_URL), dataDir: database.dataDir, pgSchema: database.pgSchema });
    await sql`create table fault_probe (id serial primary key, worker int not null)`.execute(handle.db);
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await handle?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('never crashes the process; every failure is a rejected query; work resumes', async () => {
    let committed = 0;
    let failed = 0;
    let stop = false;
    let progress: (() => void) | null = null;
    const causes = new Set<string>();
    handle.health.onChange((fault) => fault && causes.add(fault.cause));

    const worker = async (id: number) => {
      while (!stop) {
        try {
          if (id % 3 === 0) {
            await sql`select pg_sleep(0.002)`.execute(handle.db);
          } else {
            await handle.db.transaction().execute(async (trx) => {
              await trx.insertInto('fault_probe' as never).values({ worker: id } as never).execute();
              // The client stays checked out, idle, between two queries of the transaction.
              await new Promise((resolve) => setTimeout(resolve, id));
              await sql`select count(*) from fault_probe`.execute(trx);
            });
          }
          committed++;
          progress?.();
        } catch {
          failed++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, i) => worker(i));
    const someProgress = (count: number) =>
      new Promise<void>((resolve) => {
        const target = committed + count;
        progress = () => {
          if (committed >= target) {
            progress = null;
            resolve();
          }
        };
      });

    for (let cut = 0; cut < CUTS; cut++) {
      // Event-driven: wait until work goes through again, then drop everything a moment later.
      await someProgress(2);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 6));
      if (cut % 10 === 9) {
        await proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await proxy.restore();
      } else proxy.resetConnections();
    }
    await someProgress(10);
    stop = true;
    await Promise.all(workers);

    expect(uncaught).toEqual([]);
    expect(failed).toBeGreaterThan(0);
    expect(causes.has('connection lost') || causes.has('connection refused')).toBe(true);
    // Storage is healthy again, and nothing half-done was left behind in a transaction.
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('fault_probe' as never).values({ worker: 99 } as never).execute();
    });
    expect(handle.health.isDown).toBe(false);
  });
});
