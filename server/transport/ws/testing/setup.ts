/**
 * Builds a session for the socket tests through the real API (questions, slides, media blocks,
 * registered players), plus media rows inserted directly, and opens clients by role.
 */
import { FakeClock } from '../../../game/rooms/fake-clock.js';
import { TestApi } from '../../../testing/api.js';
import type { TestDatabase, TestDialect } from '../../../testing/databases.js';
import { startTestServer, type TestServer } from '../../../testing/server.js';
import { TestSocket } from './client.js';

export type ItemSpec =
  | { question: { text: string; correctIndex: number; points?: number; timeLimitSeconds?: number } }
  | { slide: 'intro' | 'rules' | 'break' | 'leaderboard' | 'join' }
  | { mediaBlock: number };

export interface GameSpec {
  items: ItemSpec[];
  players: number;
  /** Durations (s) of media assigned to the session, in order. */
  media?: number[];
  mediaItemsPerTransition?: number;
}

export interface Game {
  sessionId: string;
  questions: { id: string; correctIndex: number }[];
  players: { id: string; name: string; playerToken: string }[];
  adminToken: string;
}

/** A server whose live game runs on a fake clock that waits for the rooms after each timer. */
export async function startGameServer(
  dialect: TestDialect,
  clock: FakeClock,
  options: { database?: TestDatabase; heartbeat?: { pingIntervalMs?: number; bufferCheckIntervalMs?: number; maxBufferedBytes?: number } } = {},
): Promise<{ server: TestServer; api: TestApi }> {
  const server = await startTestServer({ dialect, database: options.database, realtime: { clock, heartbeat: options.heartbeat } });
  clock.settle = () => server.server.realtime.rooms.whenIdle();
  const api = new TestApi(server);
  await api.login();
  return { server, api };
}

async function ok<T = any>(promise: Promise<{ status: number; body: T }>): Promise<T> {
  const res = await promise;
  if (res.status >= 300) throw new Error(`API call failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createGame(server: TestServer, api: TestApi, spec: GameSpec): Promise<Game> {
  const session = await ok(
    api.post('/api/admin/sessions', { title: 'Test Night', autoRotate: true, mediaItemsPerTransition: spec.mediaItemsPerTransition ?? 1 }),
  );
  const sessionId: string = session.id;
  const questions: Game['questions'] = [];
  for (const [i, item] of spec.items.entries()) {
    if ('question' in item) {
      const q = await ok(
        api.post('/api/admin/questions', {
          text: item.question.text,
          choices: [`A${i}`, `B${i}`, `C${i}`, `D${i}`],
          correctIndex: item.question.correctIndex,
          points: item.question.points ?? 100,
          timeLimitSeconds: item.question.timeLimitSeconds ?? 10,
          categories: ['film'],
        }),
      );
      await ok(api.post(`/api/admin/sessions/${sessionId}/questions`, { questionId: q.id }));
      questions.push({ id: q.id, correctIndex: item.question.correctIndex });
    } else if ('slide' in item) {
      await ok(api.post(`/api/admin/sessions/${sessionId}/slides`, { slideType: item.slide }));
    } else {
      await ok(api.post(`/api/admin/sessions/${sessionId}/media-blocks`, { mediaItemCount: item.mediaBlock }));
    }
  }
  const store = server.server.deps.store;
  for (const [i, duration] of (spec.media ?? []).entries()) {
    const media = await store.media.create({
      filePath: `/media/test-${i}`,
      phoneFilePath: null,
      fileType: 'image',
      duration,
      promotionalLink: null,
    });
    await store.media.assign(sessionId, media.id);
    // Assignment order is by time: keep the rows apart so the order is the creation order.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const players: Game['players'] = [];
  for (let i = 1; i <= spec.players; i++) {
    const p = await ok(api.post('/api/player/register', { name: `Player ${i}`, email: `p${i}-${sessionId}@example.com`, sessionId }));
    players.push({ id: p.id, name: p.name, playerToken: p.playerToken });
  }
  return { sessionId, questions, players, adminToken: api.token! };
}

export const display = (server: TestServer, game: Game) => TestSocket.join(server.baseUrl, { type: 'display', sessionId: game.sessionId });
export const admin = (server: TestServer, game: Game) =>
  TestSocket.join(server.baseUrl, { type: 'admin', sessionId: game.sessionId, token: game.adminToken });
export const player = (server: TestServer, game: Game, index: number) =>
  TestSocket.join(server.baseUrl, {
    type: 'player',
    sessionId: game.sessionId,
    playerId: game.players[index].id,
    playerToken: game.players[index].playerToken,
  });

/** Type sequence with runs of timer_tick collapsed ("timer_tick×3"), for order assertions. */
export function collapseTicks(types: string[]): string[] {
  const out: string[] = [];
  for (const type of types) {
    const last = out.at(-1);
    if (type === 'timer_tick' && last?.startsWith('timer_tick')) {
      const n = last.includes('×') ? Number(last.split('×')[1]) : 1;
      out[out.length - 1] = `timer_tick×${n + 1}`;
    } else out.push(type);
  }
  return out;
}

/**
 * Walks the raw frames one socket received and fails if any frame carried `correctIndex` while
 * a question was open (from its session_state until its question_end). Returns how many
 * questions were seen open, so a test can tell the check actually ran.
 */
export function questionsOpenedWithoutAnswer(frames: string[]): number {
  let open: string | null = null;
  let opened = 0;
  for (const frame of frames) {
    const message = JSON.parse(frame);
    if (message.type === 'question_end') open = null;
    if (message.type === 'session_state') {
      open = message.phase === 'question' ? message.question.id : null;
      if (open) opened++;
    }
    if (open !== null && frame.includes('correctIndex')) {
      throw new Error(`correctIndex sent while question ${open} was open: ${frame}`);
    }
  }
  return opened;
}
