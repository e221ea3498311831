/**
 * The REST calls the generator makes, the same against Marquee and the baseline: an administrator
 * builds the game (questions, sessions with an intro slide then one question per round, started),
 * then N phones register. Everything goes over loopback through `node:http` with kept-alive
 * connections: the runtime's fetch cost the generator about twice the CPU per call, and with
 * 16,000 calls to set up 1,000 sessions the generator, not the server, set the pace (issue 26).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Registered {
  id: string;
  playerToken: string;
  sessionId: string;
}

/** Long enough that no question times out while a round is measured; the early end closes it. */
export const QUESTION_TIME_LIMIT_SECONDS = 120;
export const QUESTION_POINTS = 100;
export const CORRECT_INDEX = 0;

function call<T>(baseUrl: string, path: string, body: unknown, token?: string, method: 'GET' | 'POST' = 'POST'): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = { 'content-length': payload === undefined ? 0 : Buffer.byteLength(payload) };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise<T>((resolve, reject) => {
    const request = http.request(baseUrl + path, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) reject(new Error(`${method} ${path} → ${status}: ${text.slice(0, 300)}`));
        else resolve((text ? JSON.parse(text) : {}) as T);
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * GET /api/admin/live (DESIGN §18) `count` times one after another: each request's time in ms, and
 * how many games the last answer listed. What an operator's Live now panel costs the server at
 * this many games (it polls every 2 s).
 */
export async function timeLiveOverview(baseUrl: string, token: string, count: number): Promise<{ ms: number[]; games: number }> {
  const ms: number[] = [];
  let games = 0;
  for (let i = 0; i < count; i++) {
    const startedMs = performance.now();
    games = (await call<unknown[]>(baseUrl, '/api/admin/live', undefined, token, 'GET')).length;
    ms.push(performance.now() - startedMs);
  }
  return { ms, games };
}

export interface Game {
  adminToken: string;
  sessionIds: string[];
}

/**
 * Logs in, creates `rounds` questions and one session holding them all (an intro slide, then the
 * questions), duplicates it into the other `sessions - 1` (a chain copies one pre-show into every
 * auditorium: 1 call per session instead of one per item) and starts them all (`concurrency`
 * calls in flight: a chain's operators do not wait for each other).
 */
export async function setUpGame(
  baseUrl: string,
  password: string,
  sessions: number,
  rounds: number,
  concurrency = 1,
  /** The outage scenario asks a shorter question (its deadline falls inside a long cut). */
  shape: { timeLimitSeconds: number; points: number } = { timeLimitSeconds: QUESTION_TIME_LIMIT_SECONDS, points: QUESTION_POINTS },
): Promise<Game> {
  const { token } = await call<{ token: string }>(baseUrl, '/api/admin/login', { username: 'admin', password });
  const questionIds: string[] = [];
  for (let r = 0; r < rounds; r++) {
    const question = await call<{ id: string }>(
      baseUrl,
      '/api/admin/questions',
      {
        text: `Bench question ${r + 1}: which film opened the cinema's first season?`,
        choices: ['Metropolis', 'Nosferatu', 'The Kid', 'Safety Last!'],
        correctIndex: CORRECT_INDEX,
        points: shape.points,
        timeLimitSeconds: shape.timeLimitSeconds,
        categories: ['bench', 'film'],
      },
      token,
    );
    questionIds.push(question.id);
  }
  // Auto-play off: after the intro slide the game holds, and the admin's Next drives each round.
  // Room for the largest scenario (a session takes 2,000 players by default, DESIGN §15).
  const template = await call<{ id: string }>(baseUrl, '/api/admin/sessions', { title: 'Bench auditorium', autoRotate: false, maxPlayers: 100_000 }, token);
  await call(baseUrl, `/api/admin/sessions/${template.id}/slides`, { slideType: 'intro' }, token);
  for (const questionId of questionIds) await call(baseUrl, `/api/admin/sessions/${template.id}/questions`, { questionId }, token);
  const sessionIds: string[] = new Array(sessions);
  sessionIds[0] = template.id;
  await pool(sessions - 1, concurrency, async (s) => {
    sessionIds[s + 1] = (await call<{ id: string }>(baseUrl, `/api/admin/sessions/${template.id}/duplicate`, undefined, token)).id;
  });
  await pool(sessions, concurrency, async (s) => {
    await call(baseUrl, `/api/admin/sessions/${sessionIds[s]}/start`, undefined, token);
  });
  return { adminToken: token, sessionIds };
}

/** Runs `task` over 0..count-1 with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** Registers `count` players, player i into session i mod sessions, `concurrency` requests in flight. */
export async function registerPlayers(baseUrl: string, sessionIds: string[], count: number, concurrency: number, runTag: string): Promise<Registered[]> {
  const players: Registered[] = new Array(count);
  await pool(count, concurrency, async (i) => {
    const sessionId = sessionIds[i % sessionIds.length];
    const player = await call<{ id: string; playerToken: string }>(baseUrl, '/api/player/register', {
      name: `Phone ${i + 1}`,
      email: `phone-${runTag}-${i + 1}@bench.example`,
      sessionId,
    });
    players[i] = { id: player.id, playerToken: player.playerToken, sessionId };
  });
  return players;
}
