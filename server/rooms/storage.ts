/**
 * What a room needs from storage, as an interface (boardgame.io's storage seam): everything
 * required to resume a live session lives behind it, so any instance can pick a game up.
 * `DbRoomStorage` implements it on the shared Kysely store; tests may use `MemoryRoomStorage`.
 */
import type { SessionStatus } from '../../protocol/index.js';
import type { AnswerRecord, LiveSnapshot, Program, ScoreWrite, StoredAnswer, StoredScore } from '../engine/index.js';

export interface RoomSession {
  id: string;
  status: SessionStatus;
  autoRotate: boolean;
  mediaItemsPerTransition: number;
  /** The resume snapshot, already validated; null when absent or not understood. */
  live: LiveSnapshot | null;
}

export interface AnswerWrite {
  sessionId: string;
  playerId: string;
  asking: number;
  answer: AnswerRecord;
}

/** The durable outcome of one engine step, written in one transaction. */
export interface CommitWrite {
  sessionId: string;
  /** Absolute totals of the players who answered a question that just closed. */
  scores: ScoreWrite[];
  /** The resume snapshot (null: nothing to resume) and the session's question position. */
  snapshot?: { live: LiveSnapshot | null; currentQuestionIndex: number };
  /** Set when Pause/Resume changed the flag, so the admin card shows it after a reload. */
  autoRotate?: boolean;
}

/**
 * Thrown by a write that this instance may no longer make: in multi-instance mode another
 * instance owns the session now (server/cluster/fence.ts). Never retried.
 */
export class FencedError extends Error {
  constructor(sessionId: string) {
    super(`This instance no longer owns session ${sessionId}; the write was refused`);
  }
}

export interface RoomStorage {
  listLiveSessionIds(): Promise<string[]>;
  loadSession(sessionId: string): Promise<RoomSession | undefined>;
  loadProgram(session: RoomSession): Promise<Program>;
  loadScores(sessionId: string): Promise<StoredScore[]>;
  /** The answers of one asking (the one a resumed question or reveal belongs to). */
  loadAnswers(sessionId: string, asking: number): Promise<StoredAnswer[]>;
  /** Idempotent: an answer already stored for its asking is kept. */
  saveAnswers(answers: AnswerWrite[]): Promise<void>;
  commit(write: CommitWrite): Promise<void>;
}
