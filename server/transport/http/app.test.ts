import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../testing/api.js';
import { startTestServer, type TestServer } from '../../testing/server.js';

describe('the app shell', () => {
  let server: TestServer;
  let api: TestApi;
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-web-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Marquee</title><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
    server = await startTestServer({ webDir });
    api = new TestApi(server);
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it.each(['/', '/admin', '/admin/login', '/display/abc', '/player/abc', '/player/abc/game', '/no/such/page'])(
    'serves the web app for %s so the client router decides',
    async (url) => {
      const res = await api.get(url);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(String(res.body)).toContain('<div id="root">');
    },
  );

  it('sends security headers: no type sniffing, no framing of pages by other sites', async () => {
    const page = await api.get('/admin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const json = await api.get('/api/public-url');
    expect(json.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves hashed assets with long-lived caching', async () => {
    const res = await api.get('/assets/app-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect((await api.get('/assets/missing.js')).status).toBe(404);
  });

  it('answers unknown API paths with a JSON 404, not the web app', async () => {
    const res = await api.get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No route for GET /api/no-such-thing' });
  });

  it('documents the API from its schemas at /api/docs', async () => {
    const spec = await api.get('/api/docs/json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toMatch(/^3\./);
    const paths = Object.keys(spec.body.paths);
    for (const p of ['/api/admin/login', '/api/admin/sessions', '/api/admin/sessions/{id}/items', '/api/admin/questions', '/api/player/register', '/api/sessions/{id}/join-url']) {
      expect(paths).toContain(p);
    }
    // Body schemas come from the zod validators, so the docs cannot drift from validation.
    const create = spec.body.paths['/api/admin/sessions'].post.requestBody.content['application/json'].schema;
    expect(create.required).toContain('title');
    expect(create.properties.mediaItemsPerTransition).toMatchObject({ minimum: 1, maximum: 10 });
    const ui = await api.get('/api/docs');
    expect([200, 302]).toContain(ui.status);
  });

  it('answers malformed URLs and over-long ids with { message } only', async () => {
    const bad = await api.get('/api/sessions/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Malformed URL' });
    const long = await api.get(`/api/sessions/${'a'.repeat(500)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ message: 'A path parameter is too long' });
  });

  it('never answers a stack trace, whatever the body', async () => {
    await api.login();
    for (const payload of ['[', 'null', '"text"', '12', '{"title": {"$gt": ""}}']) {
      const res = await api.request('POST', '/api/admin/sessions', payload, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(js|ts):\d+/);
    }
    const text = await api.request('POST', '/api/admin/sessions', 'title=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    const xml = await api.request('POST', '/api/admin/sessions', '<title/>', { 'content-type': 'application/xml' });
    expect(xml.status).toBe(415);
    expect(typeof xml.body.message).toBe('string');
    expect(typeof text.body.message).toBe('string');
  });
});
