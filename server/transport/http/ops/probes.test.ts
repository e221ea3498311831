/**
 * /healthz and /readyz as a load balancer sees them: a real server, its real dependencies, and a
 * dependency taken down (PostgreSQL behind a proxy that is cut, Redis on a closed port).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CuttableProxy, closedPort } from '../../../testing/cuttable-proxy.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS, createTestDatabase } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { uniquePrefix } from '../../../testing/redis.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const READY = { status: 'ready', checks: { database: 'ok', redis: 'off', media: 'ok' } };

/** Polls /readyz (its report is cached for a second) until `match` holds. */
async function readyzUntil(api: TestApi, match: (res: { status: number; body: any }) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get('/readyz');
    if (match(res) || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DIALECTS)('liveness and readiness on %s', (dialect) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const start = async (env: Record<string, string> = {}) => {
    const server = await startTestServer({ dialect, env });
    servers.push(server);
    return new TestApi(server);
  };

  it('answers /healthz and /readyz without auth, with no secret in them', async () => {
    const api = await start();
    const health = await api.get('/healthz');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual(READY);
    expect(ready.headers['cache-control']).toBe('no-store');
    const paths = Object.keys((await api.get('/api/docs/json')).body.paths);
    for (const route of ['/healthz', '/readyz', '/metrics']) expect(paths).toContain(route);
  });

  it('reports the media store not ready when its folder is gone', async () => {
    const api = await start();
    const incoming = path.join(servers.at(-1)!.database.dataDir, 'media', '.incoming');
    fs.rmSync(incoming, { recursive: true });
    const res = await readyzUntil(api, (r) => r.status === 503);
    expect(res.body).toEqual({ status: 'unready', checks: { database: 'ok', redis: 'off', media: 'missing' } });
    fs.mkdirSync(incoming);
    expect((await readyzUntil(api, (r) => r.status === 200)).body).toEqual(READY);
  });
});

describe('readiness with Redis configured (multi-instance mode runs on PostgreSQL)', () => {
  let proxy: CuttableProxy | undefined;
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
    await proxy?.close();
  });

  it('reports Redis ok, then 503 naming it while it is unreachable, then ready again', async () => {
    proxy = await CuttableProxy.start(TEST_REDIS_URL);
    const server = await startTestServer({ dialect: 'postgres', env: { REDIS_URL: proxy.url(TEST_REDIS_URL) }, cluster: { keyPrefix: uniquePrefix() } });
    servers.push(server);
    const api = new TestApi(server);
    const withRedis = { ...READY, checks: { ...READY.checks, redis: 'ok' } };
    expect((await readyzUntil(api, (r) => r.status === 200)).body).toEqual(withRedis);

    await proxy.cut();
    const down = await readyzUntil(api, (r) => r.status === 503);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unready', checks: { database: 'ok', media: 'ok' } });
    // Cut mid-connection or refused on reconnecting: either way a short reason, never an address.
    expect(['connection refused', 'connection lost', 'not connected']).toContain(down.body.checks.redis);
    // Liveness is about the process only: a load balancer must not restart it for Redis.
    expect((await api.get('/healthz')).status).toBe(200);

    await proxy.restore();
    expect((await readyzUntil(api, (r) => r.status === 200)).body).toEqual(withRedis);
  });

  it('answers 503 from the start when Redis is on a closed port', async () => {
    const server = await startTestServer({ dialect: 'postgres', env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }, cluster: { keyPrefix: uniquePrefix() } });
    servers.push(server);
    const res = await new TestApi(server).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unready', checks: { database: 'ok', redis: 'connection refused', media: 'ok' } });
  });
});

describe('readiness while PostgreSQL goes away for a moment', () => {
  let proxy: CuttableProxy | undefined;
  let server: TestServer | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await proxy?.restore();
    await server?.close();
    await proxy?.close();
    await dropDatabase?.();
  });

  it('answers 503 with database unreachable while it is down, and ready again once it is back', async () => {
    const database = await createTestDatabase('postgres');
    dropDatabase = database.drop;
    proxy = await CuttableProxy.start(database.databaseUrl!);
    server = await startTestServer({ database: { ...database, databaseUrl: proxy.url(database.databaseUrl!) } });
    const api = new TestApi(server);
    expect((await api.get('/readyz')).body).toEqual(READY);

    await proxy.cut();
    const down = await readyzUntil(api, (r) => r.status === 503);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unready', checks: { database: 'connection refused', redis: 'off', media: 'ok' } });
    expect((await api.get('/healthz')).status).toBe(200);

    await proxy.restore();
    const back = await readyzUntil(api, (r) => r.status === 200);
    expect(back.body).toEqual(READY);
  });
});
