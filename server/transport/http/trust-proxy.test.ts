import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { TestApi } from '../../testing/api.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { parseTrustProxy } from '../../trust-proxy.js';

/** The limiter's clock stands still here: a wait cannot run out while a slow machine checks passwords. */
const loginClock = () => 1_700_000_000_000;

const FORGED = { host: 'marquee.local:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '203.0.113.7' };

/** DESIGN §15: X-Forwarded-* is believed only from the proxies TRUST_PROXY names. */
describe('TRUST_PROXY', () => {
  describe('off (the default)', () => {
    let server: TestServer;
    let api: TestApi;
    beforeAll(async () => {
      server = await startTestServer({ loginClock });
      api = new TestApi(server);
      await api.login();
    });
    afterAll(() => server?.close());

    it('a forged X-Forwarded-Host changes neither /api/public-url nor upload URLs', async () => {
      const publicUrl = await api.request('GET', '/api/public-url', undefined, FORGED);
      expect(publicUrl.body).toEqual({ publicUrl: 'http://marquee.local:3000' });
      const upload = await api.request('POST', '/api/media/upload', { kind: 'media' }, FORGED);
      expect(upload.status).toBe(200);
      expect(new URL(upload.body.uploadURL).origin).toBe('http://marquee.local:3000');
    });

    it('a made-up X-Forwarded-For is not the address the login limiter counts', async () => {
      const visitor = new TestApi(server);
      for (let i = 0; i < 5; i++) {
        const forged = { 'x-forwarded-for': `198.51.100.${i}` };
        expect((await visitor.request('POST', '/api/admin/login', { username: 'admin', password: `wrong-${i}` }, forged)).status).toBe(401);
      }
      // All five came from this one connection's address: the sixth waits, whatever it claims.
      const sixth = await visitor.request('POST', '/api/admin/login', { username: 'admin', password: 'wrong' }, { 'x-forwarded-for': '198.51.100.99' });
      expect(sixth.status).toBe(429);
    });
  });

  describe('naming the proxy (loopback)', () => {
    let server: TestServer;
    let api: TestApi;
    beforeAll(async () => {
      server = await startTestServer({ env: { TRUST_PROXY: 'loopback' }, loginClock });
      api = new TestApi(server);
      await api.login();
    });
    afterAll(() => server?.close());

    it("believes the proxy's X-Forwarded-Proto/Host for the public URL and uploads", async () => {
      const publicUrl = await api.request('GET', '/api/public-url', undefined, { ...FORGED, 'x-forwarded-host': 'trivia.cinema.example' });
      expect(publicUrl.body).toEqual({ publicUrl: 'https://trivia.cinema.example' });
      const upload = await api.request('POST', '/api/media/upload', { kind: 'media' }, { ...FORGED, 'x-forwarded-host': 'trivia.cinema.example' });
      expect(new URL(upload.body.uploadURL).origin).toBe('https://trivia.cinema.example');
    });

    it("counts failed logins by the client address the proxy reports", async () => {
      const visitor = new TestApi(server);
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let i = 0; i < 5; i++) {
        expect((await visitor.request('POST', '/api/admin/login', { username: 'admin', password: 'wrong' }, from('203.0.113.50'))).status).toBe(401);
      }
      expect((await visitor.request('POST', '/api/admin/login', { username: 'admin', password: 'wrong' }, from('203.0.113.50'))).status).toBe(429);
      const elsewhere = await visitor.request('POST', '/api/admin/login', { username: 'admin', password: server.adminPassword }, from('203.0.113.51'));
      expect(elsewhere.status).toBe(200);
    });
  });

  describe('a hop count (TRUST_PROXY=1)', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ env: { TRUST_PROXY: '1' }, loginClock });
    });
    afterAll(() => server?.close());

    it('believes the one proxy in front (Fastify 5.12 would ignore a bare number), and only the last hop it added', async () => {
      const api = new TestApi(server);
      const publicUrl = await api.request('GET', '/api/public-url', undefined, { ...FORGED, 'x-forwarded-host': 'trivia.cinema.example' });
      expect(publicUrl.body).toEqual({ publicUrl: 'https://trivia.cinema.example' });
      // A client that prepends a made-up address gets counted by the one its proxy saw.
      const chain = (fake: string) => ({ 'x-forwarded-for': `${fake}, 203.0.113.60` });
      for (let i = 0; i < 5; i++) {
        expect((await api.request('POST', '/api/admin/login', { username: 'admin', password: 'wrong' }, chain(`198.51.100.${i}`))).status).toBe(401);
      }
      expect((await api.request('POST', '/api/admin/login', { username: 'admin', password: 'wrong' }, chain('198.51.100.77'))).status).toBe(429);
    });
  });

  it('parses off, hop counts and address lists, and refuses anything else with a message', () => {
    expect(parseTrustProxy(undefined)).toEqual({ value: false });
    expect(parseTrustProxy('off')).toEqual({ value: false });
    expect(parseTrustProxy('2')).toEqual({ value: 2 });
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.5,::1,loopback')).toEqual({ value: ['10.0.0.0/8', '192.168.1.5', '::1', 'loopback'] });
    for (const bad of ['true', 'yes please', '10.0.0.0/33', '300.1.1.1', '11']) expect(parseTrustProxy(bad)).toHaveProperty('error');
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.0/8']);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
