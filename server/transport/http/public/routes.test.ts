import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('public calls on %s', (dialect) => {
  let server: TestServer;
  let admin: TestApi;
  let visitor: TestApi;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    admin = new TestApi(server);
    visitor = new TestApi(server);
    await admin.login();
  });
  afterAll(() => server?.close());

  it('derives the public URL from the Host header when PUBLIC_URL is unset (X-Forwarded-* only behind TRUST_PROXY: trust-proxy.test.ts)', async () => {
    const direct = await visitor.request('GET', '/api/public-url', undefined, { host: '192.168.1.20:3000' });
    expect(direct.body).toEqual({ publicUrl: 'http://192.168.1.20:3000' });
  });

  it('shows a session to displays and phones: id, title, status, theme and media items per transition', async () => {
    const session = (
      await admin.post('/api/admin/sessions', {
        title: 'Open to all',
        mediaItemsPerTransition: 4,
        returnMessage: 'internal note',
        theme: { primaryColor: '#E74C52', logo: '/media/logo-1' },
      })
    ).body;
    const res = await visitor.get(`/api/sessions/${session.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: session.id,
      title: 'Open to all',
      status: 'draft',
      theme: { primaryColor: '#E74C52', logo: '/media/logo-1' },
      mediaItemsPerTransition: 4,
      // The join form's consent box needs it; off unless the session runs a draw.
      prizeDraw: { enabled: false, prize: '', consentText: '' },
    });
    const missing = await visitor.get(`/api/sessions/${UNKNOWN}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Session not found' });
  });

  it('hands out a fresh signed join URL for a session to an admin, uncached', async () => {
    const sessionId = (await admin.post('/api/admin/sessions', { title: 'Join me' })).body.id;
    const before = Date.now();
    const res = await admin.get(`/api/sessions/${sessionId}/join-url`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['timestamp', 'url']);
    expect(res.body.url).toMatch(new RegExp(`^/player/${sessionId}\\?t=\\d+&sig=[0-9a-f]{64}$`));
    const t = Number(new URL(res.body.url, 'http://x').searchParams.get('t'));
    expect(t).toBe(res.body.timestamp);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
    expect(res.headers['cache-control']).toBe('no-store');

    const check = await visitor.post(`/api/sessions/${sessionId}/validate-access`, {
      timestamp: t,
      signature: new URL(res.body.url, 'http://x').searchParams.get('sig'),
    });
    expect(check.body.valid).toBe(true);
    expect((await admin.get(`/api/sessions/${UNKNOWN}/join-url`)).status).toBe(404);
    for (const url of ['/api/sessions/a%00b', '/api/sessions/a%00b/join-url']) expect((await visitor.get(url)).status).toBe(400);
  });

  it('lets players register without a link when REQUIRE_SIGNED_JOIN is off', async () => {
    const sessionId = (await admin.post('/api/admin/sessions', { title: 'Home play' })).body.id;
    const res = await visitor.post('/api/player/register', { name: 'Home', email: 'home@example.com', sessionId });
    expect(res.status).toBe(201);
  });

  it('answers 404 with a message for unknown API paths', async () => {
    const res = await visitor.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(typeof res.body.message).toBe('string');
  });
});

describe('public URL from configuration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://play.marquee.example' } });
  });
  afterAll(() => server?.close());

  it('answers PUBLIC_URL whatever the request headers say', async () => {
    const res = await new TestApi(server).request('GET', '/api/public-url', undefined, {
      host: 'elsewhere:1234',
      'x-forwarded-host': 'proxy.example',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ publicUrl: 'https://play.marquee.example' });
  });
});
