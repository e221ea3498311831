/**
 * Admin sockets end with their token (DESIGN §15): logout closes them at once, expiry when it
 * comes; both with 4401. Other admins' sockets stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../protocol/index.js';
import { hashToken, newToken } from '../../domain/auth/passwords.js';
import { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { TestSocket } from './testing/client.js';

describe.each(DIALECTS)('admin sockets and their token on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;
  let sessionId: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    api = new TestApi(server);
    await api.login();
    sessionId = (await api.post('/api/admin/sessions', { title: 'Sockets' })).body.id;
  });
  afterAll(() => server?.close());

  const adminSocket = (token: string) => TestSocket.join(server.baseUrl, { type: 'admin', sessionId, token });

  it('logout closes the sockets opened with that token (4401), and only those', async () => {
    const leaving = new TestApi(server);
    const token = await leaving.login();
    const first = await adminSocket(token);
    const second = await adminSocket(token);
    const colleague = await adminSocket(api.token!);
    expect((await leaving.post('/api/admin/logout')).status).toBe(204);
    for (const socket of [first, second]) expect(await socket.closed).toEqual({ code: CLOSE_CODES.unauthorized, reason: 'Logged out' });
    expect(colleague.isOpen).toBe(true);
    // The revoked token cannot open a new one either.
    const again = await TestSocket.open(server.baseUrl, { type: 'admin', sessionId, token });
    expect((await again.closed).code).toBe(CLOSE_CODES.unauthorized);
    colleague.close();
  });

  it('closes when the token expires', async () => {
    const { token, hash } = newToken();
    const adminId = (await server.server.deps.store.admins.findByUsername('admin'))!.id;
    await server.server.deps.store.admins.saveToken(hash, adminId, new Date(Date.now() + 3000).toISOString());
    expect(hashToken(token)).toBe(hash);
    const socket = await adminSocket(token);
    expect(await socket.closed).toEqual({ code: CLOSE_CODES.unauthorized, reason: 'Your login has expired' });
  });
});
