import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import { DIALECTS } from '../../testing/databases.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { hashToken } from '../../auth/passwords.js';

describe.each(DIALECTS)('admin auth on %s', (dialect) => {
  let server: TestServer;
  let api: TestApi;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    api = new TestApi(server);
  });
  afterAll(() => server.close());

  it('logs in with the bootstrap credentials and returns a token, the user and a cookie', async () => {
    const res = await api.post('/api/admin/login', { username: 'admin', password: server.adminPassword });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.user).toEqual({ id: expect.any(String), username: 'admin' });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain('marquee_admin=');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('stores tokens hashed, never as given', async () => {
    const token = await new TestApi(server).login();
    const rows = await server.server.deps.store.db.selectFrom('admin_tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('refuses a wrong password with 401 and the message "Invalid credentials"', async () => {
    const res = await api.post('/api/admin/login', { username: 'admin', password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid credentials' });
  });

  it('requires username and password (400 with a message)', async () => {
    for (const body of [{}, { username: 'admin' }, { password: 'x' }, { username: '', password: 'x' }, { username: 5, password: 'x' }]) {
      const res = await api.post('/api/admin/login', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('answers 400, not 500, for a malformed JSON body', async () => {
    const res = await api.request('POST', '/api/admin/login', '{"username": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON body' });
  });

  it('accepts the bearer token and the cookie; rejects none, bogus, expired and revoked tokens with 401', async () => {
    const client = new TestApi(server);
    const token = await client.login();
    expect((await client.get('/api/admin/sessions')).status).toBe(200);

    const byCookie = await new TestApi(server).request('GET', '/api/admin/sessions', undefined, { cookie: `marquee_admin=${token}` });
    expect(byCookie.status).toBe(200);

    const anonymous = new TestApi(server);
    const none = await anonymous.get('/api/admin/sessions');
    expect(none.status).toBe(401);
    expect(none.body.message).toBe('Authentication required');

    anonymous.token = 'bogus-token';
    expect((await anonymous.get('/api/admin/sessions')).status).toBe(401);

    // Expire the token in storage: it stops working at once.
    const expiring = new TestApi(server);
    const expiringToken = await expiring.login();
    await server.server.deps.store.db
      .updateTable('admin_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(expiringToken))
      .execute();
    expect((await expiring.get('/api/admin/sessions')).status).toBe(401);

    // Logout revokes the token.
    expect((await client.post('/api/admin/logout')).status).toBe(204);
    expect((await client.get('/api/admin/sessions')).status).toBe(401);
    expect((await client.post('/api/admin/logout')).status).toBe(401);
  });
});

describe('login rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After after repeated failures from one address, even for the right password', async () => {
    const api = new TestApi(server);
    for (let i = 0; i < 5; i++) {
      expect((await api.post('/api/admin/login', { username: 'admin', password: `wrong-${i}` })).status).toBe(401);
    }
    const limited = await api.post('/api/admin/login', { username: 'admin', password: server.adminPassword });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body.message).toMatch(/Too many failed logins/);
  });
});
