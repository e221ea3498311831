/**
 * RoomStorage in memory, for room tests without a database (and to show the seam is small).
 * It can be told to fail the next writes, to exercise the retry path.
 */
import type { LiveSnapshot, Program, StoredAnswer, StoredScore } from '../engine/index.js';
import type { CommitBatch, RoomSession, RoomStorage } from './storage.js';

export class MemoryRoomStorage implements RoomStorage {
  readonly sessions = new Map<string, RoomSession>();
  readonly programs = new Map<string, Program>();
  readonly names = new Map<string, string>();
  /** sessionId → playerId → score */
  readonly scores = new Map<string, Map<string, { pointsTotal: number; reachedAtMs: number }>>();
  /** `${sessionId}/${asking}/${playerId}` → answer */
  readonly answers = new Map<string, StoredAnswer & { sessionId: string }>();
  readonly commits: CommitBatch[] = [];
  /** sessionId → players who joined since the stored roster was written (CommitBatch.joined). */
  readonly joined = new Map<string, Set<string>>();
  /** How many upcoming commits throw. */
  failNextWrites = 0;

  addSession(program: Program, options: { status?: RoomSession['status']; autoRotate?: boolean; live?: LiveSnapshot | null } = {}): void {
    this.sessions.set(program.sessionId, {
      id: program.sessionId,
      status: options.status ?? 'draft',
      autoRotate: options.autoRotate ?? true,
      mediaItemsPerTransition: program.mediaItemsPerTransition,
      live: options.live ?? null,
      currentQuestionIndex: 0,
    });
    this.programs.set(program.sessionId, program);
  }

  async listLiveSessionIds(): Promise<string[]> {
    return [...this.sessions.values()].filter((s) => s.status === 'live').map((s) => s.id);
  }

  async loadSession(sessionId: string): Promise<RoomSession | undefined> {
    const session = this.sessions.get(sessionId);
    const joined = this.joined.get(sessionId);
    if (!session?.live || !joined?.size) return session && structuredClone(session);
    return { ...structuredClone(session), live: { ...session.live, roster: [...new Set([...(session.live.roster ?? []), ...joined])] } };
  }

  async loadProgram(session: RoomSession): Promise<Program> {
    return structuredClone(this.programs.get(session.id)!);
  }

  async loadScores(sessionId: string): Promise<StoredScore[]> {
    return [...(this.scores.get(sessionId) ?? new Map()).entries()].map(([playerId, s]) => ({
      playerId,
      name: this.names.get(playerId) ?? playerId,
      ...s,
    }));
  }

  async loadAnswers(sessionId: string, asking: number): Promise<StoredAnswer[]> {
    return [...this.answers.values()].filter((a) => a.sessionId === sessionId && a.asking === asking);
  }

  async commit(batch: CommitBatch): Promise<void> {
    this.maybeFail();
    this.commits.push(structuredClone(batch));
    for (const a of batch.answers) {
      const key = `${a.sessionId}/${a.asking}/${a.playerId}`;
      if (!this.answers.has(key)) this.answers.set(key, { sessionId: a.sessionId, playerId: a.playerId, asking: a.asking, ...a.answer });
    }
    const session = this.sessions.get(batch.sessionId);
    if (session && batch.snapshot) {
      session.live = batch.snapshot.live;
      session.currentQuestionIndex = batch.snapshot.currentQuestionIndex;
      this.joined.delete(batch.sessionId);
    }
    for (const playerId of batch.joined ?? []) this.joined.set(batch.sessionId, (this.joined.get(batch.sessionId) ?? new Set()).add(playerId));
    if (session && batch.autoRotate !== undefined) session.autoRotate = batch.autoRotate;
    const scores = this.scores.get(batch.sessionId) ?? new Map();
    for (const s of batch.scores) scores.set(s.playerId, { pointsTotal: s.pointsTotal, reachedAtMs: s.reachedAtMs });
    this.scores.set(batch.sessionId, scores);
  }

  private maybeFail(): void {
    if (this.failNextWrites > 0) {
      this.failNextWrites--;
      throw new Error('database unavailable (simulated)');
    }
  }
}
