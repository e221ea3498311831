/**
 * What a room needs from storage, as an interface (boardgame.io's storage seam): everything
 * required to resume a live session lives behind it, so any instance can pick a game up.
 * `DbRoomStorage` implements it on the shared Kysely store; tests may use `MemoryRoomStorage`.
 */
import type { SessionStatus } from '../../../protocol/index.js';
import type { AnswerRecord, LiveSnapshot, Program, ScoreWrite, StoredAnswer, StoredScore } from '../engine/index.js';

export interface RoomSession {
  id: string;
  status: SessionStatus;
  autoRotate: boolean;
  mediaItemsPerTransition: number;
  /**
   * The resume snapshot, already validated; null when absent or not understood. Its roster also
   * lists the players who joined after it was written (CommitBatch.joined).
   */
  live: LiveSnapshot | null;
  /** Stored with the snapshot: the position of the question asked last. */
  currentQuestionIndex: number;
}

export interface AnswerWrite {
  sessionId: string;
  playerId: string;
  asking: number;
  answer: AnswerRecord;
}

/** The resume snapshot (null: nothing to resume) and the session's question position. */
export interface SnapshotWrite {
  live: LiveSnapshot | null;
  currentQuestionIndex: number;
}

/**
 * One transaction of a room (group commit, group-commit.ts): the answers gathered in a few
 * milliseconds, and the scores and snapshot of a step. Written all or nothing: a confirmation
 * is sent only once its batch is committed. (A multi-instance fencing check belongs inside the
 * same transaction.)
 */
export interface CommitBatch {
  sessionId: string;
  /** Idempotent: an answer already stored for its asking is kept. */
  answers: AnswerWrite[];
  /** Absolute totals of the players who answered a question that just closed. */
  scores: ScoreWrite[];
  snapshot?: SnapshotWrite;
  /** Questions that went out in this step (normally none or one). */
  askings?: { asking: number; questionId: string; askedAtMs: number }[];
  /** Set when Pause/Resume changed the flag, so the admin card shows it after a reload. */
  autoRotate?: boolean;
  /**
   * Players who joined the live game since the stored roster was written: kept beside the
   * snapshot until a snapshot (whose roster lists them) replaces them, so a resume after a crash
   * awaits them too without the whole roster being rewritten for every newcomer.
   */
  joined?: string[];
}

/**
 * Thrown by a write that this instance may no longer make: in multi-instance mode another
 * instance owns the session now (server/transport/cluster/fence.ts). Never retried.
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
  /** Writes a batch in one transaction; resolves once it is committed (durable). */
  commit(batch: CommitBatch): Promise<void>;
  /**
   * Writes the batches of several sessions in one transaction, all or nothing (shared-commits.ts);
   * each batch as `commit` would, its session's fence included. Optional: without it every batch
   * is committed on its own. `answers`, of any sessions, are written first, as a batch's answers
   * would be (the instance's list of answers, shared-commits.ts); never given when `fenced`.
   */
  commitMany?(batches: CommitBatch[], answers?: AnswerWrite[]): Promise<void>;
  /**
   * Every write checks its session's owner first (multi-instance mode): answers may then only go
   * in a batch of their session, whose write checks it.
   */
  readonly fenced?: boolean;
}
