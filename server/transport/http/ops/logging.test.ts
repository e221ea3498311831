/**
 * What the log of a real server shows while an administrator and players use it: one JSON line
 * per request with its id, and never a password, admin token, player token or signature, even at
 * the most verbose level.
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../../../ops/logging.js';
import { TestApi } from '../../../testing/api.js';
import { startTestServer, TEST_ADMIN, type TestServer } from '../../../testing/server.js';
import { TestSocket } from '../../ws/testing/client.js';

class LogCapture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
  get lines(): Record<string, any>[] {
    return this.text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }
}

describe('redactUrl', () => {
  it('replaces the values of credential parameters and keeps the rest', () => {
    expect(redactUrl('/ws?type=player&sessionId=s1&playerId=p1&playerToken=abc')).toBe(
      `/ws?type=player&sessionId=s1&playerId=p1&playerToken=${REDACTED}`,
    );
    expect(redactUrl('/api/uploads/x?expires=1&signature=s3cr3t')).toBe(`/api/uploads/x?expires=1&signature=${REDACTED}`);
    expect(redactUrl('/a?X-Amz-Signature=1&X-Amz-Credential=2&TOKEN=3')).toBe(`/a?X-Amz-Signature=${REDACTED}&X-Amz-Credential=${REDACTED}&TOKEN=${REDACTED}`);
    expect(redactUrl('/api/sessions/abc')).toBe('/api/sessions/abc');
  });
});

describe('the request log', () => {
  const log = new LogCapture();
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('has one line per request with its id, and no secret anywhere', async () => {
    server = await startTestServer({ logger: { level: 'trace', stream: log } });
    const api = new TestApi(server);
    const secrets: string[] = [TEST_ADMIN.password];

    // A failed and a successful login (passwords in bodies), then admin calls with the bearer token and the cookie.
    expect((await api.post('/api/admin/login', { username: 'admin', password: 'wrong-password-42' })).status).toBe(401);
    secrets.push('wrong-password-42');
    const login = await api.post('/api/admin/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password });
    const token: string = login.body.token;
    secrets.push(token);
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    // The login's device cookie (DESIGN §15) is a credential of sorts too.
    secrets.push(String(login.headers['set-cookie']).match(/marquee_device=([^;,]+)/)![1]!);
    api.token = token;
    const session = await api.post('/api/admin/sessions', { title: 'Log Night', autoRotate: true, mediaItemsPerTransition: 1 });
    expect(session.status).toBe(201);
    const sessionId: string = session.body.id;
    api.token = undefined;
    expect((await api.request('GET', `/api/admin/sessions/${sessionId}`, undefined, { cookie })).status).toBe(200);
    expect((await api.request('GET', '/api/admin/sessions', undefined, { authorization: 'Bearer not-a-real-token-123' })).status).toBe(401);
    secrets.push('not-a-real-token-123');

    // A player registers (its token is in the response), then sockets connect with tokens in their URLs.
    const registered = await api.post('/api/player/register', { name: 'Ann', email: 'ann@example.com', sessionId });
    expect(registered.status).toBe(201);
    const { id: playerId, playerToken } = registered.body;
    secrets.push(playerToken);
    const sockets = [
      await TestSocket.join(server.baseUrl, { type: 'admin', sessionId, token }),
      await TestSocket.join(server.baseUrl, { type: 'player', sessionId, playerId, playerToken }),
    ];
    const refused = await TestSocket.open(server.baseUrl, { type: 'player', sessionId, playerId, playerToken: 'forged-player-token-77' });
    await refused.closed;
    secrets.push('forged-player-token-77');
    // The same credentials in URLs that reach the HTTP router (a plain GET of /ws, a signed upload URL).
    const wsOverHttp = await fetch(`${server.baseUrl}/ws?type=admin&sessionId=${sessionId}&token=${token}`);
    expect(wsOverHttp.status).toBe(404);
    const upload = await fetch(`${server.baseUrl}/api/uploads/00000000-0000-4000-8000-000000000000?expires=1&signature=upload-signature-99`, { method: 'PUT', body: 'x' });
    expect(upload.status).toBeGreaterThanOrEqual(400);
    secrets.push('upload-signature-99');
    expect((await api.get('/healthz')).status).toBe(200);
    await Promise.all(sockets.map((s) => s.close()));
    await server.close();
    server = undefined;

    for (const secret of secrets) expect(log.text, `a secret (${secret.slice(0, 4)}…) reached the log`).not.toContain(secret);

    const requests = log.lines.filter((line) => line.msg === 'request');
    // 7 inject calls + 2 fetches; the sockets' upgrades are not HTTP requests to Fastify.
    expect(requests).toHaveLength(9);
    for (const line of requests) {
      expect(line).toMatchObject({ reqId: expect.any(String), method: expect.any(String), statusCode: expect.any(Number), route: expect.any(String) });
      expect(typeof line.responseTimeMs).toBe('number');
    }
    expect(new Set(requests.map((line) => line.reqId)).size).toBe(9);
    expect(requests.find((line) => line.route === '/api/admin/sessions/:id')).toMatchObject({ url: `/api/admin/sessions/${sessionId}`, statusCode: 200 });
    expect(requests.find((line) => line.url.startsWith('/ws'))?.url).toContain(`token=${REDACTED}`);
    // Probes are polled every second: their successes are debug lines, not info.
    expect(requests.find((line) => line.route === '/healthz')?.level).toBe(20);
  });

  it('takes the request id from X-Request-Id when the proxy sends one, and returns it', async () => {
    server = await startTestServer({ logger: { level: 'info', stream: log } });
    const res = await new TestApi(server).request('GET', '/api/public-url', undefined, { 'x-request-id': 'lb-1234' });
    expect(res.headers['x-request-id']).toBe('lb-1234');
    expect(log.lines.some((line) => line.reqId === 'lb-1234' && line.msg === 'request')).toBe(true);
  });
});
