/**
 * What storage says a room's game is: at a room's first task (resume a live session, or prepare a
 * waiting or finished one) and when a session goes live (a fresh game from item 0).
 */
import { type Effect, type EngineState, type LiveSnapshot, createEngineState, reduce, resumeEngine } from '../engine/index.js';
import type { RoomStorage } from './storage.js';

export class SessionNotFoundError extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} not found`);
  }
}

export interface LoadedGame {
  state: EngineState;
  /** A resumed game's effects (its timer, its re-sent state); none for a game not live. */
  effects: Effect[];
  /** The stored snapshot a resumed game came from. */
  live: LiveSnapshot | null;
}

export async function loadGame(storage: RoomStorage, sessionId: string, nowMs: () => number): Promise<LoadedGame> {
  const session = await storage.loadSession(sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const program = await storage.loadProgram(session);
  const scores = await storage.loadScores(sessionId);
  if (session.status !== 'live') {
    return { state: createEngineState({ program, status: session.status, autoRotate: session.autoRotate, scores }), effects: [], live: null };
  }
  const answers = session.live ? await storage.loadAnswers(sessionId, session.live.asking) : [];
  const resumed = resumeEngine(
    { program, autoRotate: session.autoRotate, live: session.live, scores, answers, currentQuestionIndex: session.currentQuestionIndex },
    nowMs(),
  );
  return { state: resumed.state, effects: resumed.effects, live: session.live };
}

/**
 * The game of a session that just went live, not started yet (null when storage says it is not
 * live): displays put up before the start stay counted (and the insight throttle keeps its pace),
 * and phones that waited for the start count as connected players from the first question.
 */
export async function freshGame(
  storage: RoomStorage,
  sessionId: string,
  waiting: EngineState,
  players: { playerId: string; name: string }[],
  nowMs: () => number,
): Promise<EngineState | null> {
  const session = await storage.loadSession(sessionId);
  if (session?.status !== 'live') return null;
  const program = await storage.loadProgram(session);
  const scores = await storage.loadScores(sessionId); // empty after a restart
  const { displays, insight } = waiting;
  let state: EngineState = { ...createEngineState({ program, status: 'scheduled', autoRotate: session.autoRotate, scores }), displays, insight };
  const now = nowMs();
  for (const { playerId, name } of players) state = reduce(state, { type: 'player_connected', playerId, name }, now).state;
  return state;
}
