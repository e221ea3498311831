import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { startServer, type RunningServer, type StartOptions } from '../server.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from './databases.js';

export const TEST_ADMIN = { username: 'admin', password: 'test-password-123' };
export const WEB_DIR = path.resolve(import.meta.dirname, '..', '..', 'dist', 'web');

export interface TestServer {
  baseUrl: string;
  adminUsername: string;
  adminPassword: string;
  server: RunningServer;
  /** The database this server uses; pass it to another startTestServer to restart on the same data. */
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real server on a free port with a fresh database (SQLite unless asked otherwise), serving the
 * built web app. `env` overrides configuration, as an operator's environment would. With
 * `database` (another test server's), it starts on that existing data instead, as a restarted
 * server would, and leaves dropping it to whoever created it.
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; dialect?: TestDialect; database?: TestDatabase } & Omit<StartOptions, 'pgSchema'> = {},
): Promise<TestServer> {
  const { env, dialect, database: existing, ...startOptions } = opts;
  const database = existing ?? (await createTestDatabase(dialect ?? 'sqlite'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl,
    ADMIN_USERNAME: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    REQUIRE_SIGNED_JOIN: 'false',
    // Every test player registers from 127.0.0.1; the registration-limit tests turn it back on.
    REGISTRATION_LIMIT: 'off',
    // Tests bring their own data; the demo tests turn it back on.
    DEMO_CONTENT: 'false',
    // No datagram path: on a busy machine a loopback round trip can pass RTC_MIN_RTT_MS and open
    // one mid-test, changing which way a pick travels. The path's own tests turn it on.
    RTC_MAX_PEERS: '0',
    ...env,
  });
  const server = await startServer(config, {
    webDir: fs.existsSync(WEB_DIR) ? WEB_DIR : undefined,
    pgSchema: database.pgSchema,
    ...startOptions,
    // A small warm-up rehearsal: the code path runs in every test server without costing seconds.
    realtime: { rehearsalPlayers: 20, ...startOptions.realtime },
  });
  return {
    baseUrl: server.url,
    adminUsername: config.adminUsername,
    adminPassword: config.adminPassword ?? TEST_ADMIN.password,
    server,
    database,
    close: async () => {
      await server.close();
      if (!existing) await database.drop();
    },
  };
}
