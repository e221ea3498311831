/**
 * The REST calls the generator makes, the same against Marquee and the baseline: an administrator
 * builds the game (questions, sessions with an intro slide then one question per round, started),
 * then N phones register. Everything goes over loopback with the runtime's own fetch.
 */

export interface Registered {
  id: string;
  playerToken: string;
  sessionId: string;
}

/** Long enough that no question times out while a round is measured; the early end closes it. */
export const QUESTION_TIME_LIMIT_SECONDS = 120;
export const QUESTION_POINTS = 100;
export const CORRECT_INDEX = 0;

async function call<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} → ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export interface Game {
  adminToken: string;
  sessionIds: string[];
}

/**
 * Logs in, creates `rounds` questions and `sessions` sessions holding them all, starts the sessions
 * (`concurrency` sessions set up at once: a chain's operators do not wait for each other).
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
  const sessionIds: string[] = new Array(sessions);
  let next = 0;
  const worker = async () => {
    while (next < sessions) {
      const s = next++;
      // Auto-play off: after the intro slide the game holds, and the admin's Next drives each round.
      const session = await call<{ id: string }>(baseUrl, '/api/admin/sessions', { title: `Bench auditorium ${s + 1}`, autoRotate: false }, token);
      await call(baseUrl, `/api/admin/sessions/${session.id}/slides`, { slideType: 'intro' }, token);
      for (const questionId of questionIds) await call(baseUrl, `/api/admin/sessions/${session.id}/questions`, { questionId }, token);
      await call(baseUrl, `/api/admin/sessions/${session.id}/start`, undefined, token);
      sessionIds[s] = session.id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sessions) }, worker));
  return { adminToken: token, sessionIds };
}

/** Registers `count` players, player i into session i mod sessions, `concurrency` requests in flight. */
export async function registerPlayers(baseUrl: string, sessionIds: string[], count: number, concurrency: number, runTag: string): Promise<Registered[]> {
  const players: Registered[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const sessionId = sessionIds[i % sessionIds.length];
      const player = await call<{ id: string; playerToken: string }>(baseUrl, '/api/player/register', {
        name: `Phone ${i + 1}`,
        email: `phone-${runTag}-${i + 1}@bench.example`,
        sessionId,
      });
      players[i] = { id: player.id, playerToken: player.playerToken, sessionId };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return players;
}
