/**
 * One shared live transaction on SQLite, as plain data: the answers to log, then each session's
 * writes in order (DbRoomStorage builds it). The same function writes it on the event loop's
 * connection (ScoreRepository.transactionNow) or on the live writer's (live-writer.ts), so both
 * run the same statements.
 */
import type { Asking, LiveRowChange, LiveWrites } from './live-writes.js';

/** An answer as stored (`answer_log`, `answers`). */
export interface AnswerRecord {
  sessionId: string;
  playerId: string;
  questionId: string;
  asking: number;
  selectedIndex: number;
  isCorrect: boolean;
  pointsEarned: number;
  elapsedMs: number;
  answeredAt: string;
}

export interface ScoreWriteRow {
  playerId: string;
  pointsTotal: number;
  reachedAt: string;
}

/** What one transaction did to the answer log: rows logged (by session) and sessions settled (the rowids moved). */
export interface LogChanges {
  added: { sessionId: string; rowid: number }[];
  settled: Map<string, number[]>;
}

/** The answer log's and the scores' writes on a connection (scores.ts, DirectSqliteWrites). */
interface LogWrites {
  logAnswers(answers: readonly AnswerRecord[]): void;
  settle(sessionId: string, committed?: readonly number[]): void;
  upsertScores(sessions: readonly { sessionId: string; scores: readonly ScoreWriteRow[] }[]): void;
}

/** One session's writes besides its answers, in the order written. */
export interface LivePlan {
  sessionId: string;
  /** The logged answers move into `answers` (scores.ts). */
  settle: boolean;
  row: LiveRowChange | undefined;
  /** The stored roster is replaced by the snapshot's. */
  clearRoster: boolean;
  joined: string[];
  askings: Asking[];
  scores: ScoreWriteRow[];
}

export interface LiveWork {
  /** Every batch's answers, in order: each settle finds its session's among them. */
  answers: AnswerRecord[];
  plans: LivePlan[];
  /**
   * For each session settled, its rowids logged and committed before (the live writer's
   * connection does not keep the list: the event loop's does).
   */
  logged?: Record<string, number[]>;
}

/** Inside a transaction: every answer and each session's writes, each kind in as few statements as it takes. */
export function writeLiveWork(direct: LogWrites, live: LiveWrites, work: LiveWork): void {
  if (work.answers.length > 0) direct.logAnswers(work.answers);
  for (const plan of work.plans) {
    const { sessionId } = plan;
    if (plan.settle) direct.settle(sessionId, work.logged?.[sessionId]);
    if (plan.row) live.storeRowNow(sessionId, plan.row);
    if (plan.clearRoster) live.clearRosterNow(sessionId);
    if (plan.joined.length > 0) live.appendRosterNow(sessionId, plan.joined);
    if (plan.askings.length > 0) live.insertAskingsNow(sessionId, plan.askings);
  }
  direct.upsertScores(work.plans);
}
