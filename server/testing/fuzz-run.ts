/**
 * One full fuzz run on a fresh server (SQLite or PostgreSQL): a live session with an open question
 * and registered players, a draft session with items, then the WebSocket fuzz, then the HTTP fuzz,
 * then the checks that the server is still up and serving. Shared by the test suite
 * (server/transport/http/fuzz.test.ts) and `npm run fuzz` (server/testing/fuzz-cli.ts).
 */
import { FakeClock } from '../game/rooms/fake-clock.js';
import { admin, createGame, display, player, startGameServer } from '../transport/ws/testing/setup.js';
import type { TestDialect } from './databases.js';
import { type Failure, type HttpFuzzReport, type WsFuzzReport, apiStateReader, fuzzHttp, fuzzWebSocket, operationsOf } from './fuzz.js';

export interface FuzzRunOptions {
  dialect: TestDialect;
  requests: number;
  sockets: number;
  seed: number;
  concurrency?: number;
}

export interface FuzzRunReport {
  http: HttpFuzzReport;
  ws: WsFuzzReport;
  operations: number;
  /** Everything that went wrong, from both runs and the checks after them. */
  failures: Failure[];
}

export async function runFuzz(options: FuzzRunOptions): Promise<FuzzRunReport> {
  // The fake clock holds the question open for as long as the fuzz takes.
  const clock = new FakeClock();
  const { server, api } = await startGameServer(options.dialect, clock);
  try {
    const game = await createGame(server, api, {
      items: [{ question: { text: 'Which film?', correctIndex: 2, timeLimitSeconds: 3600 } }, { slide: 'rules' }, { mediaBlock: 2 }],
      players: 6,
    });
    const draft = await createGame(server, api, { items: [{ slide: 'intro' }, { question: { text: 'Draft?', correctIndex: 0 } }], players: 1 });
    await api.post('/api/admin/auditoriums', { name: 'Screen 1' });
    const started = await api.post(`/api/admin/sessions/${game.sessionId}/start`);
    if (started.status !== 200) throw new Error(`could not start the session: ${started.status}`);
    const watcher = await display(server, game);
    await watcher.waitFor((m) => m.type === 'session_state' && m.phase === 'question');

    const { adminAuth } = server.server.deps;
    const login = async () => (await adminAuth.login(server.adminUsername, server.adminPassword))!.token;
    const readerToken = await login();
    let fuzzToken = await login();
    const state = apiStateReader(server.baseUrl, readerToken, [game.sessionId, draft.sessionId]);
    const failures: Failure[] = [];

    // WebSocket first, while the question is surely open: nothing sent may change the game.
    const beforeWs = await state.read();
    const ws = await fuzzWebSocket(
      { baseUrl: server.baseUrl, sessionId: game.sessionId, adminToken: game.adminToken, players: game.players, questionId: game.questions[0].id },
      { sockets: options.sockets, seed: options.seed },
    );
    failures.push(...ws.failures);
    if ((await state.read()) !== beforeWs) failures.push({ request: 'websocket fuzz', problem: 'the state read back changed' });
    for (let i = 0; i < game.players.length; i++) {
      const phone = await player(server, game, i);
      const view = phone.messages.find((m) => m.type === 'session_state')!;
      if (view.phase !== 'question' || view.answered !== false || view.playerScore !== 0) {
        failures.push({ request: 'websocket fuzz', problem: `player ${i} rejoined to ${JSON.stringify({ phase: view.phase, answered: view.answered, score: view.playerScore })}` });
      }
      phone.close();
    }
    // Phones coming and going move the display's counts (answer_progress, and presence for the
    // lobby: DESIGN §17); nothing else may change, and nobody joined: no name reached the screen.
    const acted = watcher.messages.filter(
      (m) =>
        m.type !== 'session_state' &&
        !(m.type === 'answer_progress' && m.answered === 0) &&
        !(m.type === 'presence' && (m.recentNames ?? []).length === 0),
    );
    if (acted.length > 0) failures.push({ request: 'websocket fuzz', problem: `the display saw ${JSON.stringify(acted).slice(0, 300)}` });
    watcher.close();

    const document = (await api.get('/api/docs/json')).body;
    const operations = operationsOf(document);
    const http = await fuzzHttp({
      baseUrl: server.baseUrl,
      token: async () => ((await adminAuth.verify(fuzzToken)) ? fuzzToken : (fuzzToken = await login())),
      operations,
      state,
      requests: options.requests,
      seed: options.seed,
      concurrency: options.concurrency,
      inject: async (request) => {
        const res = await server.server.app.inject({
          method: request.method as 'GET',
          url: request.target,
          headers: Object.fromEntries(request.headers),
          payload: request.body.length > 0 ? request.body : undefined,
        });
        return { status: res.statusCode, head: `HTTP/1.1 ${res.statusCode}\r\n${res.body.slice(0, 200)}` };
      },
    });
    failures.push(...http.failures);

    // Still up, and still serving pages, the API and sockets.
    const health = await fetch(`${server.baseUrl}/healthz`);
    if (health.status !== 200) failures.push({ request: 'GET /healthz after the fuzz', problem: `answered ${health.status}` });
    const page = await fetch(`${server.baseUrl}/admin`);
    if (page.status !== 200) failures.push({ request: 'GET /admin after the fuzz', problem: `answered ${page.status}` });
    const adminSocket = await admin(server, game);
    adminSocket.close();
    return { http, ws, operations: operations.length, failures };
  } finally {
    await server.close();
  }
}
