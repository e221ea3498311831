/**
 * /metrics as Prometheus scrapes it: parsed, and its counters and gauges followed through a real
 * game over sockets (on a fake game clock); the optional METRICS_TOKEN.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parsePrometheus, sampleSum, type Sample } from '../../../ops/testing/prometheus.js';
import { FakeClock } from '../../../game/rooms/fake-clock.js';
import { TestApi } from '../../../testing/api.js';
import { DIALECTS } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { admin, createGame, display, player, startGameServer } from '../../ws/testing/setup.js';

async function scrape(api: TestApi, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await api.request('GET', '/metrics', undefined, headers);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return parsePrometheus(String(res.body));
}

describe.each(DIALECTS)('/metrics during a game on %s', (dialect) => {
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('counts sockets by role, live sessions, answers, broadcasts, writes and requests by route', async () => {
    const started = await startGameServer(dialect, clock);
    server = started.server;
    const { api } = started;
    const game = await createGame(server, api, {
      items: [{ question: { text: 'Who directed Jaws?', correctIndex: 1 } }, { question: { text: 'Year of Casablanca?', correctIndex: 2 } }],
      players: 2,
    });
    const before = await scrape(api);
    expect(sampleSum(before, 'marquee_live_sessions')).toBe(0);
    expect(sampleSum(before, 'marquee_websocket_connections')).toBe(0);
    // The default process metrics, event-loop delay among them, are there too.
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(before.some((s) => s.name === name), name).toBe(true);
    }

    const sockets = [await display(server, game), await admin(server, game), await player(server, game, 0), await player(server, game, 1)];
    const asking = sockets[0].next('session_state', (m) => m.phase === 'question');
    expect((await api.post(`/api/admin/sessions/${game.sessionId}/start`)).status).toBe(200);
    await asking;
    const ended = sockets[0].next('question_end');
    for (const [i, socket] of sockets.slice(2).entries()) {
      await clock.advance(1_000);
      const accepted = socket.next('answer_accepted');
      socket.send({ type: 'submit_answer', questionId: game.questions[0].id, selectedIndex: i });
      await accepted;
    }
    await ended;
    await server.server.realtime.rooms.whenIdle();

    const during = await scrape(api);
    expect(sampleSum(during, 'marquee_websocket_connections', { role: 'player' })).toBe(2);
    expect(sampleSum(during, 'marquee_websocket_connections', { role: 'display' })).toBe(1);
    expect(sampleSum(during, 'marquee_websocket_connections', { role: 'admin' })).toBe(1);
    expect(sampleSum(during, 'marquee_live_sessions')).toBe(1);
    expect(sampleSum(during, 'marquee_answers_total') - sampleSum(before, 'marquee_answers_total')).toBe(2);
    const count = (samples: Sample[], name: string, labels: Record<string, string> = {}) => sampleSum(samples, `${name}_count`, labels);
    // The question went to everyone (target all), its end to the audience...: several broadcasts, each observed once.
    expect(count(during, 'marquee_broadcast_duration_seconds')).toBeGreaterThan(count(before, 'marquee_broadcast_duration_seconds'));
    expect(count(during, 'marquee_database_write_duration_seconds', { operation: 'commit' })).toBeGreaterThanOrEqual(1);
    // Requests are labelled by route pattern, never by the raw URL with its ids.
    expect(count(during, 'marquee_http_request_duration_seconds', { route: '/api/admin/sessions/:id/start', method: 'POST', status_code: '200' })).toBe(1);
    expect(during.some((s) => Object.values(s.labels).some((v) => v.includes(game.sessionId)))).toBe(false);

    await Promise.all(sockets.map((s) => s.close()));
    await api.post(`/api/admin/sessions/${game.sessionId}/stop`);
    // The server learns of a close a moment after the client: scrape until the gauges follow.
    const settled = async () => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const samples = await scrape(api);
        if (sampleSum(samples, 'marquee_websocket_connections') + sampleSum(samples, 'marquee_live_sessions') === 0) return samples;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return scrape(api);
    };
    const after = await settled();
    expect(sampleSum(after, 'marquee_websocket_connections')).toBe(0);
    expect(sampleSum(after, 'marquee_live_sessions')).toBe(0);
  });
});

describe('/metrics with METRICS_TOKEN set', () => {
  const token = 'metrics-token-0123456789';
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('answers 401 without the bearer token or with a wrong one, and the metrics with it', async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
    const api = new TestApi(server);
    const missing = await api.get('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ message: 'A valid METRICS_TOKEN bearer token is required' });
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await api.request('GET', '/metrics', undefined, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    // An admin's token is not a metrics token.
    await api.login();
    expect((await api.get('/metrics')).status).toBe(401);
    const samples = await scrape(api, { authorization: `Bearer ${token}` });
    expect(samples.some((s) => s.name === 'marquee_answers_total')).toBe(true);
    // The probes stay open for load balancers.
    expect((await api.get('/healthz')).status).toBe(200);
  });
});
