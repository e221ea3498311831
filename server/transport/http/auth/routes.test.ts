import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { hashToken } from '../../../domain/auth/passwords.js';

/** The limiter's clock stands still here: a wait cannot run out while a slow machine checks passwords. */
const loginClock = () => 1_700_000_000_000;

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

describe('login rate limit (DESIGN §15)', () => {
  let server: TestServer;
  // Every test here comes from one address (127.0.0.1): each gets a server of its own.
  beforeEach(async () => {
    server = await startTestServer({ loginClock });
  });
  afterEach(() => server.close());

  const login = (api: TestApi, password: string, headers: Record<string, string> = {}, username = 'admin') =>
    api.request('POST', '/api/admin/login', { username, password }, headers);

  it('after 5 failures that address waits for that username (429, Retry-After), even with the right password', async () => {
    const api = new TestApi(server);
    for (let i = 0; i < 5; i++) expect((await login(api, `wrong-${i}`)).status).toBe(401);
    const limited = await login(api, server.adminPassword);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body.message).toMatch(/Too many failed logins/);
    // Another username from the same address is not slowed by them.
    expect((await login(api, 'wrong', {}, 'projectionist')).status).toBe(401);
  });

  it('never slows a device that logged in as that username before (its device cookie)', async () => {
    const api = new TestApi(server);
    const first = await login(api, server.adminPassword, {}, 'Admin'.toLowerCase());
    const device = String(first.headers['set-cookie']).match(/marquee_device=([^;]+)/)?.[1];
    expect(device).toBeTruthy();
    expect(String(first.headers['set-cookie'])).toMatch(/marquee_device=[^;]+;.*Path=\/api\/admin\/login/);
    // The address is blocked for admin by the guesser (same test server, same address: 127.0.0.1).
    for (let i = 0; i < 6; i++) await login(api, 'wrong');
    expect((await login(api, server.adminPassword)).status).toBe(429);
    const sameOrigin = { 'sec-fetch-site': 'same-origin' };
    const withCookie = await login(api, server.adminPassword, { cookie: `marquee_device=${device}`, ...sameOrigin });
    expect(withCookie.status).toBe(200);
    // A still valid session cookie of that username counts as well.
    const session = String(withCookie.headers['set-cookie']).match(/marquee_admin=([^;]+)/)![1];
    expect((await login(api, server.adminPassword, { cookie: `marquee_admin=${session}`, ...sameOrigin })).status).toBe(200);
    // Sent by another site's page, the cookie does not count.
    expect((await login(api, server.adminPassword, { cookie: `marquee_device=${device}`, origin: 'http://localhost:9999' })).status).toBe(429);
    // A forged or foreign cookie does not help.
    expect((await login(api, server.adminPassword, { cookie: `marquee_device=${device!.slice(0, -2)}xx`, ...sameOrigin })).status).toBe(429);
    for (let i = 0; i < 5; i++) await login(api, 'wrong', {}, 'projectionist');
    expect((await login(api, 'wrong', { cookie: `marquee_device=${device}`, ...sameOrigin }, 'projectionist')).status).toBe(429);
  });
});

describe.each(DIALECTS)('CSRF on cookie-authenticated admin calls on %s (DESIGN §15)', (dialect) => {
  let server: TestServer;
  let token: string;
  let finishedId: string;
  const host = 'cinema.local:3000';

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    const admin = new TestApi(server);
    token = await admin.login();
    finishedId = (await admin.post('/api/admin/sessions', { title: 'Played tonight' })).body.id;
    await admin.post(`/api/admin/sessions/${finishedId}/start`);
    await admin.post(`/api/admin/sessions/${finishedId}/stop`);
  });
  afterAll(() => server.close());

  const byCookie = (method: 'POST' | 'GET' | 'DELETE', url: string, headers: Record<string, string>, body?: unknown) =>
    new TestApi(server).request(method, url, body, { host, cookie: `marquee_admin=${token}`, ...headers });

  it('refuses the attack of issue 23: a text/plain POST from another port of the same host cannot restart a finished session', async () => {
    const attack = await byCookie('POST', `/api/admin/sessions/${finishedId}/restart`, {
      origin: 'http://cinema.local:8080',
      'sec-fetch-site': 'same-site',
      'content-type': 'text/plain',
    }, 'x');
    expect(attack.status).toBe(403);
    expect(attack.body.message).toMatch(/Cross-site request refused/);
    const session = await new TestApi(server).request('GET', `/api/admin/sessions/${finishedId}`, undefined, { authorization: `Bearer ${token}` });
    expect(session.body.status).toBe('finished');
  });

  it('refuses a cookie call with an unsafe method and no Origin, or a foreign one', async () => {
    for (const headers of [{} as Record<string, string>, { origin: 'null' }, { origin: 'https://evil.example' }, { origin: 'http://cinema.local' }]) {
      expect((await byCookie('POST', '/api/admin/sessions', headers, { title: 'CSRF' })).status).toBe(403);
    }
  });

  it('accepts same-origin cookie calls, safe methods without Origin, and bearer calls from anywhere', async () => {
    expect((await byCookie('POST', '/api/admin/sessions', { origin: `http://${host}` }, { title: 'From the page' })).status).toBe(201);
    expect((await byCookie('POST', '/api/admin/sessions', { 'sec-fetch-site': 'same-origin' }, { title: 'Fetch metadata' })).status).toBe(201);
    expect((await byCookie('GET', '/api/admin/sessions', {})).status).toBe(200);
    const bearer = await new TestApi(server).request('POST', '/api/admin/sessions', { title: 'Script' }, { authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(bearer.status).toBe(201);
  });

  it('logout by cookie needs the same origin too', async () => {
    const own = await new TestApi(server).login();
    const cross = await new TestApi(server).request('POST', '/api/admin/logout', undefined, { host, cookie: `marquee_admin=${own}`, origin: 'http://cinema.local:8080' });
    expect(cross.status).toBe(403);
    const same = await new TestApi(server).request('POST', '/api/admin/logout', undefined, { host, cookie: `marquee_admin=${own}`, origin: `http://${host}` });
    expect(same.status).toBe(204);
  });
});
