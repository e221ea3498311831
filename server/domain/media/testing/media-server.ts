import type { TestDialect } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { MediaClient } from './client.js';
import { startS3TestServer, type S3TestServer } from './s3-server.js';

export type StoreKind = 'local' | 's3';
export const STORES: StoreKind[] = ['local', 's3'];

export interface MediaTestServer {
  server: TestServer;
  s3: S3TestServer | undefined;
  /** Logged in as the admin. */
  client: MediaClient;
  close(): Promise<void>;
}

/** The real server with the chosen media store (S3: a fresh s3rver bucket) and database. */
export async function startMediaTestServer(store: StoreKind, dialect: TestDialect = 'sqlite'): Promise<MediaTestServer> {
  const s3 = store === 's3' ? await startS3TestServer() : undefined;
  const server = await startTestServer({ dialect, env: s3?.env ?? {} });
  const client = new MediaClient(server, s3);
  await client.login();
  return {
    server,
    s3,
    client,
    close: async () => {
      // fetch keeps connections alive, and one whose response finished a moment after the client
      // read its last byte is not idle when closing starts: Fastify would wait out its 72 s
      // keep-alive. Nothing is in flight when a suite ends, so close them all.
      server.server.app.server.closeAllConnections();
      await server.close();
      await s3?.close();
    },
  };
}
