import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** DESIGN §15: join links only for whoever can see the screen (a display key) or an admin. */
describe.each(DIALECTS)('screen links and join-url credentials on %s', (dialect) => {
  let server: TestServer;
  let admin: TestApi;
  let visitor: TestApi;

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { REQUIRE_SIGNED_JOIN: 'true' } });
    admin = new TestApi(server);
    visitor = new TestApi(server);
    await admin.login();
  });
  afterAll(() => server?.close());

  const newSession = async (body: Record<string, unknown> = {}) => (await admin.post('/api/admin/sessions', { title: 'Screen test', ...body })).body.id as string;
  const joinUrl = (sessionId: string, key?: string) => visitor.get(`/api/sessions/${sessionId}/join-url${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}`);

  it('refuses join-url without a credential (401), so a photographed QR code mints no links', async () => {
    const sessionId = await newSession();
    const res = await joinUrl(sessionId);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'A display key or an admin login is required' });
    const wrong = await joinUrl(sessionId, 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid display key' });
  });

  it("a session's screen link carries a key that fetches signed join links a phone can register with", async () => {
    const sessionId = await newSession();
    const link = await admin.get(`/api/admin/sessions/${sessionId}/screen-link`);
    expect(link.status).toBe(200);
    expect(link.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.body.url).toBe(`/display/${sessionId}?key=${link.body.key}`);
    // The same address every time (a projector's bookmark keeps working).
    expect((await admin.get(`/api/admin/sessions/${sessionId}/screen-link`)).body).toEqual(link.body);

    const res = await joinUrl(sessionId, link.body.key);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.url).toMatch(new RegExp(`^/player/${sessionId}\\?t=\\d+&sig=[0-9a-f]{64}$`));
    const params = new URL(res.body.url, 'http://x').searchParams;
    const registered = await visitor.post('/api/player/register', {
      name: 'Phone',
      email: `phone-${sessionId}@example.com`,
      sessionId,
      timestamp: params.get('t'),
      signature: params.get('sig'),
    });
    expect(registered.status).toBe(201);
  });

  it("a session's key opens only that session", async () => {
    const one = await newSession();
    const other = await newSession();
    const key = (await admin.get(`/api/admin/sessions/${one}/screen-link`)).body.key;
    expect((await joinUrl(other, key)).status).toBe(401);
  });

  it("an auditorium's key serves every session of that auditorium, and no other", async () => {
    const auditorium = (await admin.post('/api/admin/auditoriums', { name: 'Screen 7' })).body.id;
    const elsewhere = (await admin.post('/api/admin/auditoriums', { name: 'Screen 8' })).body.id;
    const link = await admin.get(`/api/admin/auditoriums/${auditorium}/screen-link`);
    expect(link.status).toBe(200);
    expect(link.body.url).toBe(`/display/auditorium/${auditorium}?key=${link.body.key}`);
    const first = await newSession({ auditoriumId: auditorium });
    const second = await newSession({ auditoriumId: auditorium });
    const outside = await newSession({ auditoriumId: elsewhere });
    const unassigned = await newSession();
    for (const id of [first, second]) expect((await joinUrl(id, link.body.key)).status).toBe(200);
    for (const id of [outside, unassigned]) expect((await joinUrl(id, link.body.key)).status).toBe(401);
  });

  it('an admin fetches join links with the bearer token or the cookie', async () => {
    const sessionId = await newSession();
    expect((await admin.get(`/api/sessions/${sessionId}/join-url`)).status).toBe(200);
    const byCookie = await visitor.request('GET', `/api/sessions/${sessionId}/join-url`, undefined, { cookie: `marquee_admin=${admin.token}` });
    expect(byCookie.status).toBe(200);
    const revoked = new TestApi(server);
    await revoked.login();
    await revoked.post('/api/admin/logout');
    expect((await revoked.get(`/api/sessions/${sessionId}/join-url`)).status).toBe(401);
  });

  it('screen links are for admins only, and name existing sessions and auditoriums', async () => {
    const sessionId = await newSession();
    expect((await visitor.get(`/api/admin/sessions/${sessionId}/screen-link`)).status).toBe(401);
    expect((await admin.get(`/api/admin/sessions/${UNKNOWN}/screen-link`)).status).toBe(404);
    expect((await admin.get(`/api/admin/auditoriums/${UNKNOWN}/screen-link`)).status).toBe(404);
    expect((await joinUrl(UNKNOWN, 'x')).status).toBe(404);
    expect((await joinUrl(sessionId, 'k'.repeat(300))).status).toBe(400);
  });

  it('a join link lasts JOIN_LINK_TTL_SECONDS, 600 by default', () => {
    expect(server.server.deps.config.joinLinkTtlSeconds).toBe(600);
  });
});
