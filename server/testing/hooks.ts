import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../storage/store.js';
import { TestApi } from './api.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from './databases.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * One real server per describe block, with an admin client logged in; `ready` receives them.
 * Closed after the block, database dropped.
 */
export function useAdminServer(
  dialect: TestDialect,
  ready: (server: TestServer, api: TestApi) => void,
  options: Parameters<typeof startTestServer>[0] = {},
): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer({ ...options, dialect });
    const api = new TestApi(server);
    await api.login();
    ready(server, api);
  });
  afterAll(() => server?.close());
}

/** A fresh, migrated store per describe block, for repository and constraint tests. */
export function useTestStore(dialect: TestDialect, ready: (store: Store, database: TestDatabase) => void): void {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, pgSchema: database.pgSchema });
    ready(store, database);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
}
