/**
 * RoomStorage on the shared Kysely store (SQLite or PostgreSQL). Times are epoch ms in the
 * engine and ISO-8601 text in the database; this is where they are converted.
 *
 * Writes tolerate rows that vanished meanwhile (a player or question deleted during the show):
 * such rows are dropped rather than failing, and so endlessly retrying, a whole batch. Checking
 * first would cost every burst two lookups, so a batch is written as it is, and only when a
 * foreign key refuses it is it written again, filtered, in a new transaction.
 */
import type { Transaction } from 'kysely';
import { parseLiveSnapshot, type Program, type StoredAnswer, type StoredScore } from '../engine/index.js';
import type { Database } from '../../storage/schema.js';
import type { Store } from '../../storage/store.js';
import { isForeignKeyError, isoOfMs as iso, parseJson } from '../../storage/util.js';
import { loadProgram } from './program-loader.js';
import type { CommitBatch, RoomSession, RoomStorage } from './storage.js';

/** Runs a write as it is; if a foreign key refuses it, once more dropping the rows that point nowhere. */
async function retryFilteredOnForeignKey(write: (filter: boolean) => Promise<void>): Promise<void> {
  try {
    await write(false);
  } catch (err) {
    if (!isForeignKeyError(err)) throw err;
    await write(true);
  }
}

async function existingIds(trx: Transaction<Database>, table: 'players' | 'questions' | 'sessions', ids: string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const rows = await trx.selectFrom(table).select('id').where('id', 'in', unique).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * A check run first in every game write transaction; it throws FencedError when this process may
 * no longer write the session (multi-instance mode: server/transport/cluster/fence.ts).
 */
export type WriteFence = (trx: Transaction<Database>, sessionId: string) => Promise<void>;

export class DbRoomStorage implements RoomStorage {
  constructor(
    private readonly store: Store,
    private readonly fence?: WriteFence,
  ) {}

  async listLiveSessionIds(): Promise<string[]> {
    return (await this.store.sessions.listByStatus('live')).map((s) => s.id);
  }

  async loadSession(sessionId: string): Promise<RoomSession | undefined> {
    const session = await this.store.sessions.get(sessionId);
    if (!session) return undefined;
    const stored = session.status === 'live' ? await this.store.sessions.getLiveState(sessionId) : null;
    let live = parseLiveSnapshot(parseJson<unknown>(stored, null));
    // Who joined after the snapshot's roster was written counts as well (migration 013).
    const joined = live ? await this.store.liveRoster.list(sessionId) : [];
    if (live && joined.length > 0) live = { ...live, roster: [...new Set([...(live.roster ?? []), ...joined])] };
    return {
      id: session.id,
      status: session.status,
      autoRotate: session.autoRotate,
      mediaItemsPerTransition: session.mediaItemsPerTransition,
      live,
      currentQuestionIndex: session.currentQuestionIndex,
    };
  }

  loadProgram(session: RoomSession): Promise<Program> {
    return loadProgram(this.store, session);
  }

  async loadScores(sessionId: string): Promise<StoredScore[]> {
    const rows = await this.store.scores.listScores(sessionId);
    return rows.map((r) => ({ playerId: r.playerId, name: r.name, pointsTotal: r.pointsTotal, reachedAtMs: Date.parse(r.reachedAt) }));
  }

  async loadAnswers(sessionId: string, asking: number): Promise<StoredAnswer[]> {
    // With the players' names: someone who answered before a restart and is not back yet still
    // gets a named leaderboard row when the question closes.
    const rows = await this.store.scores.answersForAsking(sessionId, asking);
    return rows.map(({ sessionId: _sessionId, answeredAt, ...answer }) => ({ ...answer, answeredAtMs: Date.parse(answeredAt) }));
  }

  /**
   * Answers, scores and the snapshot in one transaction: stored apart, a crash in between would
   * score a question again on resume (the snapshot would still say "question open"), or lose an
   * answer whose confirmation had gone out. On SQLite (WAL, synchronous=NORMAL) a commit survives
   * a crash of the process; on PostgreSQL (synchronous_commit on) it is on disk.
   */
  async commit(batch: CommitBatch): Promise<void> {
    await retryFilteredOnForeignKey((filter) => this.commitOnce(batch, filter));
  }

  /**
   * Several sessions' batches in one transaction (SharedCommits). No foreign-key filtering here:
   * if any row is refused the whole transaction fails and SharedCommits writes each batch alone
   * through `commit`, which filters. In session order, so two instances' transactions (a handover
   * in flight) lock the sessions' rows in the same order on PostgreSQL.
   */
  async commitMany(batches: CommitBatch[]): Promise<void> {
    const ordered = [...batches].sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
    await this.store.scores.transaction(async (trx) => {
      for (const batch of ordered) await this.writeBatch(trx, batch, false);
    });
  }

  private async commitOnce(batch: CommitBatch, filter: boolean): Promise<void> {
    await this.store.scores.transaction((trx) => this.writeBatch(trx, batch, filter));
  }

  private async writeBatch(trx: Transaction<Database>, batch: CommitBatch, filter: boolean): Promise<void> {
    const { sessionId, snapshot } = batch;
    // Multi-instance mode: answers, scores and snapshot are stored only by the session's owner.
    if (this.fence) await this.fence(trx, sessionId);
    const sessionExists = filter ? (await existingIds(trx, 'sessions', [sessionId])).has(sessionId) : true;
    if (batch.answers.length > 0) {
      let kept = batch.answers;
      if (filter) {
        const players = await existingIds(trx, 'players', kept.map((a) => a.playerId));
        const questions = await existingIds(trx, 'questions', kept.map((a) => a.answer.questionId));
        kept = kept.filter((a) => sessionExists && players.has(a.playerId) && questions.has(a.answer.questionId));
      }
      await this.store.scores.logAnswers(
        trx,
        kept.map((a) => ({ sessionId: a.sessionId, playerId: a.playerId, asking: a.asking, ...a.answer, answeredAt: iso(a.answer.answeredAtMs) })),
      );
    }
    // A quiet step of the game (the reveal ending, a hold, a slide; not a question's start or
    // close, whose results and fan-out wait for their commit): the logged answers move into
    // `answers` (SQLite, scores.ts). Readers settle the session first (answersForAsking, results).
    if ((snapshot || batch.autoRotate !== undefined) && batch.scores.length === 0 && (batch.askings?.length ?? 0) === 0) {
      await this.store.scores.settleAnswers(trx, sessionId);
    }
    // Most batches are a few answers of one session: what they do not carry is not called for
    // (each call an awaited promise; at 1,000 sessions several per session per turn, issue 26).
    if (snapshot || batch.autoRotate !== undefined) {
      await this.store.liveWrites.storeRow(trx, sessionId, {
        ...(snapshot ? { snapshot: { liveJson: snapshot.live && JSON.stringify(snapshot.live), currentQuestionIndex: snapshot.currentQuestionIndex } } : {}),
        ...(batch.autoRotate !== undefined ? { autoRotate: batch.autoRotate } : {}),
      });
    }
    // The snapshot's roster lists everyone present when it was taken: the newcomers appended
    // before it are in it; those of this batch are appended again below.
    if (snapshot) await this.store.liveWrites.clearRoster(trx, sessionId);
    let joined = batch.joined ?? [];
    if (filter && joined.length > 0) {
      const players = await existingIds(trx, 'players', joined);
      joined = joined.filter((playerId) => sessionExists && players.has(playerId));
    }
    if (joined.length > 0) await this.store.liveWrites.appendRoster(trx, sessionId, joined);
    let askings = batch.askings ?? [];
    if (filter && askings.length > 0) {
      const questions = await existingIds(trx, 'questions', askings.map((a) => a.questionId));
      askings = askings.filter((a) => sessionExists && questions.has(a.questionId));
    }
    if (askings.length > 0) {
      await this.store.liveWrites.insertAskings(trx, sessionId, askings.map((a) => ({ asking: a.asking, questionId: a.questionId, askedAt: iso(a.askedAtMs) })));
    }
    if (batch.scores.length === 0) return;
    let kept = batch.scores;
    if (filter) {
      const players = await existingIds(trx, 'players', kept.map((s) => s.playerId));
      kept = kept.filter((s) => sessionExists && players.has(s.playerId));
    }
    await this.store.scores.upsertScores(
      trx,
      sessionId,
      kept.map((s) => ({ playerId: s.playerId, pointsTotal: s.pointsTotal, reachedAt: iso(s.reachedAtMs) })),
    );
  }
}
